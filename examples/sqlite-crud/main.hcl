# The lightest way to serve a CRUD API: one SQLite file, no database server, nothing to install.
# Serve it with `npx svc serve -c examples/sqlite-crud` (Node.js 22.16 or later: SQLite is built in)
# and try the requests in README.md.
#
# The database is `.data/tasks.db` next to this file, created and migrated on the first start.
# DATABASE_URL=sqlite::memory: runs it in memory instead (gone at exit).

server {
  host = "127.0.0.1"
  port = 8080
}

openapi {
  title       = "Tasks"
  version     = "1.0.0"
  description = "A CRUD API on SQLite: list, read, create in a transaction, update, delete, export."
}

connection "sqlite" "tasks" {
  url          = env("DATABASE_URL", "sqlite:.data/tasks.db")
  migrations   = "migrations"
  busy_timeout = "5s"
}

endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}
