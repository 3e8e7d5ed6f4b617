# A live feed: messages posted over HTTP reach every open browser tab at once, through Server-Sent
# Events, and the message log can be exported as NDJSON or CSV. Serve it with
# `npx svc serve -c examples/live` and open http://127.0.0.1:8080/ (README.md walks through it).
#
# Nothing to install: the pub/sub channel is the embedded in-process store (`memory:`) and the
# message log an in-memory PGlite database, created and seeded from migrations/ at every start.
# REDIS_URL and DATABASE_URL point the same manifest at real servers.

server {
  host = "127.0.0.1"
  port = 8080
}

openapi {
  title       = "Live feed"
  version     = "1.0.0"
  description = "Messages published over HTTP, pushed to browsers as Server-Sent Events, exported as NDJSON and CSV."
}

# The channel the messages travel on. With a real Redis (REDIS_URL=redis://...) several svc
# processes share it: a message posted to one reaches the browsers connected to any of them.
connection "redis" "feed" {
  url = env("REDIS_URL", "memory:")
}

# The message log. `pglite:` is in memory: every start begins again from the seed rows.
connection "postgres" "log" {
  url               = env("DATABASE_URL", "pglite:")
  migrations        = "migrations"
  statement_timeout = "5s"
}
