# The shapes of the answers. Every JSON answer names one (`respond { schema = ... }`): only the
# declared fields are sent, and the OpenAPI document gives a generated client their exact types.

schema "user" {
  field "id" {
    type     = int
    required = true
  }
  field "email" {
    type     = string
    required = true
    format   = "email"
  }
  field "name" {
    type     = string
    required = true
  }
  field "created_at" {
    type     = string
    required = true
    format   = "date-time"
  }
}

schema "project" {
  field "id" {
    type     = int
    required = true
  }
  field "key" {
    type        = string
    required    = true
    description = "The slug of the name, unique: analytical-engine"
  }
  field "name" {
    type     = string
    required = true
  }
  field "description" {
    type     = string
    required = true
    nullable = true
  }
  field "created_at" {
    type     = string
    required = true
    format   = "date-time"
  }
}

schema "issue" {
  field "id" {
    type     = int
    required = true
  }
  field "project_id" {
    type     = int
    required = true
  }
  field "title" {
    type     = string
    required = true
  }
  field "description" {
    type     = string
    required = true
    nullable = true
  }
  field "status" {
    type     = string
    required = true
    enum     = ["open", "in_progress", "closed"]
  }
  field "priority" {
    type     = string
    required = true
    enum     = ["low", "normal", "high", "urgent"]
  }
  field "assignee_id" {
    type     = int
    required = true
    nullable = true
  }
  field "labels" {
    type     = list(string)
    required = true
  }
  field "created_at" {
    type     = string
    required = true
    format   = "date-time"
  }
  field "updated_at" {
    type     = string
    required = true
    format   = "date-time"
  }
}

# One page of a project's issues; next_cursor is null on the last page.
schema "issue_page" {
  field "items" {
    type     = list(schema.issue)
    required = true
  }
  field "next_cursor" {
    type        = int
    required    = true
    nullable    = true
    description = "Pass it as ?cursor= for the next page"
  }
}

schema "comment" {
  field "id" {
    type     = int
    required = true
  }
  field "issue_id" {
    type     = int
    required = true
  }
  field "author" {
    type     = string
    required = true
  }
  field "body" {
    type     = string
    required = true
  }
  field "created_at" {
    type     = string
    required = true
    format   = "date-time"
  }
}

schema "label" {
  field "id" {
    type     = int
    required = true
  }
  field "name" {
    type     = string
    required = true
  }
  field "color" {
    type     = string
    required = true
    pattern  = "^#[0-9a-f]{6}$"
  }
}

# An entry of the event log, as the SSE feed sends it.
schema "issue_event" {
  field "id" {
    type     = int
    required = true
  }
  field "project_id" {
    type     = int
    required = true
  }
  field "issue_id" {
    type     = int
    required = true
  }
  field "kind" {
    type     = string
    required = true
    enum     = ["created", "moved"]
  }
  field "from_status" {
    type     = string
    required = true
    nullable = true
    enum     = ["open", "in_progress", "closed"]
  }
  field "to_status" {
    type     = string
    required = true
    enum     = ["open", "in_progress", "closed"]
  }
  field "created_at" {
    type     = string
    required = true
    format   = "date-time"
  }
}

schema "move" {
  field "issue" {
    type     = schema.issue
    required = true
  }
  field "event" {
    type     = schema.issue_event
    required = true
  }
}
