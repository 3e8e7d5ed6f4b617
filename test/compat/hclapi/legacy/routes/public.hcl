endpoint "GET /health/live" {
  auth = []

  pipeline {
    respond {
      status = 200
      body   = { status = "OK", timestamp = ctx.timestamp_epoch }
    }
  }
}

endpoint "POST /webhooks/stripe" {
  auth = []

  request {
    headers {
      field "stripe-signature" {
        type     = string
        required = true
      }
    }
    body {
      field "type" { type = string, required = true }
      field "data" { type = any, required = true }
    }
  }

  pipeline {
    respond {
      status = 200
      body   = { received = true, type = ctx.request.body.type }
    }
  }
}
