# The message log: written to PostgreSQL and announced on the Redis channel by whichever replica
# takes the POST; read back, from the shared cache when it is there, by any replica.

endpoint "POST /messages" {
  description = "Posts a message: kept in the log, then published to every replica's SSE clients"

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
    sql "saved" {
      connection = connection.postgres.db
      query      = "INSERT INTO messages (author, text) VALUES (@author, @text) RETURNING seq, author, text, sent_at"
      args = {
        author = ctx.request.body.author
        text   = ctx.request.body.text
      }
    }

    # One PUBLISH reaches the subscription of every replica (one per process and channel), and each
    # replica writes it to its own SSE clients.
    redis "announce" {
      connection = connection.redis.bus
      command    = "PUBLISH"
      channel    = "${env("REDIS_PREFIX", "cluster")}:messages"
      value      = steps.saved.row
    }

    respond {
      status  = 202
      headers = { "X-Replica" = env("SVC_REPLICA", "single") }
      body    = steps.saved.row
    }
  }
}

# What a reconnecting SSE client missed: the messages after the last id it saw (its Last-Event-ID).
endpoint "GET /messages" {
  description = "The messages after a given seq, oldest first, at most 500"

  request {
    query {
      field "after" {
        type    = int
        default = 0
        min     = 0
      }
    }
  }

  pipeline {
    sql "since" {
      connection = connection.postgres.db
      query      = "SELECT seq, author, text, sent_at FROM messages WHERE seq > @after ORDER BY seq LIMIT 500"
      args       = { after = ctx.request.query.after }
    }
    respond {
      headers = { "X-Replica" = env("SVC_REPLICA", "single") }
      body    = { messages = steps.since.rows }
    }
  }
}

# Cache-aside on the shared Redis: the replica that misses fills the cache for every replica.
endpoint "GET /messages/{seq}" {
  description = "One message, from the shared cache when it is there"

  request {
    path {
      field "seq" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    redis "cached" {
      connection = connection.redis.bus
      command    = "GET"
      key        = "${env("REDIS_PREFIX", "cluster")}:message:${ctx.request.path.seq}"
    }
    respond {
      condition = steps.cached.value != null
      headers   = { "X-Cache" = "HIT", "X-Replica" = env("SVC_REPLICA", "single") }
      body      = steps.cached.value
    }

    sql "message" {
      connection = connection.postgres.db
      query      = "SELECT seq, author, text, sent_at FROM messages WHERE seq = @seq"
      args       = { seq = ctx.request.path.seq }
    }
    respond {
      condition = steps.message.row == null
      body      = problem(404, "No such message", "There is no message ${ctx.request.path.seq}")
    }

    redis "store" {
      connection = connection.redis.bus
      command    = "SET"
      key        = "${env("REDIS_PREFIX", "cluster")}:message:${ctx.request.path.seq}"
      value      = steps.message.row
      ttl        = "60s"
    }
    respond {
      headers = { "X-Cache" = "MISS", "X-Replica" = env("SVC_REPLICA", "single") }
      body    = steps.message.row
    }
  }
}
