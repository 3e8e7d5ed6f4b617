# Projects. A project's key is the slug of its name, made by a Starlark step (slug.star); one project
# is read through a cache (cache-aside) that a PATCH empties.

endpoint "GET /api/v1/projects" {
  description = "Every project, by id"

  pipeline {
    sql "projects" {
      connection = connection.postgres.tracker
      query      = "SELECT id, key, name, description, created_at FROM projects ORDER BY id"
    }
    respond {
      schema = list(schema.project)
      body   = steps.projects.rows
    }
  }
}

endpoint "POST /api/v1/projects" {
  description = "Creates a project, its key made from its name; a name whose key is taken is a 409"

  request {
    body {
      field "name" {
        type        = string
        required    = true
        min_length  = 1
        max_length  = 100
        pattern     = "[\\p{L}\\p{N}]"
        description = "At least one letter or digit: the key is made of them"
      }
      field "description" {
        type       = string
        nullable   = true
        max_length = 2000
      }
    }
  }

  pipeline {
    starlark "key" {
      file = "slug.star"
    }
    # The name's pattern asks for a letter or a digit already; this keeps an empty key out whatever
    # the two definitions of "letter" ever disagree on.
    respond {
      condition = steps.key.result == ""
      body      = problem(422, "Name without letters", "The key of a project is made of the letters and digits of its name.")
    }
    sql "project" {
      connection = connection.postgres.tracker
      query      = "INSERT INTO projects (key, name, description) VALUES (@key, @name, @description) RETURNING id, key, name, description, created_at"
      args = {
        key         = steps.key.result
        name        = ctx.request.body.name
        description = ctx.request.body.description
      }
      # 23505 unique_violation: projects.key is UNIQUE.
      catch "23505" {
        status = 409
        body   = problem(409, "Project key taken", "A project with the key ${steps.key.result} already exists.")
      }
    }
    respond {
      status = 201
      schema = schema.project
      body   = steps.project.row
    }
  }
}

# Cache-aside: Redis first (X-Cache: HIT), else the database, kept for a minute (X-Cache: MISS).
endpoint "GET /api/v1/projects/{id}" {
  description = "One project, from the cache when it is there"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    redis "cached" {
      connection = connection.redis.cache
      command    = "GET"
      key        = "project:${ctx.request.path.id}"
    }
    respond {
      condition = steps.cached.value != null
      headers   = { "X-Cache" = "HIT" }
      schema    = schema.project
      body      = steps.cached.value
    }

    sql "project" {
      connection = connection.postgres.tracker
      query      = "SELECT id, key, name, description, created_at FROM projects WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.project.row == null
      body      = problem(404, "Project not found", "There is no project ${ctx.request.path.id}.")
    }
    redis "store" {
      connection = connection.redis.cache
      command    = "SET"
      key        = "project:${ctx.request.path.id}"
      value      = steps.project.row
      ttl        = "60s"
    }
    respond {
      headers = { "X-Cache" = "MISS" }
      schema  = schema.project
      body    = steps.project.row
    }
  }
}

# A partial update: a field left out keeps its value; "description": null clears it (has() tells the
# two apart). The key stays as it was made, so links to the project keep working after a rename.
endpoint "PATCH /api/v1/projects/{id}" {
  description = "Renames a project or changes its description"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
    body {
      field "name" {
        type       = string
        min_length = 1
        max_length = 100
      }
      field "description" {
        type       = string
        nullable   = true
        max_length = 2000
      }
    }
  }

  pipeline {
    sql "project" {
      connection = connection.postgres.tracker
      query      = <<-SQL
        UPDATE projects
           SET name        = coalesce(@name, name),
               description = CASE WHEN @has_description THEN @description ELSE description END
         WHERE id = @id
        RETURNING id, key, name, description, created_at
      SQL
      args = {
        id              = ctx.request.path.id
        name            = ctx.request.body.name
        has_description = has(ctx.request.body, "description")
        description     = ctx.request.body.description
      }
    }
    respond {
      condition = steps.project.row == null
      body      = problem(404, "Project not found", "There is no project ${ctx.request.path.id}.")
    }
    # The cached copy is stale now: the next GET reads the database again.
    redis "forget" {
      connection = connection.redis.cache
      command    = "DEL"
      key        = "project:${ctx.request.path.id}"
    }
    respond {
      schema = schema.project
      body   = steps.project.row
    }
  }
}
