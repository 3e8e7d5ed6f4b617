-- The issue tracker's tables, and a little seed data so that every endpoint answers something on
-- the first start.

CREATE TYPE issue_status AS ENUM ('open', 'in_progress', 'closed');
CREATE TYPE issue_priority AS ENUM ('low', 'normal', 'high', 'urgent');

CREATE TABLE users (
  id         bigserial PRIMARY KEY,
  email      text NOT NULL UNIQUE,
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- `key` is the slug of the name (the Starlark step of POST /api/v1/projects): unique, so a second
-- project of the same name is a 409.
CREATE TABLE projects (
  id          bigserial PRIMARY KEY,
  key         text NOT NULL UNIQUE,
  name        text NOT NULL,
  description text,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE issues (
  id          bigserial PRIMARY KEY,
  project_id  bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  title       text NOT NULL,
  description text,
  status      issue_status NOT NULL DEFAULT 'open',
  priority    issue_priority NOT NULL DEFAULT 'normal',
  assignee_id bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX issues_by_project ON issues (project_id, id);

CREATE TABLE comments (
  id         bigserial PRIMARY KEY,
  issue_id   bigint NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
  author_id  bigint NOT NULL REFERENCES users (id),
  body       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_by_issue ON comments (issue_id, id);

CREATE TABLE labels (
  id    bigserial PRIMARY KEY,
  name  text NOT NULL UNIQUE,
  color text NOT NULL
);

CREATE TABLE issue_labels (
  issue_id bigint NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
  label_id bigint NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, label_id)
);

-- The event log of the SSE feed: its id is the event id a reconnecting client resumes from.
CREATE TABLE events (
  id          bigserial PRIMARY KEY,
  project_id  bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  issue_id    bigint NOT NULL,
  kind        text NOT NULL,
  from_status issue_status,
  to_status   issue_status,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_by_project ON events (project_id, id);

INSERT INTO users (email, name, created_at) VALUES
  ('ada@example.com', 'Ada Lovelace', '2024-01-15T09:30:00Z'),
  ('grace@example.com', 'Grace Hopper', '2024-02-01T12:00:00Z');

INSERT INTO projects (key, name, description, created_at) VALUES
  ('analytical-engine', 'Analytical Engine', 'The mill, the store and the cards.', '2024-01-16T08:00:00Z');

INSERT INTO issues (project_id, title, description, status, priority, assignee_id, created_at, updated_at) VALUES
  (1, 'The mill overheats', 'After about 40 multiplications in a row.', 'open', 'high', 1, '2024-01-17T10:00:00Z', '2024-01-17T10:00:00Z'),
  (1, 'Punch cards jam in the reader', NULL, 'in_progress', 'normal', 2, '2024-01-18T11:00:00Z', '2024-01-18T11:00:00Z'),
  (1, 'Document the Bernoulli program', 'Note G.', 'closed', 'low', 1, '2024-01-19T12:00:00Z', '2024-01-19T12:00:00Z');

INSERT INTO comments (issue_id, author_id, body, created_at) VALUES
  (1, 2, 'Seen it too: a fan on the store helps.', '2024-01-17T11:00:00Z');

INSERT INTO labels (name, color) VALUES ('bug', '#d73a4a'), ('docs', '#0075ca');

INSERT INTO issue_labels (issue_id, label_id) VALUES (1, 1), (2, 1), (3, 2);
