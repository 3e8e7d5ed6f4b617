# bench/proxy stream-rss: svc's side. `GET /blob` pipes the upstream's body (bench/proxy/stream-upstream.ts,
# named by UPSTREAM_URL with a trailing slash) to the client: `http` with `stream = true`, read by
# `stream "raw"` only as fast as the client takes it.

server {
  host = "127.0.0.1"
}

endpoint "GET /blob" {
  pipeline {
    http "upstream" {
      url     = "${env("UPSTREAM_URL", "http://127.0.0.1:9/")}blob"
      timeout = "5s"
      stream  = true
    }
    respond {
      condition = steps.upstream.status != 200
      body      = problem(502, "Upstream failed", "The upstream answered ${steps.upstream.status}")
    }
    stream "raw" {
      source = steps.upstream.stream
      headers = {
        "content-type" = lookup(steps.upstream.headers, "content-type", "application/octet-stream")
      }
    }
  }
}
