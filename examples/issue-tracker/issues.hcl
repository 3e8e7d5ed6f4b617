# Issues: a paginated list, creation (one transaction with its event, then a signed webhook after the
# answer), reading, a partial update, deletion, and moving between statuses (a transaction that
# records the move in the event log, announced to the live feed of feed.hcl).
#
# An issue's columns are named in full in each query (no SELECT *): `labels` is an array built by a
# subquery, and the response schema sends exactly the declared fields.

endpoint "GET /api/v1/projects/{id}/issues" {
  description = "A project's issues, a page at a time, oldest first"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
    query {
      field "status" {
        type = string
        enum = ["open", "in_progress", "closed"]
      }
      field "limit" {
        type    = int
        default = 20
        min     = 1
        max     = 100
      }
      field "cursor" {
        type        = int
        default     = 0
        min         = 0
        description = "The next_cursor of the previous page"
      }
    }
  }

  pipeline {
    parallel {
      sql "project" {
        connection = connection.postgres.tracker
        query      = "SELECT id FROM projects WHERE id = @id"
        args       = { id = ctx.request.path.id }
      }
      # One row more than the page: whether it is there says whether a next page exists.
      sql "page" {
        connection = connection.postgres.tracker
        query      = <<-SQL
          SELECT i.id, i.project_id, i.title, i.description, i.status, i.priority, i.assignee_id,
                 array(SELECT l.name FROM issue_labels il JOIN labels l ON l.id = il.label_id
                        WHERE il.issue_id = i.id ORDER BY l.name) AS labels,
                 i.created_at, i.updated_at
            FROM issues i
           WHERE i.project_id = @id
             AND i.id > @cursor
             AND (@status::issue_status IS NULL OR i.status = @status::issue_status)
           ORDER BY i.id
           LIMIT @limit + 1
        SQL
        args = {
          id     = ctx.request.path.id
          cursor = ctx.request.query.cursor
          status = ctx.request.query.status
          limit  = ctx.request.query.limit
        }
      }
    }
    respond {
      condition = steps.project.row == null
      body      = problem(404, "Project not found", "There is no project ${ctx.request.path.id}.")
    }
    respond {
      schema = schema.issue_page
      body = {
        items       = [for n, issue in steps.page.rows : issue if n < ctx.request.query.limit]
        next_cursor = length(steps.page.rows) > ctx.request.query.limit ? steps.page.rows[ctx.request.query.limit - 1].id : null
      }
    }
  }
}

endpoint "POST /api/v1/projects/{id}/issues" {
  description = "Opens an issue in a project"

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
        required   = true
        min_length = 1
        max_length = 200
      }
      field "description" {
        type       = string
        nullable   = true
        max_length = 10000
      }
      field "priority" {
        type    = string
        default = "normal"
        enum    = ["low", "normal", "high", "urgent"]
      }
      field "assignee_id" {
        type     = int
        nullable = true
        min      = 1
      }
    }
  }

  pipeline {
    transaction "open" {
      connection = connection.postgres.tracker

      # Writers of the event log take turns, so that event ids are in commit order (what a feed
      # client resumes from). The lock is released at commit.
      sql "turn" {
        query = "SELECT pg_advisory_xact_lock(3601) IS NULL AS waited"
      }
      sql "issue" {
        query = <<-SQL
          INSERT INTO issues (project_id, title, description, priority, assignee_id)
          VALUES (@project, @title, @description, @priority::issue_priority, @assignee)
          RETURNING id, project_id, title, description, status, priority, assignee_id,
                    ARRAY[]::text[] AS labels, created_at, updated_at
        SQL
        args = {
          project     = ctx.request.path.id
          title       = ctx.request.body.title
          description = ctx.request.body.description
          priority    = ctx.request.body.priority
          assignee    = ctx.request.body.assignee_id
        }
      }
      sql "event" {
        query = <<-SQL
          INSERT INTO events (project_id, issue_id, kind, to_status)
          VALUES (@project, @issue, 'created', 'open')
          RETURNING id, project_id, issue_id, kind, from_status, to_status, created_at
        SQL
        args = {
          project = steps.issue.row.project_id
          issue   = steps.issue.row.id
        }
      }
      # Delivered to the feed's listeners when the transaction commits, never if it rolls back.
      sql "announce" {
        query = "SELECT pg_notify(@channel, @payload) IS NULL AS sent"
        args = {
          channel = "project_${steps.issue.row.project_id}"
          payload = json_encode(steps.event.row)
        }
      }

      # 23503 foreign_key_violation: the project, or the assignee, does not exist.
      catch "23503" {
        status = 422
        body   = problem(422, "Unknown project or assignee", "Project ${ctx.request.path.id} or user ${coalesce(ctx.request.body.assignee_id, "-")} does not exist.")
      }
    }
    respond {
      status = 201
      schema = schema.issue
      body   = steps.issue.row
    }
  }

  # After the answer: the webhook, signed with HMAC-SHA256 over the exact bytes sent, tried up to
  # three times. Its failure is logged and changes nothing for the client, who has the issue already.
  after_response {
    http "webhook" {
      url     = env("WEBHOOK_URL", "http://127.0.0.1:8080/hooks/issues")
      method  = "POST"
      timeout = "2s"
      headers = {
        "Content-Type"        = "application/json"
        "X-Tracker-Event"     = "issue.created"
        "X-Tracker-Signature" = "sha256=${hmac_sha256(env("WEBHOOK_SECRET", "dev-webhook-secret"), json_encode({ event = "issue.created", issue = steps.issue.row }))}"
      }
      body = json_encode({ event = "issue.created", issue = steps.issue.row })
      retry {
        attempts = 3
        backoff  = "200ms"
      }
    }
  }
}

endpoint "GET /api/v1/issues/{id}" {
  description = "One issue, with its labels"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    sql "issue" {
      connection = connection.postgres.tracker
      query      = <<-SQL
        SELECT i.id, i.project_id, i.title, i.description, i.status, i.priority, i.assignee_id,
               array(SELECT l.name FROM issue_labels il JOIN labels l ON l.id = il.label_id
                      WHERE il.issue_id = i.id ORDER BY l.name) AS labels,
               i.created_at, i.updated_at
          FROM issues i
         WHERE i.id = @id
      SQL
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.issue.row == null
      body      = problem(404, "Issue not found", "There is no issue ${ctx.request.path.id}.")
    }
    respond {
      schema = schema.issue
      body   = steps.issue.row
    }
  }
}

# A partial update: a field left out keeps its value; "description": null and "assignee_id": null
# clear them (has() tells a field sent as null from one left out).
endpoint "PATCH /api/v1/issues/{id}" {
  description = "Changes an issue's title, description, priority or assignee"

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
      field "description" {
        type       = string
        nullable   = true
        max_length = 10000
      }
      field "priority" {
        type = string
        enum = ["low", "normal", "high", "urgent"]
      }
      field "assignee_id" {
        type     = int
        nullable = true
        min      = 1
      }
    }
  }

  pipeline {
    sql "issue" {
      connection = connection.postgres.tracker
      query      = <<-SQL
        UPDATE issues
           SET title       = coalesce(@title, title),
               description = CASE WHEN @has_description THEN @description ELSE description END,
               priority    = coalesce(@priority::issue_priority, priority),
               assignee_id = CASE WHEN @has_assignee THEN @assignee ELSE assignee_id END,
               updated_at  = now()
         WHERE id = @id
        RETURNING id, project_id, title, description, status, priority, assignee_id,
                  array(SELECT l.name FROM issue_labels il JOIN labels l ON l.id = il.label_id
                         WHERE il.issue_id = issues.id ORDER BY l.name) AS labels,
                  created_at, updated_at
      SQL
      args = {
        id              = ctx.request.path.id
        title           = ctx.request.body.title
        has_description = has(ctx.request.body, "description")
        description     = ctx.request.body.description
        priority        = ctx.request.body.priority
        has_assignee    = has(ctx.request.body, "assignee_id")
        assignee        = ctx.request.body.assignee_id
      }
      # 23503 foreign_key_violation: no user has that id.
      catch "23503" {
        status = 422
        body   = problem(422, "Unknown assignee", "There is no user ${coalesce(ctx.request.body.assignee_id, "-")}.")
      }
    }
    respond {
      condition = steps.issue.row == null
      body      = problem(404, "Issue not found", "There is no issue ${ctx.request.path.id}.")
    }
    respond {
      schema = schema.issue
      body   = steps.issue.row
    }
  }
}

endpoint "DELETE /api/v1/issues/{id}" {
  description = "Deletes an issue with its comments and labels"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    sql "deleted" {
      connection = connection.postgres.tracker
      query      = "DELETE FROM issues WHERE id = @id RETURNING id"
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.deleted.row == null
      body      = problem(404, "Issue not found", "There is no issue ${ctx.request.path.id}.")
    }
    respond {
      status = 204
    }
  }
}

# One transaction: the issue locked, its status changed, the move recorded in the event log and
# announced to the project's feed. Nothing of it stays when any statement fails.
endpoint "POST /api/v1/issues/{id}/move" {
  description = "Moves an issue to another status; moving it to the status it has is a 409"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
    body {
      field "status" {
        type     = string
        required = true
        enum     = ["open", "in_progress", "closed"]
      }
    }
  }

  pipeline {
    transaction "move" {
      connection = connection.postgres.tracker

      sql "turn" {
        query = "SELECT pg_advisory_xact_lock(3601) IS NULL AS waited"
      }
      # Locked until the commit: two moves of one issue take turns, each seeing the other's status.
      sql "current" {
        query = "SELECT status FROM issues WHERE id = @id FOR UPDATE"
        args  = { id = ctx.request.path.id }
      }
      sql "issue" {
        query = <<-SQL
          UPDATE issues
             SET status = @status::issue_status, updated_at = now()
           WHERE id = @id AND status <> @status::issue_status
          RETURNING id, project_id, title, description, status, priority, assignee_id,
                    array(SELECT l.name FROM issue_labels il JOIN labels l ON l.id = il.label_id
                           WHERE il.issue_id = issues.id ORDER BY l.name) AS labels,
                    created_at, updated_at
        SQL
        args = {
          id     = ctx.request.path.id
          status = ctx.request.body.status
        }
      }
      # Nothing is recorded or announced when nothing moved (no such issue, or the same status).
      sql "event" {
        query = <<-SQL
          INSERT INTO events (project_id, issue_id, kind, from_status, to_status)
          SELECT project_id, id, 'moved', @from::issue_status, status FROM issues WHERE id = @id AND @moved
          RETURNING id, project_id, issue_id, kind, from_status, to_status, created_at
        SQL
        args = {
          id    = ctx.request.path.id
          from  = steps.current.row.status
          moved = steps.issue.row != null
        }
      }
      sql "announce" {
        query = "SELECT pg_notify(@channel, @payload) IS NULL AS sent WHERE @moved"
        args = {
          channel = "project_${coalesce(steps.issue.row.project_id, 0)}"
          payload = json_encode(steps.event.row)
          moved   = steps.issue.row != null
        }
      }
    }
    respond {
      condition = steps.current.row == null
      body      = problem(404, "Issue not found", "There is no issue ${ctx.request.path.id}.")
    }
    respond {
      condition = steps.issue.row == null
      body      = problem(409, "Issue already ${ctx.request.body.status}", "Issue ${ctx.request.path.id} is already ${ctx.request.body.status}.")
    }
    respond {
      schema = schema.move
      body = {
        issue = steps.issue.row
        event = steps.event.row
      }
    }
  }
}
