-- Schema 6: ended duels' reviews (storage.Store.Review), kept so that a
-- game is reviewed once: the JSON of storage.Review, made from the game's
-- version beside it. A game's review goes with the game.

CREATE TABLE reviews (
    game_id text COLLATE "C" PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version bigint NOT NULL CHECK (version > 0),
    record  jsonb NOT NULL
);
