# examples/shop/users.hcl on a mysql connection: the query's text is the same.
endpoint "GET /api/v1/users/{id}" {
  description = "Fetches one user"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    sql "user" {
      connection = connection.mysql.shop
      query      = "SELECT id, email, full_name, created_at FROM users WHERE id = @id"
      args = {
        id = ctx.request.path.id
      }
    }

    respond {
      condition = steps.user.row == null
      body      = problem(404, "User not found", "There is no user ${ctx.request.path.id}.")
    }

    respond {
      status = 200
      body   = steps.user.row
    }
  }
}
