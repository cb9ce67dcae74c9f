"""The club database's schema, as numbered SQL files applied in order (see :mod:`scoring.club.migrate`)."""
