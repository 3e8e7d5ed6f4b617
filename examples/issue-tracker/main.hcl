# The issue tracker: projects, issues, comments, labels and users, on PostgreSQL, with a cache, a live
# feed, an export, guards and a typed OpenAPI document. Serve it with
# `npx svc serve -c examples/issue-tracker` and try the requests in README.md.
#
# Nothing to install: without DATABASE_URL it runs on the embedded PGlite engine, persistent in
# `.data/` next to this file (created and migrated on the first start), and without REDIS_URL the
# cache is the in-process `memory:` store. DATABASE_URL=postgres://... and REDIS_URL=redis://... run
# the same manifest on servers.

server {
  host = "127.0.0.1"
  port = 8080

  # Every endpoint needs a team token unless it says otherwise; the document and its page are public.
  auth      = [auth.team]
  docs_auth = []
}

openapi {
  title       = "Issue tracker"
  version     = "1.0.0"
  description = "Projects, issues, comments, labels and users; a live feed of issue events and a CSV export."
}

connection "postgres" "tracker" {
  url               = env("DATABASE_URL", "pglite:.data")
  migrations        = "migrations"
  statement_timeout = "5s"

  # Every query is prepared at boot (after the migrations): a typo in a column name stops the start,
  # at its line. (The document does not need it here: every answer names its response schema.)
  check_queries = true
}

connection "redis" "cache" {
  url = env("REDIS_URL", "memory:")
}

# Team members: `Authorization: Bearer <token>`. The default token is for a development machine only;
# set TRACKER_TOKEN anywhere else.
auth "team" {
  type   = "bearer"
  tokens = [env("TRACKER_TOKEN", "dev-token")]
}

# Spreadsheets fetching the CSV export (`?api_key=...` in the URL they are given).
auth "export" {
  type  = "api_key"
  query = "api_key"
  keys  = { sheets = env("EXPORT_KEY", "dev-export-key") }
}

# Liveness: public, for a load balancer.
endpoint "GET /api/v1/health" {
  description = "Liveness probe"
  auth        = []

  pipeline {
    respond {
      body = {
        status = "ok"
        time   = now()
      }
    }
  }
}

# The OpenAPI document (typed from the database: check_queries above) and its reference page.
endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}

endpoint "GET /docs" {
  openapi {
    ui = "scalar"
  }
}
