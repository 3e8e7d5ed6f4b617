# bench/mysql: examples/shop's GET /api/v1/users/{id} and a streamed export, on MySQL or MariaDB
# (DATABASE_URL=mysql://user:password@host:3306/db). Served by bench/mysql/run.ts and export.ts.

server {
  host = "127.0.0.1"
  port = 8080
}

connection "mysql" "shop" {
  url               = env("DATABASE_URL")
  migrations        = "migrations"
  statement_timeout = "5s"

  # max defaults to 10 connections, as on PostgreSQL.
  pool {
    idle_timeout = "30s"
  }
}

# The export's own connection: a statement_timeout bounds a streamed statement from its start to its
# last row (MariaDB's max_statement_time), slow readers included, so a long export goes without one.
connection "mysql" "export" {
  url = env("DATABASE_URL")

  pool {
    max = 4
  }
}
