# The feed itself: GET /events is the Server-Sent Events stream a browser's EventSource reads;
# POST /events keeps a message in the log and publishes it on the channel.

endpoint "GET /events" {
  description = "The live feed: every posted message, as Server-Sent Events, resumed from Last-Event-ID"

  request {
    headers {
      # Sent by the browser when it reconnects: the id (seq) of the last event it received.
      field "last-event-id" {
        type = integer
        min  = 0
      }
    }
  }

  pipeline {
    # A subscription to the channel: a live stream of its messages, from now on.
    redis "feed" {
      connection = connection.redis.feed
      command    = "SUBSCRIBE"
      channel    = "live:messages"
    }

    # What the client missed while it was away, from the log: from its last seq on, that one
    # included (so svc can tell the log still has it). Declared after the subscription, so that a
    # message posted meanwhile is in one or the other. On a first connection `@last` is null and
    # nothing is read.
    sql "missed" {
      connection = connection.postgres.log
      query      = "SELECT seq, author, text, sent_at FROM messages WHERE seq >= @last ORDER BY seq"
      args       = { last = ctx.request.headers["last-event-id"] }
      stream     = true
    }

    # The head goes out at once (the feed may stay silent for long); the missed messages first,
    # then the live ones, each one `event: posted` whose `id` is the message's seq: none twice,
    # none lost. `retry` tells the browser to reconnect one second after the connection drops (its
    # own default is about 3 s); a `: heartbeat` comment every 15 s (the default) keeps proxies
    # from closing a quiet connection.
    stream "sse" {
      source = steps.feed.stream
      replay = steps.missed.stream
      event  = "posted"
      id     = item.seq
      retry  = "1s"
    }
  }
}

endpoint "POST /events" {
  description = "Posts a message to the feed"

  request {
    body {
      field "author" {
        type       = string
        required   = true
        min_length = 1
        max_length = 40
      }
      field "text" {
        type       = string
        required   = true
        min_length = 1
        max_length = 280
      }
    }
  }

  pipeline {
    # Kept first, so the message has its seq (the SSE id) and is in the exports.
    sql "saved" {
      connection = connection.postgres.log
      query      = "INSERT INTO messages (author, text) VALUES (@author, @text) RETURNING seq, author, text, sent_at"
      args = {
        author = ctx.request.body.author
        text   = ctx.request.body.text
      }
    }

    # Sent as JSON text; every subscriber decodes it back into the object.
    redis "announce" {
      connection = connection.redis.feed
      command    = "PUBLISH"
      channel    = "live:messages"
      value      = steps.saved.row
    }

    # 202: accepted and on its way; the feed delivers it.
    respond {
      status = 202
      body   = steps.saved.row
    }
  }
}
