# SPEC.md §4.4 POST /accounts/{id}, in the route dialect: steps sit directly in the block,
# type names are integer/number/boolean, and each coordinate is declared by name.
route "POST /accounts/{id}" {
  summary = "Updates an account name"
  tag     = "accounts"

  request {
    path "id" {
      type     = integer
      required = true
    }
    header "x-api-key" {
      type     = string
      format   = "uuid"
      required = true
    }
    query "channel" {
      type    = string
      default = "web"
      enum    = ["web", "mobile"]
    }
    body {
      name = {
        type       = string
        min_length = 2
        required   = true
      }
    }
  }

  respond {
    status = 200
    body = {
      updated = true
      id      = ctx.request.path.id
    }
  }
}
