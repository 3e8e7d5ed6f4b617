endpoint "POST /onboard" {
  description = "Registers a user and their workspace in one transaction."
  auth        = []

  request {
    body {
      field "email" {
        type     = string
        required = true
        format   = "email"
      }
      field "full_name" {
        type     = string
        required = true
      }
    }
  }

  pipeline {
    starlark "normalize" {
      source = <<-STARLARK
        def execute(ctx):
          email = ctx.request.body.email.strip().lower()
          return {
            "email": email,
            "full_name": ctx.request.body.full_name.strip(),
            "slug": email.split("@")[0]
          }
      STARLARK
    }

    transaction "provision" {
      connection = connection.postgres.primary

      sql "insert_user" {
        query = <<-SQL
          INSERT INTO users (email, full_name)
          VALUES (@email, @full_name)
          RETURNING id, email, full_name
        SQL
        args = {
          email     = steps.normalize.result.email
          full_name = steps.normalize.result.full_name
        }

        catch "23505" {
          abort_with_status = 409
          body = {
            code  = "USER_ALREADY_EXISTS"
            error = "A user with this email address already exists"
          }
        }
      }

      sql "insert_workspace" {
        query = <<-SQL
          INSERT INTO workspaces (owner_id, slug, plan)
          VALUES (@owner_id, @slug, 'free')
          RETURNING id, slug, plan
        SQL
        args = {
          owner_id = steps.insert_user.result.id
          slug     = steps.normalize.result.slug
        }
      }
    }

    respond {
      status = 201
      body = {
        user      = steps.insert_user.result
        workspace = steps.insert_workspace.result
      }
    }
  }
}
