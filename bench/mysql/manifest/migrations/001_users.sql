CREATE TABLE users (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  email VARCHAR(255) NOT NULL UNIQUE,
  full_name VARCHAR(255) NOT NULL,
  created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
);
INSERT INTO users (email, full_name, created_at) VALUES
  ('ada@example.com', 'Ada Lovelace', '2024-01-15 09:30:00'),
  ('alan@example.com', 'Alan Turing', '2024-02-01 12:00:00');
