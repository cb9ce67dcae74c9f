"""The failures of the club's storage, one class per kind, all ``ValueError`` (through :class:`BorneError`)."""

from __future__ import annotations

from scoring.errors import BorneError


class ClubError(BorneError):
    """Base class of the club hub's storage errors."""


class BadEventError(ClubError):
    """A table's event whose game document cannot be read as a game; nothing of it was stored."""


class TableNotFoundError(ClubError):
    """A table name the club has never heard from."""


class TournamentNotFoundError(ClubError):
    """A tournament id the club does not have."""


class SeatingError(ClubError):
    """Seating that cannot be played: a name twice, a table of fewer than two, too few players."""


class ClubDatabaseError(ClubError):
    """The club's database cannot be used: not a ``postgresql://`` URL, unreachable, or written by a newer Borne."""


class ForeignOriginError(BadEventError):
    """A table's events come from another games file than before (its SQLite replaced): refused, not merged."""
