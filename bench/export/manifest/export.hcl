# bench/export: the whole export_rows table (1,000,000 rows, created by bench/export/run.ts) as one
# streamed download, read from a PostgreSQL cursor a batch at a time and written with backpressure.
# DATABASE_URL is the database the runner prepared.

connection "postgres" "db" {
  url = env("DATABASE_URL")
}

endpoint "GET /export" {
  pipeline {
    sql "rows" {
      connection = connection.postgres.db
      query      = "SELECT id, sku, name, price, in_stock, created_at FROM export_rows ORDER BY id"
      stream     = true
    }
    stream "ndjson" {
      source = steps.rows.stream
    }
  }
}

endpoint "GET /export.csv" {
  pipeline {
    sql "rows" {
      connection = connection.postgres.db
      query      = "SELECT id, sku, name, price, in_stock, created_at FROM export_rows ORDER BY id"
      stream     = true
    }
    stream "csv" {
      source = steps.rows.stream
    }
  }
}
