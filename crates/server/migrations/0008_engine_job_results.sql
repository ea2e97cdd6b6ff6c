-- What a worker's search found besides the move: how long the search took (took_ms, what
-- the computer's clock is charged: never the job's wait in the queue) and the engine's
-- score of the position after the move, for the side that moved (score, as the engine
-- writes it: `35`, `win12`, `loss4`; NULL from a level that blurs its choice), which answers
-- a draw offer in that position without another search.
ALTER TABLE engine_jobs ADD COLUMN took_ms BIGINT;
ALTER TABLE engine_jobs ADD COLUMN score TEXT;
