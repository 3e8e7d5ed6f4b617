auth "jwt_bearer" {
  type   = "jwt"
  secret = env("LEGACY_JWT_SECRET")
  header = "Authorization"
  prefix = "Bearer "
}
