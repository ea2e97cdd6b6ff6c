-- Direct links between nodes (see `cluster/link.rs` in the server crate): where a node takes
-- the links the other nodes open to it (host:port), and the key they prove they know (only
-- who can read this table can). Empty until the node listens, and on older nodes: messages
-- to such a node go through NOTIFY.
ALTER TABLE nodes ADD COLUMN link_addr TEXT;
ALTER TABLE nodes ADD COLUMN link_key TEXT;
