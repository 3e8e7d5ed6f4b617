# Users: the people issues are assigned to and comments are written by.

endpoint "GET /api/v1/users" {
  description = "Every user, by id"

  pipeline {
    sql "users" {
      connection = connection.postgres.tracker
      query      = "SELECT id, email, name, created_at FROM users ORDER BY id"
    }
    respond {
      schema = list(schema.user)
      body   = steps.users.rows
    }
  }
}

endpoint "POST /api/v1/users" {
  description = "Creates a user; an e-mail already taken is a 409"

  request {
    body {
      field "email" {
        type     = string
        required = true
        format   = "email"
      }
      field "name" {
        type       = string
        required   = true
        min_length = 1
        max_length = 100
      }
    }
  }

  pipeline {
    sql "user" {
      connection = connection.postgres.tracker
      query      = "INSERT INTO users (email, name) VALUES (lower(@email), @name) RETURNING id, email, name, created_at"
      args = {
        email = ctx.request.body.email
        name  = ctx.request.body.name
      }
      # 23505 unique_violation: users.email is UNIQUE.
      catch "23505" {
        status = 409
        body   = problem(409, "Email already registered", "${lower(ctx.request.body.email)} already has an account.")
      }
    }
    respond {
      status = 201
      schema = schema.user
      body   = steps.user.row
    }
  }
}

endpoint "GET /api/v1/users/{id}" {
  description = "One user"

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
      connection = connection.postgres.tracker
      query      = "SELECT id, email, name, created_at FROM users WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.user.row == null
      body      = problem(404, "User not found", "There is no user ${ctx.request.path.id}.")
    }
    respond {
      schema = schema.user
      body   = steps.user.row
    }
  }
}
