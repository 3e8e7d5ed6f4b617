# Proxies in front of an upstream service, with the http step. The upstream is served by this same
# server under /upstream (upstream.hcl); UPSTREAM_URL points the proxies at any other one (served on
# another port, say where the upstream is: UPSTREAM_URL=http://127.0.0.1:9000/upstream).

# GET through: the upstream's own 404 is data, turned into our own problem; any other upstream error
# status is a 502. A refused or reset connection is a 502 and an upstream slower than `timeout` a 504
# without any respond saying so.
endpoint "GET /api/v1/stock/{sku}" {
  description = "Stock of a product, fetched from the stock service"

  request {
    path {
      field "sku" {
        type    = string
        pattern = "^[A-Z]{2}-[0-9]{3}$"
      }
    }
  }

  pipeline {
    http "stock" {
      url     = "${env("UPSTREAM_URL", "http://127.0.0.1:8080/upstream")}/stock/${ctx.request.path.sku}"
      timeout = "2s"
      headers = {
        Accept         = "application/json"
        "X-Request-Id" = ctx.request_id
      }
    }
    respond {
      condition = steps.stock.status == 404
      body      = problem(404, "No such product", "The stock service has no product ${ctx.request.path.sku}")
    }
    respond {
      condition = steps.stock.status >= 400
      body      = problem(502, "Stock service failed", "The stock service answered ${steps.stock.status}")
    }
    respond {
      headers = {
        "X-Upstream-Status" = tostring(steps.stock.status)
        "Cache-Control"     = lookup(steps.stock.headers, "cache-control", "no-store")
      }
      body = steps.stock.body
    }
  }
}

# A streaming proxy: with `stream = true` the upstream body is not read into memory but piped to the
# client by `stream "raw"`, read from the upstream only as fast as the client takes it, so a body of
# any size passes through in bounded memory. The upstream's status and headers arrive first: an error
# status is still an ordinary problem answer, before any byte of the body.
endpoint "GET /api/v1/products.csv" {
  description = "The catalogue's CSV export, streamed through from the catalogue service"

  pipeline {
    http "export" {
      url     = "${env("UPSTREAM_URL", "http://127.0.0.1:8080/upstream")}/products.csv"
      timeout = "2s" # the wait for the upstream's head; the body then takes as long as it takes
      stream  = true
      headers = {
        "X-Request-Id" = ctx.request_id
      }
    }
    respond {
      condition = steps.export.status != 200
      body      = problem(502, "Catalogue export failed", "The catalogue service answered ${steps.export.status}")
    }
    stream "raw" {
      source = steps.export.stream
      # The upstream's own media type and file name (a null value leaves a header out).
      headers = {
        "content-type"        = lookup(steps.export.headers, "content-type", "application/octet-stream")
        "content-disposition" = lookup(steps.export.headers, "content-disposition", null)
      }
    }
  }
}
