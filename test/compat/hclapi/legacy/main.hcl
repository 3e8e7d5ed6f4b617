server {
  host = "127.0.0.1"
  port = 8080

  read_timeout  = "15s"
  write_timeout = "20s"
  idle_timeout  = "60s"

  cors {
    allowed_origins = ["https://dashboard.example.com"]
    allowed_methods = ["GET", "POST"]
    allowed_headers = ["Authorization", "Content-Type"]
  }
}

api {
  prefix = "/api/v1"
  auth   = [auth.jwt_bearer]
}
