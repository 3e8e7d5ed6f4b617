# bench/starlark-loop: scripts at their limits beside a health endpoint. /spin loops until its 1 s
# budget runs out (a 504); /busy calls a scanning built-in on 10 MB of text in a loop (a 504 too);
# /trivial returns a constant (the cost of a call). The same scripts are in scripts.star for the
# in-thread baseline (baseline.ts).

server {
  host            = "127.0.0.1"
  request_timeout = "10s"
}

endpoint "GET /health" {
  pipeline {
    respond {
      status = 200
      body   = { status = "ok" }
    }
  }
}

endpoint "GET /spin" {
  pipeline {
    starlark "spin" {
      file      = "spin.star"
      timeout   = "1s"
      max_steps = 1000000000000
    }
    respond {
      body = steps.spin.result
    }
  }
}

endpoint "GET /busy" {
  pipeline {
    starlark "busy" {
      file      = "busy.star"
      timeout   = "1s"
      max_steps = 1000000000000
    }
    respond {
      body = steps.busy.result
    }
  }
}

endpoint "GET /trivial" {
  pipeline {
    starlark "trivial" {
      file = "trivial.star"
    }
    respond {
      body = steps.trivial.result
    }
  }
}
