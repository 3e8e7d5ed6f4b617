endpoint "GET /accounts/{id}/overview" {
  auth = []

  request {
    path {
      field "id" {
        type     = int
        required = true
      }
    }
  }

  pipeline {
    parallel {
      sql "fetch_account" {
        connection = connection.postgres.primary
        query      = "SELECT id, name, tier FROM accounts WHERE id = @id"
        args       = { id = ctx.request.path.id }
      }

      sql "fetch_invoices" {
        connection = connection.postgres.primary
        query      = <<-SQL
          SELECT id, amount_cents, status
          FROM invoices
          WHERE account_id = @id
          ORDER BY id DESC
          LIMIT 5
        SQL
        args       = { id = ctx.request.path.id }
      }
    }

    respond {
      condition = steps.fetch_account.rows_affected == 0
      status    = 404
      body      = { error = "Account not found" }
    }

    respond {
      status = 200
      body = {
        account         = steps.fetch_account.result
        recent_invoices = steps.fetch_invoices.result
      }
    }
  }
}
