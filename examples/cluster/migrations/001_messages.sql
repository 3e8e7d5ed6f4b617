-- The message log of the cluster example: POST /messages inserts here (the seq is the SSE event id),
-- GET /messages?after=<seq> reads what a reconnecting client missed. Applied once by whichever
-- replica takes the migrations' lock first; the others find it recorded.

CREATE TABLE messages (
  seq     bigserial PRIMARY KEY,
  author  text NOT NULL,
  text    text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);
