# Cross-origin: a page on one origin subscribes to the feed of an API on another. The same manifest
# runs twice, on two ports, which are two origins to a browser:
#
#   npx svc serve -c examples/cors --port 8080    # the page: http://127.0.0.1:8080/
#   npx svc serve -c examples/cors --port 8081    # the API the page calls: http://127.0.0.1:8081
#
# The API allows the page's origin (PAGE_ORIGIN, default http://127.0.0.1:8080) with credentials;
# any other origin gets no CORS headers and the browser blocks it. README.md walks through it.

server {
  host = "127.0.0.1"
  port = 8080

  # Every endpoint's policy unless it says otherwise (GET / below says `cors = false`).
  cors {
    allowed_origins   = [env("PAGE_ORIGIN", "http://127.0.0.1:8080")]
    allowed_methods   = ["GET", "POST"]
    allowed_headers   = ["Content-Type"]
    allow_credentials = true
    max_age           = 600
  }
}

openapi {
  title       = "Cross-origin feed"
  version     = "1.0.0"
  description = "A feed published over HTTP and pushed as Server-Sent Events to a page on another origin."
}

# The channel the messages travel on; REDIS_URL=redis://... lets several processes share it.
connection "redis" "feed" {
  url = env("REDIS_URL", "memory:")
}

endpoint "GET /whoami" {
  description = "What the API received from the page: its origin, and the cookie sent with credentials"

  request {
    headers {
      field "origin" {
        type = string
      }
      field "cookie" {
        type = string
      }
    }
  }

  pipeline {
    respond {
      body = {
        origin = ctx.request.headers.origin
        cookie = ctx.request.headers.cookie
      }
    }
  }
}

endpoint "GET /events" {
  description = "The feed, as Server-Sent Events"

  pipeline {
    redis "feed" {
      connection = connection.redis.feed
      command    = "SUBSCRIBE"
      channel    = "cors:messages"
    }

    stream "sse" {
      source = steps.feed.stream
      event  = "posted"
      retry  = "1s"
    }
  }
}

endpoint "POST /events" {
  description = "Publishes a message to the feed"

  request {
    body {
      field "text" {
        type       = string
        required   = true
        min_length = 1
        max_length = 280
      }
    }
  }

  pipeline {
    redis "announce" {
      connection = connection.redis.feed
      command    = "PUBLISH"
      channel    = "cors:messages"
      value      = { text = ctx.request.body.text, at = ctx.timestamp_epoch }
    }

    respond {
      status = 202
      body   = { text = ctx.request.body.text, subscribers = steps.announce.value }
    }
  }
}
