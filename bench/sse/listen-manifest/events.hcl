# bench/sse/listen.ts: bench/sse's fan-out with PostgreSQL LISTEN/NOTIFY instead of Redis pub/sub.
# Every `GET /events` client listens to the channel "events" (one LISTEN on one listening connection
# per svc process, shared by every client); `POST /publish` sends the request body with pg_notify.

connection "postgres" "db" {
  url = env("DATABASE_URL")
}

schema "message" {
  field "seq" {
    type     = int
    required = true
  }
  field "sent" {
    type     = float
    required = true
  }
}

endpoint "GET /events" {
  pipeline {
    sql "feed" {
      connection = connection.postgres.db
      listen     = "events"
    }
    stream "sse" {
      source    = steps.feed.stream
      heartbeat = "5s"
    }
  }
}

endpoint "POST /publish" {
  request {
    body = schema.message
  }
  pipeline {
    sql "publish" {
      connection = connection.postgres.db
      query      = "SELECT pg_notify('events', @payload)"
      args = {
        payload = json_encode(ctx.request.body)
      }
    }
    respond {
      body = { sent = true }
    }
  }
}
