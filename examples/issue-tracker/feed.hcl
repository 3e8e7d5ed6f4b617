# A project's live feed of issue events (Server-Sent Events), and its issues as a CSV file.

# LISTEN on the project's channel, resumed from the event log: a client that reconnects with
# Last-Event-ID (EventSource does it by itself) is sent what it missed first, then the live events.
endpoint "GET /api/v1/projects/{id}/events" {
  description = "A project's issue events as they happen (text/event-stream), resumed from Last-Event-ID"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
    headers {
      field "last-event-id" {
        type = int
        min  = 0
      }
    }
  }

  pipeline {
    sql "project" {
      connection = connection.postgres.tracker
      query      = "SELECT id FROM projects WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.project.row == null
      body      = problem(404, "Project not found", "There is no project ${ctx.request.path.id}.")
    }

    # The live source first: from now on every committed event is on its way to this client.
    sql "live" {
      connection = connection.postgres.tracker
      listen     = "project_${ctx.request.path.id}"
    }
    # Then the log from the client's last event on, that one included (how svc tells the log still
    # has it). Nothing on a first connection, without the header.
    sql "missed" {
      connection = connection.postgres.tracker
      query      = <<-SQL
        SELECT id, project_id, issue_id, kind, from_status, to_status, created_at
          FROM events
         WHERE project_id = @project AND id >= @last
         ORDER BY id
      SQL
      args = {
        project = ctx.request.path.id
        last    = ctx.request.headers["last-event-id"]
      }
      stream = true
    }
    stream "sse" {
      source = steps.live.stream
      replay = steps.missed.stream
      schema = schema.issue_event
      event  = "issue"
      id     = item.id
      retry  = "2s"
    }
  }
}

# For spreadsheets: a team token, or the export key in the URL
# (=IMPORTDATA("https://tracker.example.com/api/v1/projects/1/issues.csv?api_key=...")).
endpoint "GET /api/v1/projects/{id}/issues.csv" {
  description = "A project's issues as CSV, streamed from a cursor"
  auth        = [auth.team, auth.export]

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    sql "project" {
      connection = connection.postgres.tracker
      query      = "SELECT id, key FROM projects WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.project.row == null
      body      = problem(404, "Project not found", "There is no project ${ctx.request.path.id}.")
    }
    sql "issues" {
      connection = connection.postgres.tracker
      query      = <<-SQL
        SELECT i.id, i.title, i.status, i.priority, u.name AS assignee, i.created_at
          FROM issues i LEFT JOIN users u ON u.id = i.assignee_id
         WHERE i.project_id = @id
         ORDER BY i.id
      SQL
      args       = { id = ctx.request.path.id }
      stream     = true
    }
    # Titles are typed by people: a cell starting with = or + is written as text, never run as a
    # formula by the spreadsheet that opens the file.
    stream "csv" {
      source              = steps.issues.stream
      columns             = ["id", "title", "status", "priority", "assignee", "created_at"]
      neutralize_formulas = true
      headers = {
        # A key may hold letters beyond ASCII: the name goes in filename* (RFC 6266), percent-encoded
        # UTF-8, with a plain ASCII name for clients that do not read it.
        "Content-Disposition" = "attachment; filename=\"issues.csv\"; filename*=UTF-8''${url_encode(steps.project.row.key)}-issues.csv"
      }
    }
  }
}
