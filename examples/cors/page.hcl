# GET /: the page. Served by the process on the page's origin, it calls the API on the other origin
# (`?api=` names it; http://127.0.0.1:8081 by default). The page itself is not for other origins:
# `cors = false` turns the server's policy off here. In the heredoc, the script joins strings with
# `+` because `${` would start an HCL template.

endpoint "GET /" {
  description = "The page that subscribes to the API's feed from another origin"
  cors        = false

  pipeline {
    respond {
      headers = {
        "Content-Type"  = "text/html; charset=utf-8"
        "Cache-Control" = "no-cache"
      }
      body = <<-EOT
        <!doctype html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <title>Cross-origin feed</title>
          <link rel="icon" href="data:,">
          <style>
            body { font: 16px/1.45 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
            code { background: #f3f3f3; padding: 0 .25rem; }
            #events li { padding: .3rem 0; border-bottom: 1px solid #eee; }
          </style>
        </head>
        <body>
          <h1>Cross-origin feed</h1>
          <p>This page: <code id="page"></code>; the API: <code id="api"></code></p>
          <p>The API saw: <code id="whoami">asking...</code></p>
          <p>Feed: <code id="state">connecting</code></p>
          <form id="post">
            <input name="text" placeholder="Say something" required maxlength="280" aria-label="Message">
            <button>Publish</button>
          </form>
          <ul id="events"></ul>
          <script>
            const api = new URLSearchParams(location.search).get('api') || 'http://127.0.0.1:8081';
            document.getElementById('page').textContent = location.origin;
            document.getElementById('api').textContent = api;
            // What the test (and a curious reader) looks at.
            const demo = window.demo = { api: api, whoami: null, fetchError: null, opens: 0, errors: 0, readyState: 0, received: [], posted: null };
            // A cookie of this site; `credentials: 'include'` sends it to the API too (same host, another port).
            document.cookie = 'visitor=ada; SameSite=Lax; path=/';

            fetch(api + '/whoami', { credentials: 'include' })
              .then((answer) => answer.json())
              .then((body) => {
                demo.whoami = body;
                document.getElementById('whoami').textContent = JSON.stringify(body);
              }, (error) => {
                demo.fetchError = error.name + ': ' + error.message;
                document.getElementById('whoami').textContent = 'blocked (' + demo.fetchError + ')';
              });

            const source = new EventSource(api + '/events', { withCredentials: true });
            const state = document.getElementById('state');
            source.addEventListener('open', () => { demo.opens++; demo.readyState = source.readyState; state.textContent = 'open'; });
            source.addEventListener('error', () => {
              demo.errors++;
              demo.readyState = source.readyState;
              state.textContent = source.readyState === EventSource.CLOSED ? 'closed (blocked?)' : 'reconnecting';
            });
            source.addEventListener('posted', (event) => {
              const message = JSON.parse(event.data);
              demo.received.push(message);
              const item = document.createElement('li');
              item.textContent = message.text;
              document.getElementById('events').prepend(item);
            });

            // A JSON POST is not a "simple" request: the browser sends a preflight first.
            document.getElementById('post').addEventListener('submit', async (event) => {
              event.preventDefault();
              const text = event.target.elements.namedItem('text');
              try {
                const answer = await fetch(api + '/events', {
                  method: 'POST',
                  credentials: 'include',
                  headers: { 'Content-Type': 'application/json' },
                  body: JSON.stringify({ text: text.value }),
                });
                demo.posted = answer.status;
                text.value = '';
              } catch (error) {
                demo.posted = error.name + ': ' + error.message;
              }
            });
          </script>
        </body>
        </html>
      EOT
    }
  }
}
