-- Games, their seats and every move with the clocks after it. Written for both SQLite and
-- PostgreSQL: text ids, 64-bit integers, no engine-specific types.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    listed BIGINT NOT NULL,
    clock_base_ms BIGINT,
    clock_increment_ms BIGINT,
    status TEXT NOT NULL,
    result TEXT,
    winner TEXT,
    reason TEXT,
    white_ms BIGINT NOT NULL,
    black_ms BIGINT NOT NULL,
    turn_started_ms BIGINT,
    rematch_of TEXT,
    rematch_id TEXT,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX games_status_updated ON games (status, updated_ms);

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    color TEXT NOT NULL,
    kind TEXT NOT NULL,
    level BIGINT,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (game_id, color)
);

CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply BIGINT NOT NULL,
    hub TEXT NOT NULL,
    pdn TEXT NOT NULL,
    fen_after TEXT NOT NULL,
    white_ms BIGINT NOT NULL,
    black_ms BIGINT NOT NULL,
    played_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
