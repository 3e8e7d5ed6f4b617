# SPEC.md §4.4 GET /api/v1/accounts/{id}/overview: three queries in parallel (each on its own pool
# client); 404 when the account is missing, else {account, recent_invoices, recent_events}.
endpoint "GET /api/v1/accounts/{id}/overview" {
  description = "An account with its five latest invoices and events"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    parallel {
      sql "account" {
        connection = connection.postgres.shop
        query      = "SELECT id, name, plan, created_at FROM accounts WHERE id = @id"
        args = {
          id = ctx.request.path.id
        }
      }

      sql "invoices" {
        connection = connection.postgres.shop
        query      = "SELECT number, amount, currency, status, issued_on FROM invoices WHERE account_id = @id ORDER BY issued_on DESC LIMIT 5"
        args = {
          id = ctx.request.path.id
        }
      }

      sql "events" {
        connection = connection.postgres.shop
        query      = "SELECT kind, data, occurred_at FROM events WHERE account_id = @id ORDER BY occurred_at DESC LIMIT 5"
        args = {
          id = ctx.request.path.id
        }
        # Past it: a 504 problem, the query cancelled on the server, its siblings cancelled too.
        timeout = "2s"
      }
    }

    respond {
      condition = steps.account.row == null
      body      = problem(404, "Account not found", "There is no account ${ctx.request.path.id}.")
    }

    respond {
      status = 200
      body = {
        account         = steps.account.row
        recent_invoices = steps.invoices.rows
        recent_events   = steps.events.rows
      }
    }
  }
}
