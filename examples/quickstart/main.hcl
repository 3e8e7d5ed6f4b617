# The quickstart: a few endpoints that need no database and no other process.
# Serve it with `npx svc serve -c examples/quickstart` and try the requests in README.md.
# Every *.hcl file of this directory belongs to it: this one holds the endpoints that compute their
# answer; products.hcl a cache (cache-aside), proxy.hcl proxies in front of the stand-in upstream
# service of upstream.hcl, one of them streaming.

server {
  host = "127.0.0.1"
  port = 8080
}

openapi {
  title       = "Quickstart"
  version     = "1.0.0"
  description = "A first svc manifest: health, templates, functions, early exits, a cache and proxies."
}

# SPEC.md §4.4: responds unconditionally.
endpoint "GET /api/v1/health" {
  description = "Liveness probe"

  pipeline {
    respond {
      status = 200
      body = {
        status    = "ok"
        timestamp = ctx.timestamp_epoch
      }
    }
  }
}

# Path and query parameters, a default, templates with directives and functions.
endpoint "GET /api/v1/greet/{name}" {
  description = "Greets someone in the requested language"

  request {
    path {
      field "name" {
        type       = string
        min_length = 1
        max_length = 40
      }
    }
    query {
      field "lang" {
        type    = string
        default = "en"
        enum    = ["en", "fr", "de"]
      }
      field "shout" {
        type    = bool
        default = false
      }
    }
  }

  pipeline {
    respond {
      headers = {
        "Content-Language" = ctx.request.query.lang
      }
      body = {
        message = "%{if ctx.request.query.lang == "fr"}Bonjour%{else}%{if ctx.request.query.lang == "de"}Hallo%{else}Hello%{endif}%{endif}, ${ctx.request.query.shout ? upper(ctx.request.path.name) : ctx.request.path.name}!"
        length  = length(ctx.request.path.name)
      }
    }
  }
}

# for expressions, splitting, joining and formatting.
endpoint "GET /api/v1/words" {
  description = "Splits a text into words and describes them"

  request {
    query {
      field "text" {
        type       = string
        required   = true
        min_length = 1
        max_length = 500
      }
    }
  }

  pipeline {
    respond {
      body = {
        words   = [for w in split(" ", trim_space(ctx.request.query.text)) : lower(w) if w != ""]
        lengths = { for w in split(" ", trim_space(ctx.request.query.text)) : lower(w) => length(w)... if w != "" }
        slug    = join("-", [for w in split(" ", trim_space(ctx.request.query.text)) : lower(w) if w != ""])
        summary = format("%d characters", length(ctx.request.query.text))
      }
    }
  }
}

# A conditional respond is an early exit: problem() builds an application/problem+json body,
# and without a `status` the response takes the problem's (404 here).
endpoint "GET /api/v1/teapots/{kind}" {
  description = "Only tea is brewed here"

  pipeline {
    respond {
      condition = ctx.request.path.kind != "tea"
      body      = problem(404, "No such teapot", "only the tea teapot exists")
    }
    respond {
      status = 418
      body = {
        brewing = ctx.request.path.kind
        at      = ctx.timestamp_epoch
        request = ctx.request_id
      }
    }
  }
}
