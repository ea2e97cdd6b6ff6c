-- Accounts, their sessions and ratings, and rated games.
--
-- accounts: name as its owner wrote it; name_key the same in lower case, unique, so that two
-- names equal ignoring case cannot both exist; password_hash an Argon2id PHC string (never
-- the password). Ids are random 62-bit numbers made by the server.
CREATE TABLE accounts (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- A logged-in browser: the SHA-256 of its cookie's random token, until it logs out (the row
-- is deleted) or expires_ms passes.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

-- One Glicko-2 rating per account, variant and speed class, with when the last rated game in
-- it ended (the RD grows for the idle days since). No row: never rated there (1500/350/0.06).
CREATE TABLE ratings (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    variant TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    last_rated_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, variant, speed)
);
CREATE INDEX ratings_board ON ratings (variant, speed, rating);

-- The account holding a seat, if any; a player's games are found through it.
ALTER TABLE seats ADD COLUMN account_id BIGINT;
CREATE INDEX seats_account ON seats (account_id);

-- rated: 1 for a rated game. speed: the clock's speed class (NULL untimed). The ratings of
-- both players before and after a rated game, written in the transaction of its result.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN speed TEXT;
ALTER TABLE games ADD COLUMN white_rating_before DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN white_rating_after DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN black_rating_before DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN black_rating_after DOUBLE PRECISION;
