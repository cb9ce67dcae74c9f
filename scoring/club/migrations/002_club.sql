-- The tables of the club, the events applied from each (once), and which hub game mirrors which table game.
CREATE TABLE club_tables (
    name text PRIMARY KEY,
    online boolean NOT NULL,
    first_seen timestamptz NOT NULL,
    last_seen timestamptz NOT NULL
);

CREATE TABLE applied_events (
    table_name text NOT NULL REFERENCES club_tables (name) ON DELETE CASCADE,
    seq integer NOT NULL CHECK (seq >= 1),
    kind text NOT NULL,
    table_game integer NOT NULL,
    revision integer NOT NULL,
    at text NOT NULL,               -- the table's clock, as the event says it
    applied_at timestamptz NOT NULL,
    changed boolean NOT NULL,       -- false for an older revision that arrived late
    PRIMARY KEY (table_name, seq)
);

CREATE TABLE table_games (
    table_name text NOT NULL REFERENCES club_tables (name) ON DELETE CASCADE,
    table_game integer NOT NULL,    -- the game's id in the table's own SQLite file
    game_id bigint NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    revision integer NOT NULL,      -- the table's revision of the game last applied (-1: none yet)
    PRIMARY KEY (table_name, table_game)
);
