# Cache-aside (SPEC.md §4.4 GET /api/v1/products/{sku}): the cache is asked first; on a miss the
# product is looked up, written to the cache with a time-to-live, and answered. `X-Cache` says which.
#
# Nothing to install: the cache is the embedded in-process store (`memory:`, the same commands and
# answers as Redis) and the lookup a Starlark script holding the catalogue (catalogue.star), in
# place of the database query of examples/shop. REDIS_URL=redis://... puts a real Redis behind it.

connection "redis" "cache" {
  url = env("REDIS_URL", "memory:")
}

endpoint "GET /api/v1/products/{sku}" {
  description = "A product, from the cache when it is there"

  request {
    path {
      field "sku" {
        type    = string
        pattern = "^[A-Z]{2}-[0-9]{3}$"
      }
    }
  }

  pipeline {
    # A hit ends the pipeline here: the cached row, decoded back from its JSON text.
    redis "cached" {
      connection = connection.redis.cache
      command    = "GET"
      key        = "product:${ctx.request.path.sku}"
    }
    respond {
      condition = steps.cached.value != null
      headers   = { "X-Cache" = "HIT" }
      body      = steps.cached.value
    }

    # A miss: the lookup (a database query in a real service). An unknown sku is a 404, never cached.
    starlark "product" {
      file = "catalogue.star"
    }
    respond {
      condition = steps.product.result == null
      body      = problem(404, "No such product", "The catalogue has no product ${ctx.request.path.sku}")
    }

    # Kept for 30 seconds: within them every request is a HIT; after them the next one is a MISS again.
    redis "store" {
      connection = connection.redis.cache
      command    = "SET"
      key        = "product:${ctx.request.path.sku}"
      value      = steps.product.result
      ttl        = "30s"
    }
    respond {
      headers = { "X-Cache" = "MISS" }
      body    = steps.product.result
    }
  }
}
