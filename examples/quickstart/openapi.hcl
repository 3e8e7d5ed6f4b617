# The OpenAPI 3.1 document of this manifest, served by the server itself. Nothing is mounted
# implicitly: these two endpoints exist because they are declared here. Both serve the text
# `npx svc openapi -c examples/quickstart` prints (the YAML one with --format=yaml).

endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}

endpoint "GET /openapi.yaml" {
  openapi {
    format = "yaml"
  }
}
