-- Schema 1 of Gambit on PostgreSQL: the data model of storage/bolt's
-- schema 2 (duels and solo puzzles).
--
-- A game's record is the JSON of storage.Game, exactly as storage/bolt
-- stores it; the columns beside it copy what the queries select on, and
-- `gambit db check` verifies that they agree with the record. Text that
-- sorts (ids, player ids) uses the "C" collation, so that the order is
-- bytewise as in bbolt and does not depend on the server's locale.

CREATE SEQUENCE game_seq;

CREATE TABLE games (
    id          text COLLATE "C" PRIMARY KEY,
    version     bigint NOT NULL CHECK (version > 0),
    status      text NOT NULL,
    -- active with an AI strategy to move
    awaiting_ai boolean NOT NULL,
    -- the deadline in Unix nanoseconds, for open games that have one
    deadline_ns bigint,
    record      jsonb NOT NULL
);
CREATE INDEX games_open ON games (id) WHERE status IN ('pending', 'active');
CREATE INDEX games_awaiting_ai ON games (id) WHERE awaiting_ai;
CREATE INDEX games_deadline ON games (deadline_ns, id) WHERE deadline_ns IS NOT NULL;

-- The players' lists: each non-anonymous player of an open game is on its
-- 'open' list, of an ended (finished, forfeited, abandoned) game on its
-- 'history' list; solved names the kind of a solved solo puzzle.
CREATE TABLE game_players (
    player  text COLLATE "C" NOT NULL,
    list    text NOT NULL CHECK (list IN ('open', 'history')),
    game_id text COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    solved  text COLLATE "C",
    PRIMARY KEY (player, list, game_id)
);
CREATE INDEX game_players_game ON game_players (game_id);
CREATE INDEX game_players_solved ON game_players (player, solved, game_id) WHERE solved IS NOT NULL;

-- Ratings by ladder ("connect4", "connect4/<guild id>"); established is
-- false for a provisional rating, which no leaderboard shows.
CREATE TABLE ratings (
    ladder      text COLLATE "C" NOT NULL,
    player      text COLLATE "C" NOT NULL,
    rating      double precision NOT NULL,
    established boolean NOT NULL,
    record      jsonb NOT NULL,
    PRIMARY KEY (ladder, player)
);
CREATE INDEX ratings_rank ON ratings (ladder, rating DESC, player) WHERE established;
CREATE INDEX ratings_player ON ratings (player);

CREATE TABLE guilds (
    guild_id text COLLATE "C" PRIMARY KEY,
    record   jsonb NOT NULL
);
