# The live feed, from any replica: each replica holds one subscription to the channel (shared by all
# its SSE clients) and Redis delivers every PUBLISH to each replica's subscription. A client that
# comes back (its replica went away, a proxy timed out) is sent what it missed from the log first.

endpoint "GET /events" {
  description = "Every message posted through any replica, as Server-Sent Events, resumed from Last-Event-ID"

  request {
    headers {
      # Sent by EventSource when it reconnects: the seq of the last message it received.
      field "last-event-id" {
        type = integer
        min  = 0
      }
    }
  }

  pipeline {
    redis "feed" {
      connection = connection.redis.bus
      command    = "SUBSCRIBE"
      channel    = "${env("REDIS_PREFIX", "cluster")}:messages"
    }

    # After the subscription: a message posted meanwhile is in the log, on the channel, or both.
    # From the client's last seq on, that one included (how svc tells the log still has it); read
    # from a cursor as the client takes it. Nothing on a first connection (`@last` is null).
    sql "missed" {
      connection = connection.postgres.db
      query      = "SELECT seq, author, text, sent_at FROM messages WHERE seq >= @last ORDER BY seq"
      args       = { last = ctx.request.headers["last-event-id"] }
      stream     = true
    }

    # `id` is the message's seq: a client whose replica goes away reconnects after `retry` (through
    # nginx, to another replica) with its Last-Event-ID, and this stream sends what it missed, then
    # the live messages: each once, in order. A seq no longer in the log is an `event: gap` first.
    stream "sse" {
      source  = steps.feed.stream
      replay  = steps.missed.stream
      event   = "message"
      id      = item.seq
      retry   = "1s"
      headers = { "X-Replica" = env("SVC_REPLICA", "single") }
    }
  }
}
