-- Schema 5: the servers' daily puzzles (storage.DailyStore). An attempt is
-- one member's play of one server's puzzle of one day, its record the
-- JSON of storage.DailyAttempt, with the status copied to a column for
-- the index of solves that streaks are counted from. A posted puzzle is a
-- row of daily_posts, inserted once per server and day. Guild settings
-- gain the daily channel in their JSON record, which needs no change here.

CREATE TABLE daily_attempts (
    guild_id text COLLATE "C" NOT NULL,
    day      text COLLATE "C" NOT NULL,
    player   text COLLATE "C" NOT NULL,
    status   text NOT NULL,
    record   jsonb NOT NULL,
    PRIMARY KEY (guild_id, day, player)
);
CREATE INDEX daily_attempts_solved ON daily_attempts (guild_id, player, day) WHERE status = 'solved';
CREATE INDEX daily_attempts_player ON daily_attempts (player);

CREATE TABLE daily_posts (
    guild_id text COLLATE "C" NOT NULL,
    day      text COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, day)
);
