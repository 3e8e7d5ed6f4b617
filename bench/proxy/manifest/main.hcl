# bench/proxy: svc's side. The upstream (bench/proxy/upstream.ts) is named by UPSTREAM_URL, read once
# at boot, so the step's URL is a constant and its origin gets a keep-alive pool of its own.

server {
  host = "127.0.0.1"
}

endpoint "GET /api/v1/catalogue" {
  pipeline {
    http "upstream" {
      url     = "${env("UPSTREAM_URL", "http://127.0.0.1:9/")}catalogue"
      timeout = "5s"
    }
    respond {
      body = steps.upstream.body
    }
  }
}
