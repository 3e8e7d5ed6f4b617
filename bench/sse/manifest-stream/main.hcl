# bench/sse --feed stream: the same fan-out as ../manifest, fed by a Redis stream key instead of a
# pub/sub channel. Every `GET /events` client follows the key "events" (XREAD: one reader per key
# per svc process, shared by every client), each event carrying its entry id as its SSE id;
# `POST /publish` appends the request body as an entry (XADD, the log kept to about 10,000 entries).

connection "redis" "bus" {
  url = env("REDIS_URL", "memory:")
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
    redis "feed" {
      connection = connection.redis.bus
      command    = "XREAD"
      key        = "events"
    }
    stream "sse" {
      source    = steps.feed.stream
      id        = item.id
      heartbeat = "5s"
    }
  }
}

endpoint "POST /publish" {
  request {
    body = schema.message
  }
  pipeline {
    redis "publish" {
      connection = connection.redis.bus
      command    = "XADD"
      key        = "events"
      fields     = { seq = ctx.request.body.seq, sent = ctx.request.body.sent }
      maxlen     = 10000
    }
    respond {
      body = { id = steps.publish.value }
    }
  }
}
