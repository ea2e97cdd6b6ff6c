-- Several nodes on one PostgreSQL database (see `cluster` in the server crate).
--
-- nodes: each running `checkers serve` on PostgreSQL, alive while alive_until_ms (on the
-- database's clock) lies ahead; a node renews it about every second, and a node whose time
-- ran out is dead: another deletes its row, and its games are taken over.
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    alive_until_ms BIGINT NOT NULL,
    started_ms BIGINT NOT NULL
);
-- game_owners: which node runs each live game (referees it, keeps its clocks). A game with
-- no row, or whose node is dead, is taken by the first node that needs it.
CREATE TABLE game_owners (
    game_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    since_ms BIGINT NOT NULL
);
CREATE INDEX game_owners_node ON game_owners (node);
-- cluster_mail: a message between nodes too long for a NOTIFY payload; the payload names
-- its row instead. Rows are deleted after a minute.
CREATE TABLE cluster_mail (
    id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
