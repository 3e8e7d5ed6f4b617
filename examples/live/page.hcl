# GET /: the page. A respond with a string body and a declared Content-Type sends the string as it is;
# the heredoc keeps the HTML readable here. Inside a heredoc `${` and `%{` would start a template
# (write `$${` and `%%{` for the characters), which is why the script below concatenates strings
# instead of using JavaScript's template literals.

endpoint "GET /" {
  description = "The live feed page"

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
          <meta name="viewport" content="width=device-width, initial-scale=1">
          <title>Live feed</title>
          <link rel="icon" href="data:,">
          <style>
            body { font: 16px/1.45 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
            #state { display: inline-block; padding: 0 .6rem; border-radius: 1rem; background: #eee; }
            #state.open { background: #cdeccf; }
            #state.connecting { background: #fbecb5; }
            #state.closed { background: #f6c9c9; }
            form { display: flex; gap: .5rem; margin: 1rem 0 .25rem; }
            form [name=text] { flex: 1; }
            #posted { min-height: 1.45em; margin: 0; color: #555; }
            #events { list-style: none; padding: 0; }
            #events li { padding: .4rem 0; border-bottom: 1px solid #eee; }
            #events .seq { color: #888; margin-right: .5rem; font-variant-numeric: tabular-nums; }
            #events .gap { color: #a05a00; font-style: italic; }
            #events .author { font-weight: 600; margin-right: .4rem; }
          </style>
        </head>
        <body>
          <h1>Live feed</h1>
          <p>Connection: <span id="state" class="connecting">connecting</span></p>
          <form id="post">
            <input name="author" value="guest" required maxlength="40" aria-label="Your name">
            <input name="text" placeholder="Say something" required maxlength="280" aria-label="Message">
            <button>Post</button>
          </form>
          <p id="posted" role="status"></p>
          <ul id="events"></ul>
          <p>The whole log: <a href="/export.ndjson">NDJSON</a>, <a href="/export.csv">CSV</a></p>
          <script>
            'use strict';
            // What the page has seen, for the browser's console (and the end-to-end test).
            const feed = { source: new EventSource('/events'), opens: 0, errors: 0, received: [] };
            window.liveFeed = feed;
            const state = document.getElementById('state');
            const list = document.getElementById('events');
            const posted = document.getElementById('posted');

            // EventSource reconnects by itself after a dropped connection, `retry` ms later (the
            // server sends 1000); it gives up (CLOSED) only on an answer that is not an event stream.
            function showState() {
              let name = ['connecting', 'open', 'closed'][feed.source.readyState];
              state.className = name;
              if (name === 'connecting' && feed.opens > 0) name = 'reconnecting';
              state.textContent = name;
            }
            feed.source.addEventListener('open', () => { feed.opens++; showState(); });
            feed.source.addEventListener('error', () => { feed.errors++; showState(); });

            // Each message is an `event: posted` whose data is the message and whose id its seq.
            feed.source.addEventListener('posted', (event) => {
              const message = JSON.parse(event.data);
              feed.received.push({ id: event.lastEventId, message: message });
              const item = document.createElement('li');
              const seq = document.createElement('span');
              seq.className = 'seq';
              seq.textContent = '#' + event.lastEventId;
              const author = document.createElement('span');
              author.className = 'author';
              author.textContent = message.author;
              item.append(seq, author, document.createTextNode(message.text));
              list.prepend(item);
            });

            // The log no longer holds what the page missed (the server's in-memory log started
            // again): say so, rather than leave a silent hole in the list.
            feed.source.addEventListener('gap', () => {
              feed.gaps = (feed.gaps || 0) + 1;
              const item = document.createElement('li');
              item.className = 'gap';
              item.textContent = 'Some messages were missed while the page was away; reload to see the whole log.';
              list.prepend(item);
            });

            document.getElementById('post').addEventListener('submit', async (event) => {
              event.preventDefault();
              const form = event.target;
              const text = form.elements.namedItem('text');
              const body = { author: form.elements.namedItem('author').value, text: text.value };
              try {
                const answer = await fetch('/events', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
                const result = await answer.json();
                if (answer.status === 202) {
                  posted.textContent = 'Posted as #' + result.seq;
                  text.value = '';
                } else {
                  const reasons = (result.invalid_params || []).map((p) => p.name + ' ' + p.reason);
                  posted.textContent = result.title + (reasons.length ? ': ' + reasons.join(', ') : '');
                }
              } catch (error) {
                posted.textContent = 'Could not post: ' + error.message;
              }
            });
          </script>
        </body>
        </html>
      EOT
    }
  }
}
