# A proxy in front of an upstream service, with the http step. It runs without internet: the
# "upstream" is a small catalogue served by this same server under /upstream (catalogue.hcl), and
# CATALOGUE_URL points the proxy at any other one. Serve it with
# `npx svc serve -c examples/proxy` and try the requests in README.md.

server {
  host = "127.0.0.1"
  port = 8080
}

openapi {
  title       = "Proxy"
  version     = "1.0.0"
  description = "Endpoints that call an upstream HTTP service and shape its answer."
}

# GET through to the catalogue. The upstream's own 404 is data: it becomes our 404 problem; any other
# upstream failure status becomes a 502. A refused or reset connection is a 502 and a slow upstream a
# 504 without any respond saying so (the step's timeout).
endpoint "GET /api/v1/products/{sku}" {
  description = "A product, fetched from the catalogue service"

  request {
    path {
      field "sku" {
        type    = string
        pattern = "^[A-Z]{2}-[0-9]{3}$"
      }
    }
  }

  pipeline {
    http "catalogue" {
      url     = "${env("CATALOGUE_URL", "http://127.0.0.1:8080/upstream")}/products/${ctx.request.path.sku}"
      timeout = "2s"
      headers = {
        Accept         = "application/json"
        "X-Request-Id" = ctx.request_id
      }
    }
    respond {
      condition = steps.catalogue.status == 404
      body      = problem(404, "No such product", "The catalogue has no product ${ctx.request.path.sku}")
    }
    respond {
      condition = steps.catalogue.status >= 400
      body      = problem(502, "Catalogue failed", "The catalogue answered ${steps.catalogue.status}")
    }
    respond {
      headers = {
        "X-Upstream-Status" = tostring(steps.catalogue.status)
        "Cache-Control"     = lookup(steps.catalogue.headers, "cache-control", "no-store")
      }
      body = steps.catalogue.body
    }
  }
}

# POST through: the validated JSON body is sent on (JSON-encoded, with its content type), and the
# upstream's status decides ours.
endpoint "POST /api/v1/orders" {
  description = "Places an order with the catalogue service"

  request {
    body {
      field "sku" {
        type     = string
        required = true
        pattern  = "^[A-Z]{2}-[0-9]{3}$"
      }
      field "quantity" {
        type    = int
        min     = 1
        max     = 10
        default = 1
      }
    }
  }

  pipeline {
    http "order" {
      url    = "${env("CATALOGUE_URL", "http://127.0.0.1:8080/upstream")}/orders"
      method = "POST"
      body   = ctx.request.body
    }
    respond {
      condition = steps.order.status >= 400
      status    = steps.order.status == 409 ? 409 : 502
      body      = problem(steps.order.status == 409 ? 409 : 502, "Order refused", "The catalogue answered ${steps.order.status}")
    }
    respond {
      status = 201
      body   = steps.order.body
    }
  }
}

# An upstream that is not there: nothing listens on the discard port, so the connection is refused
# and svc answers 502 bad-gateway by itself.
endpoint "GET /api/v1/unreachable" {
  description = "Calls an upstream that refuses the connection"

  pipeline {
    http "nowhere" {
      url = env("UNREACHABLE_URL", "http://127.0.0.1:9/")
    }
    respond {
      body = steps.nowhere.body
    }
  }
}
