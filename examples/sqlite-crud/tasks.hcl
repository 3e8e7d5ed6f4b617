# The tasks: list, read, create, update, delete. Every query names its parameters (@name): they are
# bound as values, never pasted into the text.

endpoint "GET /tasks" {
  description = "Lists tasks, oldest first, a page at a time"

  request {
    query {
      field "done" {
        type = bool
      }
      field "after" {
        type    = int
        default = 0
        min     = 0
      }
      field "limit" {
        type    = int
        default = 20
        min     = 1
        max     = 100
      }
    }
  }

  pipeline {
    sql "tasks" {
      connection = connection.sqlite.tasks
      query      = "SELECT id, title, done, tags, created_at FROM tasks WHERE id > @after AND (@done IS NULL OR done = @done) ORDER BY id LIMIT @limit"
      args = {
        after = ctx.request.query.after
        done  = ctx.request.query.done
        limit = ctx.request.query.limit
      }
    }

    respond {
      body = {
        tasks = steps.tasks.rows
        next  = length(steps.tasks.rows) == ctx.request.query.limit ? steps.tasks.rows[length(steps.tasks.rows) - 1].id : null
      }
    }
  }
}

endpoint "GET /tasks/{id}" {
  description = "Fetches one task"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    sql "task" {
      connection = connection.sqlite.tasks
      query      = "SELECT id, title, done, tags, created_at FROM tasks WHERE id = @id"
      args = {
        id = ctx.request.path.id
      }
    }

    respond {
      condition = steps.task.row == null
      body      = problem(404, "Task not found", "There is no task ${ctx.request.path.id}.")
    }

    respond {
      body = steps.task.row
    }
  }
}

# A task and its first event in one transaction (BEGIN IMMEDIATE on SQLite). A title already taken
# fails the insert with SQLITE_CONSTRAINT_UNIQUE; its catch answers 409 (catch "23505" would too:
# a unique violation carries PostgreSQL's code as well, so the block works on either engine).
endpoint "POST /tasks" {
  description = "Creates a task"

  request {
    body {
      field "title" {
        type       = string
        required   = true
        min_length = 1
        max_length = 200
      }
      field "tags" {
        type      = list(string)
        default   = []
        max_items = 10
      }
    }
  }

  pipeline {
    transaction "create" {
      connection = connection.sqlite.tasks

      sql "task" {
        query = "INSERT INTO tasks (title, tags) VALUES (@title, @tags) RETURNING id, title, done, tags, created_at"
        args = {
          title = ctx.request.body.title
          tags  = ctx.request.body.tags
        }
      }

      sql "event" {
        query = "INSERT INTO task_events (task_id, kind) VALUES (@id, 'created')"
        args = {
          id = steps.task.row.id
        }
      }

      catch "SQLITE_CONSTRAINT_UNIQUE" {
        status = 409
        body   = problem(409, "Title already used", "A task is already called \"${ctx.request.body.title}\".")
      }
    }

    respond {
      status = 201
      headers = {
        Location = "/tasks/${steps.task.row.id}"
      }
      body = steps.task.row
    }
  }
}

# Only the fields sent change: has() tells a field left out from one sent.
endpoint "PATCH /tasks/{id}" {
  description = "Renames a task or marks it done"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
    body {
      field "title" {
        type       = string
        min_length = 1
        max_length = 200
      }
      field "done" {
        type = bool
      }
    }
  }

  pipeline {
    sql "task" {
      connection = connection.sqlite.tasks
      query      = "UPDATE tasks SET title = CASE WHEN @has_title THEN @title ELSE title END, done = CASE WHEN @has_done THEN @done ELSE done END WHERE id = @id RETURNING id, title, done, tags, created_at"
      args = {
        id        = ctx.request.path.id
        has_title = has(ctx.request.body, "title")
        title     = ctx.request.body.title
        has_done  = has(ctx.request.body, "done")
        done      = ctx.request.body.done
      }

      catch "SQLITE_CONSTRAINT_UNIQUE" {
        status = 409
        body   = problem(409, "Title already used", "A task is already called \"${ctx.request.body.title}\".")
      }
    }

    respond {
      condition = steps.task.row == null
      body      = problem(404, "Task not found", "There is no task ${ctx.request.path.id}.")
    }

    respond {
      body = steps.task.row
    }
  }
}

endpoint "DELETE /tasks/{id}" {
  description = "Deletes a task and its history"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    sql "gone" {
      connection = connection.sqlite.tasks
      query      = "DELETE FROM tasks WHERE id = @id"
      args = {
        id = ctx.request.path.id
      }
    }

    respond {
      condition = steps.gone.rows_affected == 0
      body      = problem(404, "Task not found", "There is no task ${ctx.request.path.id}.")
    }

    respond {
      status = 204
    }
  }
}

# Every task, one JSON object per line, read from the database as the client takes them.
endpoint "GET /tasks.ndjson" {
  description = "Exports every task"

  pipeline {
    sql "all" {
      connection = connection.sqlite.tasks
      query      = "SELECT id, title, done, tags, created_at FROM tasks ORDER BY id"
      stream     = true
    }

    stream "ndjson" {
      source = steps.all.stream
    }
  }
}

# Two reads at once: on a file database they run on the read connection, beside any write.
endpoint "GET /tasks/{id}/history" {
  description = "A task and its events"

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
      sql "task" {
        connection = connection.sqlite.tasks
        query      = "SELECT id, title, done, tags, created_at FROM tasks WHERE id = @id"
        args = {
          id = ctx.request.path.id
        }
      }

      sql "events" {
        connection = connection.sqlite.tasks
        query      = "SELECT kind, at FROM task_events WHERE task_id = @id ORDER BY id"
        args = {
          id = ctx.request.path.id
        }
      }
    }

    respond {
      condition = steps.task.row == null
      body      = problem(404, "Task not found", "There is no task ${ctx.request.path.id}.")
    }

    respond {
      body = {
        task   = steps.task.row
        events = steps.events.rows
      }
    }
  }
}
