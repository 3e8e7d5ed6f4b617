# A stand-in receiver for the webhook of POST /api/v1/projects/{id}/issues, so that the example needs
# no other service: WEBHOOK_URL points the webhook at a real one, which checks X-Tracker-Signature
# (HMAC-SHA256 of the body with WEBHOOK_SECRET) before trusting it.

endpoint "POST /hooks/issues" {
  description = "Webhook receiver (stand-in): accepts an issue event"
  tags        = ["stand-in"]
  auth        = []

  pipeline {
    respond {
      status = 204
    }
  }
}
