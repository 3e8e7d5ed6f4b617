connection "postgres" "primary" {
  url = env("LEGACY_DATABASE_URL")

  pool {
    max_open_conns    = 10
    max_idle_conns    = 2
    conn_max_lifetime = "30m"
  }
}

connection "redis" "cache" {
  url = env("LEGACY_REDIS_URL")

  pool {
    size         = 4
    idle_timeout = "5m"
  }
}
