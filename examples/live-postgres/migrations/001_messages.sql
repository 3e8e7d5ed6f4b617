-- The message log: every message POST /events accepts; its seq is the SSE event id.

CREATE TABLE messages (
  seq     bigserial PRIMARY KEY,
  author  text NOT NULL,
  text    text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);
