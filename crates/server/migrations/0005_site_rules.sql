-- The site's rules of play.
--
-- turn_began_ms: when the side to move's turn began (the game began, or the last move was
-- played), clock or no clock. Games in play stored before this take their last change.
-- abandoned_by: the colour of the player who left the game when the opponent claimed it
-- (reason 'abandoned'; a win for the opponent, or a draw), or who was to move in a game that
-- went unplayed for long (a win for the opponent).
-- takeback_offer: the colour whose request to take back a move stands.
ALTER TABLE games ADD COLUMN turn_began_ms BIGINT;
ALTER TABLE games ADD COLUMN abandoned_by TEXT;
ALTER TABLE games ADD COLUMN takeback_offer TEXT;
UPDATE games SET turn_began_ms = updated_ms WHERE status = 'playing';
-- The games in play where no clock runs, by when their turn began: those unplayed for long
-- are ended (see docs/protocol.md).
CREATE INDEX games_unplayed ON games (turn_began_ms) WHERE status = 'playing' AND turn_started_ms IS NULL;
