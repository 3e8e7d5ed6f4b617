# bench/mysql/export.ts: the rows of export_rows (filled by the runner) as ndjson, streamed.
endpoint "GET /export.ndjson" {
  pipeline {
    sql "rows" {
      connection = connection.mysql.export
      stream     = true
      query      = "SELECT id, name, amount, created_at FROM export_rows ORDER BY id"
    }
    stream "ndjson" {
      source = steps.rows.stream
    }
  }
}
