endpoint "GET /users/me" {
  description = "The user the token names (guarded by the api block's auth)."

  pipeline {
    sql "find_user" {
      connection = connection.postgres.primary
      query      = "SELECT id, full_name, email FROM users WHERE id = @id"
      args = {
        id = ctx.auth.claims.sub
      }
    }

    respond {
      condition = steps.find_user.rows_affected == 0
      status    = 404
      body      = { error = "User identity not found" }
    }

    respond {
      status = 200
      body   = steps.find_user.result
    }
  }
}
