-- Tournaments and their rounds: who sits at which table, drawn at random or seeded from the standings.
CREATE TABLE tournaments (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE rounds (
    tournament_id bigint NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number integer NOT NULL CHECK (number >= 1),
    seating jsonb NOT NULL,         -- [[side, side, …], …]: one list of names per table
    drawn boolean NOT NULL,         -- drawn at random; false: seeded from the standings
    created_at timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, number)
);
