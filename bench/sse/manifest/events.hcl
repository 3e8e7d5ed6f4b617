# bench/sse: SSE fan-out. Every `GET /events` client subscribes to the channel "events" (one
# subscription per svc process, shared by every client); `POST /publish` publishes the request body
# to it. REDIS_URL is the store: the embedded one (memory:) or a real Redis server.

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
      command    = "SUBSCRIBE"
      channel    = "events"
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
    redis "publish" {
      connection = connection.redis.bus
      command    = "PUBLISH"
      channel    = "events"
      value      = ctx.request.body
    }
    respond {
      body = { receivers = steps.publish.value }
    }
  }
}
