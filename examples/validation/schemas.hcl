# SPEC.md §4.4: the user_create schema, reused by POST /api/v1/users.
schema "user_create" {
  field "email" {
    type     = string
    required = true
    format   = "email"
  }
  field "account_type" {
    type     = string
    required = true
    enum     = ["individual", "business"]
  }
  field "username" {
    type       = string
    required   = true
    min_length = 3
    max_length = 30
    pattern    = "^[a-zA-Z0-9_-]+$"
  }
  field "age" {
    type = int
    min  = 18
    max  = 120
  }
  field "role" {
    type    = string
    default = "member"
  }
  field "tags" {
    type         = list(string)
    min_items    = 1
    max_items    = 10
    unique_items = true
  }
}
