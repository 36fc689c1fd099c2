-- Schema 2: expiring claims (storage.Store.Claim), by which processes
-- sharing the database split work such as AI turns and gateway shards.
-- An expired row is free to take; rows are replaced, never accumulated
-- beyond one per key.

CREATE TABLE claims (
    key        text COLLATE "C" PRIMARY KEY,
    owner      text NOT NULL,
    expires_at timestamptz NOT NULL
);
