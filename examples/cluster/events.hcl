# The live feed, from any replica: each replica holds one subscription to the channel (shared by all
# its SSE clients) and Redis delivers every PUBLISH to each replica's subscription.

endpoint "GET /events" {
  description = "Every message posted through any replica, as Server-Sent Events"

  pipeline {
    redis "feed" {
      connection = connection.redis.bus
      command    = "SUBSCRIBE"
      channel    = "${env("REDIS_PREFIX", "cluster")}:messages"
    }

    # `id` is the message's seq: a client whose replica goes away reconnects after `retry` (through
    # nginx, to another replica) and asks GET /messages?after=<its Last-Event-ID> for what it missed.
    stream "sse" {
      source  = steps.feed.stream
      event   = "message"
      id      = item.seq
      retry   = "1s"
      headers = { "X-Replica" = env("SVC_REPLICA", "single") }
    }
  }
}
