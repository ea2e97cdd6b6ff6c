-- Quick pairing, who is online, challenges and the pairing rounds, shared by the nodes of a
-- cluster on PostgreSQL (see `cluster::pairing` in the server crate). On SQLite one node
-- holds all of this in memory: the tables are created there too and stay empty.
--
-- seeks: a connection waiting in a quick-pairing pool, on the node that holds it (conn: the
-- connection's number there). rated: 1 for a rated pool; clock as `minutes+increment`;
-- rating and rd as they stood on seeking; joined_ms on the database's clock; token_hash: the
-- hash of the seat token the connection's node keeps for the game it will be given. A round
-- deletes the rows it pairs; a node deletes its connection's row when the connection leaves
-- the pool or closes, and a dead node's rows are deleted with it.
CREATE TABLE seeks (
    node TEXT NOT NULL,
    conn BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    variant TEXT NOT NULL,
    clock TEXT NOT NULL,
    account_id BIGINT,
    account_name TEXT,
    address TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    joined_ms BIGINT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (node, conn)
);
CREATE INDEX seeks_account ON seeks (account_id);

-- online: each connection logged in to an account, on the node that holds it (a challenge
-- finds its account here). Deleted when the connection closes, or with its dead node.
CREATE TABLE online (
    node TEXT NOT NULL,
    conn BIGINT NOT NULL,
    account_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    PRIMARY KEY (node, conn)
);
CREATE INDEX online_name ON online (name_key);

-- challenges: each challenge waiting for its answer, held by the challenger's node on the
-- challenger's connection conn there (an answer given on another node is passed to it).
-- Deleted once answered, when that connection closes, or with its dead node.
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    conn BIGINT NOT NULL,
    from_account BIGINT NOT NULL,
    to_account BIGINT NOT NULL
);
CREATE INDEX challenges_from ON challenges (from_account);
CREATE INDEX challenges_conn ON challenges (node, conn);

-- pairing_rounds: the number of the last pairing round run (the database's clock divided by
-- the round's period). The node that moves it on runs that round; the others skip it.
CREATE TABLE pairing_rounds (
    id BIGINT PRIMARY KEY,
    last_round BIGINT NOT NULL
);
INSERT INTO pairing_rounds (id, last_round) VALUES (1, 0);
