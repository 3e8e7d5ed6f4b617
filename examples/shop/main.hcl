# The shop: the database reference endpoints of SPEC.md §4.4 (users, onboard, overview) on PostgreSQL.
# Serve it with `npx svc serve -c examples/shop` and try the requests in README.md.
#
# Without DATABASE_URL it runs on the embedded PGlite engine, persistent in `.data/` next to this file
# (created and migrated on the first start, reopened in about half a second afterwards). With
# DATABASE_URL=postgres://user:password@host:5432/db it runs on that server, unchanged.

server {
  host = "127.0.0.1"
  port = 8080
}

openapi {
  title       = "Shop"
  version     = "1.0.0"
  description = "Users, onboarding in one transaction, and an account overview from three parallel queries."
}

connection "postgres" "shop" {
  url               = env("DATABASE_URL", "pglite:.data")
  migrations        = "migrations"
  statement_timeout = "5s"

  # max defaults to 10 clients (PGlite always uses one: it runs one session, one query at a time).
  pool {
    idle_timeout = "30s"
  }
}
