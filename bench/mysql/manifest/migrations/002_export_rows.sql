CREATE TABLE export_rows (
  id INT PRIMARY KEY,
  name VARCHAR(40) NOT NULL,
  amount DECIMAL(12, 2) NOT NULL,
  created_at DATETIME NOT NULL
);
