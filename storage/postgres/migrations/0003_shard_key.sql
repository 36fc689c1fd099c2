-- Schema 3: the games' shard key, so that a process lists the due games of
-- its own gateway shards in SQL (storage.Shards) instead of reading every
-- shard's and dropping the others'. Discord sends a guild's events to
-- shard (guild_id >> 22) % shard_count; shard_key is guild_id >> 22, NULL
-- for a game without a guild or whose guild id is not a snowflake (shard
-- 0), and the query takes it modulo the bot's shard count. No index: the
-- due games are those whose deadline passed since the last tick, which
-- games_deadline finds, and the filter drops the other shards' among them
-- before their records leave the server.

ALTER TABLE games ADD COLUMN shard_key bigint;
UPDATE games SET shard_key = div((record->>'guild_id')::numeric, 4194304)::bigint
    WHERE record->>'guild_id' ~ '^[0-9]{1,20}$'
      AND (record->>'guild_id')::numeric <= 18446744073709551615;
