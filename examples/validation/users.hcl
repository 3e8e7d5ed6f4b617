# SPEC.md §4.4 POST /api/v1/users, validation half: the body must satisfy user_create.
# Without a database this echoes the validated body (defaults included) instead of inserting it;
# the database half arrives with the sql step.
endpoint "POST /api/v1/users" {
  description = "Validates a new user"

  request {
    body = schema.user_create
  }

  pipeline {
    respond {
      status = 201
      body   = ctx.request.body
    }
  }
}
