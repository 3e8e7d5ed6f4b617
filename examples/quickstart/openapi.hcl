# The OpenAPI 3.1 document of this manifest, and a page that shows it, served by the server itself.
# Nothing is mounted implicitly: these endpoints exist because they are declared here. The two spec
# endpoints serve the text `npx svc openapi -c examples/quickstart` prints (the YAML one with
# --format=yaml); /docs is the Scalar reference page, which loads /openapi.json (the nearest JSON spec
# endpoint) and takes its scripts from below /docs/assets/, never from another host.

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

endpoint "GET /docs" {
  openapi {
    ui = "scalar"
  }
}
