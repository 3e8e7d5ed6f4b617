# bench/sse/resume.ts: a client back after missing 10,000 events, resumed from Last-Event-ID (the
# rows replayed from the log, then the live feed), beside the same rows exported as ndjson.

connection "postgres" "db" {
  url = env("DATABASE_URL")
}

endpoint "GET /events" {
  request {
    headers {
      field "last-event-id" {
        type = integer
      }
    }
  }
  pipeline {
    sql "live" {
      connection = connection.postgres.db
      listen     = "events"
    }
    sql "missed" {
      connection = connection.postgres.db
      query      = "SELECT seq, body FROM events WHERE seq >= @last ORDER BY seq"
      args       = { last = ctx.request.headers["last-event-id"] }
      stream     = true
    }
    stream "sse" {
      source = steps.live.stream
      replay = steps.missed.stream
      id     = item.seq
    }
  }
}

endpoint "GET /export.ndjson" {
  pipeline {
    sql "rows" {
      connection = connection.postgres.db
      query      = "SELECT seq, body FROM events ORDER BY seq"
      stream     = true
    }
    stream "ndjson" {
      source = steps.rows.stream
    }
  }
}

# The same rows as SSE events with their ids, no live source: what the framing costs alone.
endpoint "GET /export.sse" {
  pipeline {
    sql "rows" {
      connection = connection.postgres.db
      query      = "SELECT seq, body FROM events ORDER BY seq"
      stream     = true
    }
    stream "sse" {
      source = steps.rows.stream
      id     = item.seq
    }
  }
}
