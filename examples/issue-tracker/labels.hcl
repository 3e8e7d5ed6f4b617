# Labels, and putting one on an issue.

endpoint "GET /api/v1/labels" {
  description = "Every label, by name"

  pipeline {
    sql "labels" {
      connection = connection.postgres.tracker
      query      = "SELECT id, name, color FROM labels ORDER BY name"
    }
    respond {
      schema = list(schema.label)
      body   = steps.labels.rows
    }
  }
}

endpoint "POST /api/v1/labels" {
  description = "Creates a label; a name already taken is a 409"

  request {
    body {
      field "name" {
        type       = string
        required   = true
        min_length = 1
        max_length = 50
      }
      field "color" {
        type     = string
        required = true
        pattern  = "^#[0-9a-f]{6}$"
      }
    }
  }

  pipeline {
    sql "label" {
      connection = connection.postgres.tracker
      query      = "INSERT INTO labels (name, color) VALUES (@name, @color) RETURNING id, name, color"
      args = {
        name  = ctx.request.body.name
        color = ctx.request.body.color
      }
      # 23505 unique_violation: labels.name is UNIQUE.
      catch "23505" {
        status = 409
        body   = problem(409, "Label exists", "There is a label named ${ctx.request.body.name} already.")
      }
    }
    respond {
      status = 201
      schema = schema.label
      body   = steps.label.row
    }
  }
}

# Idempotent: putting a label on an issue that has it already changes nothing. Answers the issue.
endpoint "PUT /api/v1/issues/{id}/labels/{label}" {
  description = "Puts a label on an issue"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
      field "label" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    sql "labelled" {
      connection = connection.postgres.tracker
      query      = "INSERT INTO issue_labels (issue_id, label_id) VALUES (@id, @label) ON CONFLICT DO NOTHING"
      args = {
        id    = ctx.request.path.id
        label = ctx.request.path.label
      }
      # 23503 foreign_key_violation: the issue or the label does not exist.
      catch "23503" {
        status = 404
        body   = problem(404, "Issue or label not found", "There is no issue ${ctx.request.path.id} or no label ${ctx.request.path.label}.")
      }
    }
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
      schema = schema.issue
      body   = steps.issue.row
    }
  }
}
