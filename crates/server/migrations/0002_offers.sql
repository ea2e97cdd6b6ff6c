-- Offers standing between the players, kept so that a restart does not drop them: the colour
-- whose draw offer is open, and which players have asked for a rematch (0 or 1).
ALTER TABLE games ADD COLUMN draw_offer TEXT;
ALTER TABLE games ADD COLUMN rematch_white BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rematch_black BIGINT NOT NULL DEFAULT 0;
