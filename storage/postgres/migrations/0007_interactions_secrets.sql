-- Schema 7: the interactions acted on, each until it expires, so that an
-- interaction delivered twice — to another process, after a restart, or
-- by a proxy that retried — acts once; and the install's secrets, such as
-- the key that daily puzzles are chosen by, created at first start.

CREATE TABLE interactions (
    id         text COLLATE "C" PRIMARY KEY,
    expires_at timestamptz NOT NULL
);

CREATE INDEX interactions_expiry ON interactions (expires_at);

CREATE TABLE secrets (
    name  text COLLATE "C" PRIMARY KEY,
    value bytea NOT NULL
);
