# Comments on an issue.

endpoint "GET /api/v1/issues/{id}/comments" {
  description = "An issue's comments, oldest first"

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
      sql "issue" {
        connection = connection.postgres.tracker
        query      = "SELECT id FROM issues WHERE id = @id"
        args       = { id = ctx.request.path.id }
      }
      sql "comments" {
        connection = connection.postgres.tracker
        query      = <<-SQL
          SELECT c.id, c.issue_id, u.name AS author, c.body, c.created_at
            FROM comments c JOIN users u ON u.id = c.author_id
           WHERE c.issue_id = @id
           ORDER BY c.id
        SQL
        args       = { id = ctx.request.path.id }
      }
    }
    respond {
      condition = steps.issue.row == null
      body      = problem(404, "Issue not found", "There is no issue ${ctx.request.path.id}.")
    }
    respond {
      schema = list(schema.comment)
      body   = steps.comments.rows
    }
  }
}

endpoint "POST /api/v1/issues/{id}/comments" {
  description = "Comments on an issue"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
    body {
      field "author_id" {
        type     = int
        required = true
        min      = 1
      }
      field "body" {
        type       = string
        required   = true
        min_length = 1
        max_length = 10000
      }
    }
  }

  pipeline {
    # No row when the issue does not exist (a 404 below); an unknown author breaks the foreign key.
    sql "comment" {
      connection = connection.postgres.tracker
      query      = <<-SQL
        INSERT INTO comments (issue_id, author_id, body)
        SELECT id, @author, @body FROM issues WHERE id = @id
        RETURNING id, issue_id, (SELECT name FROM users WHERE users.id = author_id) AS author, body, created_at
      SQL
      args = {
        id     = ctx.request.path.id
        author = ctx.request.body.author_id
        body   = ctx.request.body.body
      }
      # 23503 foreign_key_violation: no user has that id.
      catch "23503" {
        status = 422
        body   = problem(422, "Unknown author", "There is no user ${ctx.request.body.author_id}.")
      }
    }
    respond {
      condition = steps.comment.row == null
      body      = problem(404, "Issue not found", "There is no issue ${ctx.request.path.id}.")
    }
    respond {
      status = 201
      schema = schema.comment
      body   = steps.comment.row
    }
  }
}
