-- Schema 4: users' own settings (storage.Store.UserSettings), such as how
-- boards are shown to them; DeleteUser removes a user's row. Guild
-- settings gain the board form in their JSON record, which needs no
-- change here.

CREATE TABLE users (
    user_id text COLLATE "C" PRIMARY KEY,
    record  jsonb NOT NULL
);
