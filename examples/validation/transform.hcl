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
    starlark "normalise" {
      source = <<-EOT
        def execute(ctx):
            body = ctx["request"]["body"]
            out = []
            for tag in body["tags"]:
                tag = tag.strip().lower()
                if tag:
                    out.append(body["prefix"] + ":" + tag)
            return {"count": len(out), "tags": out}
      EOT
    }
    respond {
      status = 200
      body   = steps.normalise.result
    }
  }
}
