# The upstream of proxy.hcl: a small stock service and the catalogue's CSV export, served by this same
# server under /upstream, so the proxies need no other process and no internet. In a real deployment
# this is another service, and UPSTREAM_URL says where it is.

endpoint "GET /upstream/stock/{sku}" {
  description = "Stock service: how many of a product are in stock"
  tags        = ["upstream"]

  request {
    path {
      field "sku" {
        type = string
      }
    }
  }

  pipeline {
    respond {
      condition = !contains(["AB-123", "CD-456", "EF-789"], ctx.request.path.sku)
      body      = problem(404, "Unknown sku")
    }
    respond {
      headers = {
        "Cache-Control" = "max-age=60"
      }
      body = {
        sku       = ctx.request.path.sku
        in_stock  = lookup({ "AB-123" = 7, "CD-456" = 0, "EF-789" = 2 }, ctx.request.path.sku, 0)
        warehouse = "north"
      }
    }
  }
}

# Every product as CSV, written row by row as the client takes them.
endpoint "GET /upstream/products.csv" {
  description = "Catalogue service: every product, as CSV"
  tags        = ["upstream"]

  pipeline {
    starlark "catalogue" {
      file = "catalogue.star"
    }
    stream "csv" {
      source  = steps.catalogue.result
      columns = ["sku", "name", "price_cents"]
      headers = {
        "Content-Disposition" = "attachment; filename=\"products.csv\""
      }
    }
  }
}
