-- Private friend games, quotas per client address, and a list of games read from an index.
--
-- invite_hash: SHA-256 of a friend game's invitation secret (joining needs the secret); a game
-- with one is private: never listed. Games stored before this have none and stay as they were.
-- creator: the address of the client that created the game, for the quotas on games created
-- and games waiting per address.
-- white_name, black_name, plies, live: the game as the list of games shows it, kept up to date
-- with the game's row, so that listing reads one index instead of counting every game's
-- moves and seats. live is 1 while the game is not finished: live games are listed first.
ALTER TABLE games ADD COLUMN invite_hash TEXT;
ALTER TABLE games ADD COLUMN creator TEXT;
ALTER TABLE games ADD COLUMN white_name TEXT;
ALTER TABLE games ADD COLUMN black_name TEXT;
ALTER TABLE games ADD COLUMN plies BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN live BIGINT NOT NULL DEFAULT 0;
UPDATE games SET
    live = CASE WHEN status = 'finished' THEN 0 ELSE 1 END,
    white_name = (SELECT name FROM seats s WHERE s.game_id = games.id AND s.color = 'white'),
    black_name = (SELECT name FROM seats s WHERE s.game_id = games.id AND s.color = 'black'),
    plies = (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id);
-- The list of public games, in the order it is shown and paged.
CREATE INDEX games_list ON games (live, updated_ms, id) WHERE invite_hash IS NULL;
-- Games created in the last hour, counted per address at start-up.
CREATE INDEX games_created ON games (created_ms);
