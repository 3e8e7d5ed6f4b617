# SPEC.md §4.4 POST /api/v1/transform: body defaults, then a Starlark step.
endpoint "POST /api/v1/transform" {
  description = "Normalises tags and prefixes them"

  request {
    body {
      field "prefix" {
        type    = string
        default = "item"
      }
      field "tags" {
        type    = list(string)
        default = []
      }
    }
  }

  pipeline {
    # The script lives next to this file; `source = <<-EOT ... EOT` works inline too.
    starlark "normalise" {
      file = "transform.star"
    }
    respond {
      status = 200
      body   = steps.normalise.result
    }
  }
}
