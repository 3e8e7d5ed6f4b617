# SPEC.md §4.4 POST /api/v1/onboard: two inserts in one transaction; 201 {user, workspace};
# a unique-constraint collision (the e-mail is taken) is a 409, after the transaction rolled back.
endpoint "POST /api/v1/onboard" {
  description = "Creates a user and their first workspace, atomically"

  request {
    body {
      field "email" {
        type     = string
        required = true
        format   = "email"
      }
      field "full_name" {
        type       = string
        required   = true
        min_length = 1
        max_length = 200
      }
    }
  }

  pipeline {
    transaction "onboard" {
      connection = connection.postgres.shop

      sql "user" {
        query = "INSERT INTO users (email, full_name) VALUES (lower(@email), @full_name) RETURNING id, email, full_name, created_at"
        args = {
          email     = ctx.request.body.email
          full_name = ctx.request.body.full_name
        }
      }

      sql "workspace" {
        query = "INSERT INTO workspaces (owner_id, name) VALUES (@owner_id, @name) RETURNING id, owner_id, name, created_at"
        args = {
          owner_id = steps.user.row.id
          name     = "${ctx.request.body.full_name}'s workspace"
        }
      }

      # 23505 unique_violation: users.email is UNIQUE.
      catch "23505" {
        status = 409
        body   = problem(409, "Email already registered", "${lower(ctx.request.body.email)} already has an account.")
      }
    }

    respond {
      status = 201
      body = {
        user      = steps.user.row
        workspace = steps.workspace.row
      }
    }
  }
}
