-- Schema 8: the servers' tournaments (storage.TournamentStore). A
-- tournament's record is the JSON of storage.Tournament, its guild,
-- status and version copied to columns for the listings and the cap on a
-- server's tournaments at once. tournament_players lists each entrant,
-- for a player's tournaments; tournament_games each board's game, for
-- the result of a game that ends. A game is created with its round, in
-- the same transaction. (IF NOT EXISTS: a test rolls a database back to
-- an older schema by its migrations' rows alone.)

CREATE SEQUENCE IF NOT EXISTS tournament_seq;

CREATE TABLE IF NOT EXISTS tournaments (
    id       text COLLATE "C" PRIMARY KEY,
    guild_id text COLLATE "C" NOT NULL,
    status   text NOT NULL,
    version  bigint NOT NULL CHECK (version > 0),
    record   jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_guild ON tournaments (guild_id, id);
CREATE INDEX IF NOT EXISTS tournaments_open ON tournaments (id) WHERE status IN ('announced', 'running', 'paused');

CREATE TABLE IF NOT EXISTS tournament_players (
    player        text COLLATE "C" NOT NULL,
    tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    PRIMARY KEY (player, tournament_id)
);

CREATE TABLE IF NOT EXISTS tournament_games (
    game_id       text COLLATE "C" PRIMARY KEY,
    tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE
);
