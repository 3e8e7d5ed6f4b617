# bench/h2: svc's side. The certificate files are written next to it by run.ts, for the run.
server {
  tls {
    cert_file = "tls/cert.pem"
    key_file  = "tls/key.pem"
  }
}

endpoint "GET /health" {
  pipeline {
    respond {
      body = { status = "ok" }
    }
  }
}
