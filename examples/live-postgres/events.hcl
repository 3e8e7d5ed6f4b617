# GET /events is the feed (LISTEN, resumed from the table); POST /events keeps a message and
# announces it (NOTIFY, delivered when the transaction commits).

endpoint "GET /events" {
  description = "Every posted message, as Server-Sent Events, resumed from Last-Event-ID"

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
    # One LISTEN per process on the channel, shared by every client; each notification's payload
    # is JSON, decoded once.
    sql "live" {
      connection = connection.postgres.db
      listen     = "messages"
    }

    # After the LISTEN: from the client's last seq on, that one included (how svc tells the table
    # still has it), read from a cursor as the client takes it. Nothing on a first connection.
    sql "missed" {
      connection = connection.postgres.db
      query      = "SELECT seq, author, text, sent_at FROM messages WHERE seq >= @last ORDER BY seq"
      args       = { last = ctx.request.headers["last-event-id"] }
      stream     = true
    }

    # The missed messages, then the live ones: each once, in seq order.
    stream "sse" {
      source = steps.live.stream
      replay = steps.missed.stream
      event  = "posted"
      id     = item.seq
      retry  = "1s"
    }
  }
}

endpoint "POST /events" {
  description = "Posts a message: kept in the table, announced to every listener on commit"

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
    transaction "post" {
      connection = connection.postgres.db

      # Writers take turns: two transactions could otherwise commit in the other order than they
      # took their seq, and a client would see 8 before 7. The lock is released at commit.
      sql "turn" {
        query = "SELECT pg_advisory_xact_lock(7301) IS NULL AS waited"
      }

      sql "saved" {
        query = "INSERT INTO messages (author, text) VALUES (@author, @text) RETURNING seq, author, text, sent_at"
        args = {
          author = ctx.request.body.author
          text   = ctx.request.body.text
        }
      }

      # Sent when the transaction commits (never if it rolls back), as PostgreSQL does.
      sql "announce" {
        query = "SELECT pg_notify('messages', @payload) IS NULL AS sent"
        args  = { payload = json_encode(steps.saved.row) }
      }
    }

    respond {
      status = 202
      body   = steps.saved.row
    }
  }
}

endpoint "GET /messages" {
  description = "The last messages, newest first"

  request {
    query {
      field "limit" {
        type    = integer
        default = 20
        min     = 1
        max     = 500
      }
    }
  }

  pipeline {
    sql "latest" {
      connection = connection.postgres.db
      query      = "SELECT seq, author, text, sent_at FROM messages ORDER BY seq DESC LIMIT @limit"
      args       = { limit = ctx.request.query.limit }
    }
    respond {
      body = steps.latest.rows
    }
  }
}
