CREATE TABLE users (
  id SERIAL PRIMARY KEY,
  email TEXT UNIQUE NOT NULL,
  full_name TEXT NOT NULL
);
CREATE TABLE workspaces (
  id SERIAL PRIMARY KEY,
  owner_id INT NOT NULL REFERENCES users(id),
  slug TEXT UNIQUE NOT NULL,
  plan TEXT NOT NULL
);
CREATE TABLE products (
  id SERIAL PRIMARY KEY,
  sku TEXT UNIQUE NOT NULL,
  name TEXT NOT NULL,
  price_cents INT NOT NULL
);
INSERT INTO products (sku, name, price_cents) VALUES ('KB-MECH-01', 'Mechanical keyboard', 12900);
CREATE TABLE accounts (id INT PRIMARY KEY, name TEXT NOT NULL, tier TEXT NOT NULL);
CREATE TABLE invoices (id SERIAL PRIMARY KEY, account_id INT NOT NULL REFERENCES accounts(id), amount_cents INT NOT NULL, status TEXT NOT NULL);
INSERT INTO accounts VALUES (1, 'Acme', 'enterprise');
INSERT INTO invoices (account_id, amount_cents, status) SELECT 1, n * 100, 'paid' FROM generate_series(1, 7) AS n;
