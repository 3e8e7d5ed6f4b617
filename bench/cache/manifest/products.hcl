# The cache-aside endpoint of SPEC.md §4.4, as bench/cache measures it: REDIS_URL is the Redis the
# runner started (and seeded, so every measured request is a hit); DATABASE_URL answers the misses
# (in-memory PGlite unless given).

connection "redis" "cache" {
  url = env("REDIS_URL", "redis://127.0.0.1:6379")
}

connection "postgres" "db" {
  url = env("DATABASE_URL", "pglite:")
}

endpoint "GET /api/v1/products/{sku}" {
  request {
    path {
      field "sku" {
        type = string
      }
    }
  }
  pipeline {
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
    sql "product" {
      connection = connection.postgres.db
      query      = "SELECT sku, name, price, stock FROM products WHERE sku = @sku"
      args       = { sku = ctx.request.path.sku }
    }
    respond {
      condition = steps.product.row == null
      body      = problem(404, "Product not found")
    }
    redis "store" {
      connection = connection.redis.cache
      command    = "SET"
      key        = "product:${ctx.request.path.sku}"
      value      = steps.product.row
      ttl        = "5m"
    }
    respond {
      headers = { "X-Cache" = "MISS" }
      body    = steps.product.row
    }
  }
}
