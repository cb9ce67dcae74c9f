-- Games, their hands and their audit trail: the same tables as a table's SQLite file (scoring/storage.py).
CREATE TABLE games (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at timestamptz NOT NULL,
    setup jsonb NOT NULL,
    revision integer NOT NULL DEFAULT 0
);

CREATE TABLE hands (
    game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    position integer NOT NULL CHECK (position >= 1),
    record jsonb NOT NULL,
    scored_at timestamptz NOT NULL,  -- when this hand's record was first stored as it is
    PRIMARY KEY (game_id, position)
);

CREATE TABLE changes (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at timestamptz NOT NULL,
    author text NOT NULL,
    action text NOT NULL,
    hand_number integer,
    before jsonb,
    after jsonb,
    undoes bigint REFERENCES changes (id),
    undone boolean NOT NULL DEFAULT false
);

CREATE INDEX changes_by_game ON changes (game_id, id);
CREATE INDEX hands_by_time ON hands (scored_at DESC);
