-- The engine job queue: computer moves to find, taken by `checkers worker` processes.
--
-- A job is one computer move: the game, the ply it is for, the variant, the game's moves
-- (space-separated, in the protocol's notation), the level and the time budget (NULL when
-- the game has no clock). status: 'waiting', 'running' (a worker holds it until
-- lease_until_ms, renewing it while it thinks) or 'done' (result: the move, or NULL when
-- the side to move has none). A running job whose lease ran out (its worker died) is taken
-- again; attempts counts the takes. Used on PostgreSQL only (FOR UPDATE SKIP LOCKED); the
-- table is created on SQLite too, where it stays empty.
CREATE TABLE engine_jobs (
    game_id TEXT NOT NULL,
    ply BIGINT NOT NULL,
    variant TEXT NOT NULL,
    moves TEXT NOT NULL,
    level BIGINT NOT NULL,
    budget_ms BIGINT,
    status TEXT NOT NULL DEFAULT 'waiting',
    worker TEXT,
    lease_until_ms BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    result TEXT,
    created_ms BIGINT NOT NULL,
    finished_ms BIGINT,
    PRIMARY KEY (game_id, ply)
);
-- The jobs a worker may take, oldest first.
CREATE INDEX engine_jobs_open ON engine_jobs (created_ms) WHERE status <> 'done';
