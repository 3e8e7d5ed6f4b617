-- The tasks and their history. Applied once at boot by `migrations = "migrations"` (recorded with
-- its checksum in svc_migrations: add a new file, never edit this one once applied).
-- Declared types say how a column reaches JSON (docs/sqlite.md "Types"): BOOLEAN gives true/false,
-- JSON the parsed value, INTEGER a number, TEXT (the timestamps too) a string.

CREATE TABLE tasks (
  id         INTEGER PRIMARY KEY,
  title      TEXT NOT NULL UNIQUE,
  done       BOOLEAN NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
  tags       JSON NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE task_events (
  id      INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  kind    TEXT NOT NULL,
  at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX task_events_task ON task_events (task_id);

INSERT INTO tasks (title, done, tags) VALUES
  ('Read the manual', 1, '["docs"]'),
  ('Write a manifest', 0, '["svc", "hcl"]');
INSERT INTO task_events (task_id, kind) SELECT id, 'created' FROM tasks;
