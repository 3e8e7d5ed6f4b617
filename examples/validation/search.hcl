# SPEC.md §4.4 GET /api/v1/search: a header and three query parameters, validated before the pipeline.
endpoint "GET /api/v1/search" {
  description = "Echoes a validated search request"

  request {
    headers {
      field "x-api-key" {
        type     = string
        format   = "uuid"
        required = true
      }
    }
    query {
      field "q" {
        type       = string
        required   = true
        min_length = 2
      }
      field "limit" {
        type    = int
        default = 20
        min     = 1
        max     = 100
      }
      field "sort" {
        type    = string
        default = "desc"
        enum    = ["asc", "desc"]
      }
    }
  }

  pipeline {
    respond {
      status = 200
      body = {
        query = ctx.request.query.q
        limit = ctx.request.query.limit
        sort  = ctx.request.query.sort
      }
    }
  }
}
