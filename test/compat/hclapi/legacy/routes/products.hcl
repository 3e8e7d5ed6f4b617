endpoint "GET /products/{sku}" {
  description = "Cache-aside: Redis first, PostgreSQL on a miss."
  auth        = []

  request {
    path {
      field "sku" { type = string, required = true }
    }
  }

  pipeline {
    redis "cache_lookup" {
      connection = connection.redis.cache
      command    = "GET"
      key        = "${env("LEGACY_KEY_PREFIX")}product:${ctx.request.path.sku}"
    }

    respond {
      condition = steps.cache_lookup.result != null
      status    = 200
      headers   = { "X-Cache" = "HIT" }
      body      = json_decode(steps.cache_lookup.result)
    }

    sql "db_query" {
      connection = connection.postgres.primary
      query      = <<-SQL
        SELECT id, sku, name, price_cents
        FROM products
        WHERE sku = @sku
      SQL
      args = {
        sku = ctx.request.path.sku
      }
    }

    respond {
      condition = steps.db_query.rows_affected == 0
      status    = 404
      body      = { error = "Product SKU not found" }
    }

    redis "cache_write" {
      connection = connection.redis.cache
      command    = "SET"
      key        = "${env("LEGACY_KEY_PREFIX")}product:${ctx.request.path.sku}"
      value      = json_encode(steps.db_query.result)
      ttl        = "30m"
    }

    respond {
      status  = 200
      headers = { "X-Cache" = "MISS" }
      body    = steps.db_query.result
    }
  }
}
