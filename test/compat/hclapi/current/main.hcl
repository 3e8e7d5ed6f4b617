server {
  host          = "127.0.0.1"
  port          = 8080
  max_body_size = "1MB"
}

openapi {
  title       = "Members API"
  version     = "1.0.0"
  description = "CRUD backed by PostgreSQL."
}

problem {
  type_prefix = "https://docs.example.com/errors/"
}

connection "postgres" "main" {
  source = env("CURRENT_DATABASE_URL")

  pool {
    max_open     = 5
    max_idle     = 2
    max_lifetime = "30m"
    idle_timeout = "5m"
  }
}

schema "member_create" {
  field "name" {
    type       = string
    required   = true
    min_length = 2
  }

  field "email" {
    type     = string
    required = true
    format   = "email"
  }

  field "tier" {
    type    = string
    default = "standard"
    enum    = ["standard", "premium", "enterprise"]
  }
}

schema "member_update" {
  field "name" {
    type       = string
    min_length = 2
  }

  field "tier" {
    type = string
    enum = ["standard", "premium", "enterprise"]
  }
}

schema "member" {
  field "id" {
    type = int
  }
  field "name" {
    type = string
  }
  field "email" {
    type = string
  }
  field "tier" {
    type = string
  }
  field "points" {
    type = int
  }
}

schema "tenant_headers" {
  field "x-tenant" {
    type     = string
    required = true
  }
}

endpoint "GET /docs" {
  openapi "ui" {
    renderer = "scalar"
  }
}

endpoint "GET /openapi.json" {
  openapi "spec" {
    format = "json"
  }
}

endpoint "GET /api/v1/members" {
  pipeline {
    sql "list" {
      connection = connection.postgres.main
      query      = "SELECT id, name, email, tier, points, api_token FROM members ORDER BY id"
    }

    respond {
      status = 200
      schema = list(schema.member)
      body   = steps.list.rows
    }
  }
}

endpoint "POST /api/v1/members" {
  request {
    headers = schema.tenant_headers
    body    = schema.member_create
  }

  pipeline {
    sql "insert" {
      connection = connection.postgres.main
      query      = <<-SQL
        INSERT INTO members (name, email, tier, tenant)
        VALUES (@name, @email, @tier, @tenant)
        RETURNING id, name, email, tier, points
      SQL
      args = {
        name   = ctx.request.body.name
        email  = ctx.request.body.email
        tier   = ctx.request.body.tier
        tenant = ctx.request.headers.x-tenant
      }

      catch "23505" {
        status  = 409
        headers = { "X-Conflict" = "email" }
        body    = problem(409, "Email address already registered", "email-collision")
      }
    }

    respond {
      status = 201
      body   = steps.insert.row
    }
  }
}

endpoint "GET /api/v1/members/{id}" {
  request {
    path {
      field "id" {
        type     = int
        required = true
      }
    }
  }

  pipeline {
    sql "fetch" {
      connection = connection.postgres.main
      query      = "SELECT id, name, email, tier, points FROM members WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }

    respond {
      condition = steps.fetch.rows_affected == 0
      status    = 404
      body      = problem(404, "Member ${ctx.request.path.id} not found")
    }

    respond {
      status = 200
      body   = steps.fetch.row
    }
  }
}

endpoint "PUT /api/v1/members/{id}" {
  request {
    path {
      field "id" {
        type     = int
        required = true
      }
    }
    body = schema.member_update
  }

  pipeline {
    sql "update" {
      connection = connection.postgres.main
      query      = <<-SQL
        UPDATE members
        SET
          name = COALESCE(@name, name),
          tier = COALESCE(@tier, tier),
          renamed = (@name IS NOT NULL)
        WHERE id = @id
        RETURNING id, name, email, tier, points
      SQL
      args = {
        id   = ctx.request.path.id
        name = ctx.request.body.name
        tier = ctx.request.body.tier
      }
    }

    respond {
      condition = steps.update.rows_affected == 0
      status    = 404
      body      = problem(404, "Member ${ctx.request.path.id} not found")
    }

    respond {
      status = 200
      body   = steps.update.row
    }
  }
}

endpoint "DELETE /api/v1/members/{id}" {
  request {
    path {
      field "id" {
        type     = int
        required = true
      }
    }
  }

  pipeline {
    sql "delete" {
      connection = connection.postgres.main
      query      = "DELETE FROM members WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }

    respond {
      condition = steps.delete.rows_affected == 0
      status    = 404
      body      = problem(404, "Member ${ctx.request.path.id} not found")
    }

    respond {
      status = 204
    }
  }
}

endpoint "POST /api/v1/members/{id}/reward" {
  request {
    path {
      field "id" {
        type     = int
        required = true
      }
    }
    body {
      field "bonus" {
        type     = int
        required = true
        min      = 1
        max      = 10000
      }
    }
  }

  pipeline {
    sql "award" {
      connection = connection.postgres.main
      query      = "CALL award_member_points(@id, @bonus)"
      args = {
        id    = ctx.request.path.id
        bonus = ctx.request.body.bonus
      }
    }

    respond {
      status = 200
      body = {
        message   = "Points awarded successfully"
        member_id = ctx.request.path.id
        awarded   = ctx.request.body.bonus
      }
    }
  }
}
