-- The shop's tables and a little seed data. Applied once at boot by `migrations = "migrations"`
-- (recorded with its checksum in svc_migrations: edit a new file, never this one once applied).

CREATE TABLE users (
  id         bigserial PRIMARY KEY,
  email      text NOT NULL UNIQUE,
  full_name  text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workspaces (
  id         bigserial PRIMARY KEY,
  owner_id   bigint NOT NULL REFERENCES users (id),
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
  id         bigserial PRIMARY KEY,
  name       text NOT NULL,
  plan       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE invoices (
  id         bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  number     text NOT NULL UNIQUE,
  amount     numeric(12, 2) NOT NULL,
  currency   char(3) NOT NULL DEFAULT 'EUR',
  status     text NOT NULL,
  issued_on  date NOT NULL
);
CREATE INDEX invoices_account ON invoices (account_id, issued_on DESC);

CREATE TABLE events (
  id          bigserial PRIMARY KEY,
  account_id  bigint NOT NULL REFERENCES accounts (id),
  kind        text NOT NULL,
  data        jsonb NOT NULL DEFAULT '{}',
  occurred_at timestamptz NOT NULL
);
CREATE INDEX events_account ON events (account_id, occurred_at DESC);

INSERT INTO users (email, full_name, created_at) VALUES
  ('ada@example.com',   'Ada Lovelace',   '2024-01-15T09:30:00Z'),
  ('grace@example.com', 'Grace Hopper',   '2024-02-01T14:00:00Z'),
  ('alan@example.com',  'Alan Turing',    '2024-03-10T08:15:00Z');

INSERT INTO workspaces (owner_id, name, created_at) VALUES
  (1, 'Analytical Engines', '2024-01-15T09:31:00Z');

INSERT INTO accounts (name, plan, created_at) VALUES
  ('Babbage & Co', 'business', '2023-11-02T10:00:00Z'),
  ('Difference Ltd', 'starter', '2024-04-20T16:45:00Z');

INSERT INTO invoices (account_id, number, amount, status, issued_on) VALUES
  (1, 'INV-2024-0001', 1200.00, 'paid',    '2024-01-31'),
  (1, 'INV-2024-0002',  349.90, 'paid',    '2024-02-29'),
  (1, 'INV-2024-0003',  349.90, 'paid',    '2024-03-31'),
  (1, 'INV-2024-0004',  412.50, 'open',    '2024-04-30'),
  (1, 'INV-2024-0005',  412.50, 'open',    '2024-05-31'),
  (1, 'INV-2024-0006',   99.00, 'overdue', '2024-06-30'),
  (2, 'INV-2024-0101',   19.00, 'open',    '2024-05-20');

INSERT INTO events (account_id, kind, data, occurred_at) VALUES
  (1, 'login',           '{"user": "ada@example.com"}',               '2024-06-01T08:00:00Z'),
  (1, 'invoice.paid',    '{"invoice": "INV-2024-0003"}',              '2024-06-02T12:30:00Z'),
  (1, 'plan.changed',    '{"from": "starter", "to": "business"}',     '2024-06-03T17:05:00Z'),
  (1, 'seat.added',      '{"seats": 12}',                             '2024-06-04T09:45:00Z'),
  (1, 'export',          '{"format": "csv", "rows": 1532}',           '2024-06-05T11:20:00Z'),
  (1, 'login',           '{"user": "grace@example.com"}',             '2024-06-06T07:55:00Z'),
  (2, 'signup',          '{"source": "web"}',                         '2024-04-20T16:45:00Z');
