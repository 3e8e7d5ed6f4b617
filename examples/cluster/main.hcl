# The cluster example: one manifest served by several svc replicas behind nginx, sharing a Redis
# (pub/sub and cache) and a PostgreSQL reached through PgBouncer in transaction mode.
# `examples/cluster/run.sh` starts the whole cluster on loopback ports; README.md walks through it.
#
# Alone (`npx svc serve -c examples/cluster`) it runs on the embedded engines, but those are one
# process' own: several replicas on `memory:` or `pglite:` would each have their own store and
# database. A cluster needs the real servers: REDIS_URL and DATABASE_URL.

server {
  host = "127.0.0.1"
  port = 8080
}

openapi {
  title       = "Cluster"
  version     = "1.0.0"
  description = "Messages kept in PostgreSQL, cached and fanned out through Redis, served by any replica."
}

# Pub/sub for the SSE feed and the cache: shared by every replica, so a message published through
# one reaches the clients of all, and an entry cached by one is read by all. The channel and the
# cache keys begin with REDIS_PREFIX (default "cluster"): two clusters sharing one Redis keep apart.
connection "redis" "bus" {
  url = env("REDIS_URL", "memory:")
}

# Through PgBouncer in transaction mode: consecutive statements of one pool client may run on
# different server connections, so nothing may be prepared under a name (`prepared_statements =
# false`) and no session setting is sent (PgBouncer refuses a `statement_timeout` start-up
# parameter: the bound is set on the database instead, see README.md).
connection "postgres" "db" {
  url                 = env("DATABASE_URL", "pglite:")
  migrations          = "migrations"
  prepared_statements = false
  pool {
    max = 10
  }
}

# Which replica answered: nginx spreads requests over them, the header shows it.
endpoint "GET /health" {
  description = "Liveness probe, naming the replica that answered"

  pipeline {
    respond {
      headers = { "X-Replica" = env("SVC_REPLICA", "single") }
      body = {
        status  = "ok"
        replica = env("SVC_REPLICA", "single")
      }
    }
  }
}
