CREATE TABLE members (
  id SERIAL PRIMARY KEY,
  name VARCHAR(255) NOT NULL,
  email VARCHAR(255) UNIQUE NOT NULL,
  tier VARCHAR(32) NOT NULL DEFAULT 'standard',
  points INT NOT NULL DEFAULT 0,
  tenant TEXT,
  renamed BOOLEAN NOT NULL DEFAULT false,
  api_token TEXT NOT NULL DEFAULT md5(random()::text)
);
INSERT INTO members (name, email, tier, points) VALUES
  ('Jane Developer', 'jane@example.com', 'enterprise', 500),
  ('John Doe', 'john@example.com', 'standard', 100);
CREATE PROCEDURE award_member_points(p_id INT, p_bonus INT)
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET points = points + p_bonus WHERE id = p_id;
END;
$$;
