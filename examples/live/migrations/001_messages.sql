-- The message log behind the live feed: every message POST /events accepts is kept here (its seq
-- becomes the SSE event id) and GET /export.ndjson and /export.csv read it back. Applied at every
-- start of the in-memory default (`pglite:`), once on a persistent database.

CREATE TABLE messages (
  seq     bigserial PRIMARY KEY,
  author  text NOT NULL,
  text    text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO messages (author, text, sent_at) VALUES
  ('ada',   'Hello, feed!',                        '2024-06-01T09:00:00Z'),
  ('grace', 'Commas, "quotes" and all: CSV copes', '2024-06-01T09:05:30Z'),
  ('alan',  'Three rows to start with',            '2024-06-01T09:12:45Z');
