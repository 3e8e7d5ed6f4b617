# A live feed on PostgreSQL alone: no Redis. Messages posted over HTTP are kept in a table and
# announced with NOTIFY; every SSE client listens through one LISTEN per process, and a client that
# comes back is sent what it missed from the table first. Serve it with
# `npx svc serve -c examples/live-postgres` (README.md walks through it).
#
# Nothing to install: the default database is an in-memory PGlite, created and migrated at every
# start. DATABASE_URL points the same manifest at a PostgreSQL server (straight, or through a pooler
# in session mode: LISTEN needs a session).

server {
  host = "127.0.0.1"
  port = 8080
}

openapi {
  title       = "Live feed on PostgreSQL"
  version     = "1.0.0"
  description = "Messages kept in PostgreSQL, announced with NOTIFY, pushed as Server-Sent Events and resumed from the table."
}

connection "postgres" "db" {
  url               = env("DATABASE_URL", "pglite:")
  migrations        = "migrations"
  statement_timeout = "5s"
}
