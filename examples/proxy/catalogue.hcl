# The upstream of main.hcl: a tiny catalogue on the same server, so the example needs nothing else.
# In a real deployment this is another service, and CATALOGUE_URL says where it is.

endpoint "GET /upstream/products/{sku}" {
  description = "Catalogue service: one product"
  tags        = ["upstream"]

  request {
    path {
      field "sku" {
        type = string
      }
    }
    headers {
      field "x-request-id" {
        type = string
      }
    }
  }

  pipeline {
    respond {
      condition = !contains(["AB-123", "CD-456"], ctx.request.path.sku)
      body      = problem(404, "Unknown sku")
    }
    respond {
      headers = {
        "Cache-Control" = "max-age=60"
      }
      body = {
        sku         = ctx.request.path.sku
        name        = lookup({ "AB-123" = "Anvil", "CD-456" = "Dynamite" }, ctx.request.path.sku, null)
        price_cents = lookup({ "AB-123" = 12900, "CD-456" = 450 }, ctx.request.path.sku, null)
        served_by   = "catalogue"
        request_id  = ctx.request.headers.x-request-id
      }
    }
  }
}

endpoint "POST /upstream/orders" {
  description = "Catalogue service: places an order"
  tags        = ["upstream"]

  request {
    body {
      field "sku" {
        type     = string
        required = true
      }
      field "quantity" {
        type     = int
        required = true
      }
    }
  }

  pipeline {
    respond {
      condition = ctx.request.body.sku == "CD-456" && ctx.request.body.quantity > 3
      status    = 409
      body      = problem(409, "Not that much dynamite")
    }
    respond {
      status = 201
      body = {
        order_id = uuid_v7()
        sku      = ctx.request.body.sku
        quantity = ctx.request.body.quantity
      }
    }
  }
}
