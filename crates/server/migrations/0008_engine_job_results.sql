-- Engine jobs of every kind, and what a worker's search found besides its result.
--
-- kind: 'move' (the computer's move in a game), 'review' (a finished game's review) or
-- 'lines' (the engine's best lines in the position the moves reach). start_fen: where the
-- game began (NULL: the variant's starting position), the moves being played from there.
-- nodes: the nodes searched a position (reviews and lines); lines: how many best moves.
-- A review's or lines' result is text of their own (one line a move reviewed, or a line
-- found); their game_id is a name made from what is asked, so the same question from two
-- nodes is one job.
--
-- took_ms: how long the search took (for a move, what the computer's clock is charged: never
-- the job's wait in the queue). score: the engine's score of the position after the move,
-- for the side that moved, as the engine writes it (`35`, `win12`, `loss4`; NULL from a
-- level that blurs its choice), which answers a draw offer there without another search.
ALTER TABLE engine_jobs ADD COLUMN kind TEXT NOT NULL DEFAULT 'move';
ALTER TABLE engine_jobs ADD COLUMN start_fen TEXT;
ALTER TABLE engine_jobs ADD COLUMN nodes BIGINT;
ALTER TABLE engine_jobs ADD COLUMN lines BIGINT;
ALTER TABLE engine_jobs ADD COLUMN took_ms BIGINT;
ALTER TABLE engine_jobs ADD COLUMN score TEXT;
