# A manifest served by the program of ../server.ts, which defines two step kinds of its own:
# `geocode` (a city's coordinates, from a table of the program) and `waypoints` (a stream of points
# between two cities). They are used like built-in steps: labelled blocks, attributes that are
# expressions evaluated per request, outputs read as steps.<label>.<member>, checked at boot.

server {
  host = "127.0.0.1"
  port = 8080
}

openapi {
  title   = "Embedded"
  version = "1.0.0"
}

endpoint "GET /cities/{name}" {
  description = "A city's coordinates"

  pipeline {
    geocode "place" {
      city = ctx.request.path.name
    }
    respond {
      status    = 404
      condition = !steps.place.found
      body      = problem(404, "No such city", "The gazetteer has no city ${ctx.request.path.name}")
    }
    respond {
      body = {
        city = steps.place.city
        lat  = steps.place.lat
        lon  = steps.place.lon
      }
    }
  }
}

endpoint "GET /route" {
  description = "Points from one city to another, as NDJSON, sent as the client reads them"

  request {
    query {
      field "from" {
        type = string
      }
      field "to" {
        type = string
      }
      field "steps" {
        type    = int
        min     = 1
        max     = 100000
        default = 10
      }
    }
  }

  pipeline {
    geocode "from" {
      city = ctx.request.query.from
    }
    geocode "to" {
      city = ctx.request.query.to
    }
    respond {
      status    = 404
      condition = !steps.from.found || !steps.to.found
      body      = problem(404, "No such city", "The gazetteer knows neither ${ctx.request.query.from} nor ${ctx.request.query.to}, or only one")
    }
    waypoints "route" {
      from  = [steps.from.lat, steps.from.lon]
      to    = [steps.to.lat, steps.to.lon]
      count = ctx.request.query.steps
    }
    stream "ndjson" {
      source = steps.route.stream
    }
  }
}

endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}
