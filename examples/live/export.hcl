# The message log, exported: rows are read from a cursor as the client takes them (`stream = true`:
# 500 rows per fetch, never the whole table in memory) and written as they come.

endpoint "GET /export.ndjson" {
  description = "Every message, one JSON object per line"

  pipeline {
    sql "messages" {
      connection = connection.postgres.log
      query      = "SELECT seq, author, text, sent_at FROM messages ORDER BY seq"
      stream     = true
    }

    stream "ndjson" {
      source = steps.messages.stream
    }
  }
}

endpoint "GET /export.csv" {
  description = "Every message, as CSV with a header row"

  pipeline {
    sql "messages" {
      connection = connection.postgres.log
      query      = "SELECT seq, author, text, sent_at FROM messages ORDER BY seq"
      stream     = true
    }

    # `columns` is the header row and the order of the fields in every line.
    stream "csv" {
      source  = steps.messages.stream
      columns = ["seq", "author", "text", "sent_at"]
      headers = {
        "Content-Disposition" = "attachment; filename=\"messages.csv\""
      }
    }
  }
}
