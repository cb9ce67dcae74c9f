"""The live hand: the document the camera's lifecycle hands the display, typed from end to end.

``vision``'s pipeline builds a :class:`LiveHand` (``Pipeline.live_hand``), ``borne run`` adds the game it
goes to, :func:`scoring.web.camera.scored_hand_document` scores its pending hand into a
:class:`LiveHandScored`, and ``GET /api/camera/hand`` answers with that. Every model refuses unknown
fields, so a field renamed on one side fails at the boundary instead of vanishing on the page.

>>> hand = LiveHand(hand=1, phase="in_play", goal=700, sides=[LiveSide(side="A"), LiveSide(side="B")])
>>> hand.sides[0].distance["200"], hand.pending is None
(0, True)
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Phase = Literal["waiting", "in_play", "finished"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _no_distance() -> dict[str, int]:
    return {"25": 0, "50": 0, "75": 0, "100": 0, "200": 0}


class LiveSide(_Strict):
    """One side as the tracker believes it now."""

    side: str
    distance: dict[str, int] = Field(default_factory=_no_distance, description="Distance cards by value (km): count")
    safeties: dict[str, str] = Field(default_factory=dict, description="Safety card id: `played` or `coup_fourre`")
    km: int = Field(0, description="The distance travelled")
    confidence: float = Field(1.0, ge=0.0, le=1.0, description="How sure the tracker is of this side's counts")


class LiveFlag(_Strict):
    """Evidence the tracker did not apply: a person should look."""

    frame: int
    side: str | None = Field(description="The side the evidence is about; null for the whole table")
    card: str | None
    reason: str
    message: str
    picture: str | None = Field(None, description="The address of a small JPEG of the frame the flag names, the card "
                                                   "outlined (GET /api/camera/flags/{id}.jpg); null when none was kept")


class LivePlay(_Strict):
    """A card the tracker counted."""

    frame: int
    side: str
    card: str
    sideways: bool
    time: float = Field(description="Seconds since the source started")


class PendingHandOut(_Strict):
    """The hand that ended, waiting for a person (or the next cleared table) to make it final."""

    number: int
    record: dict[str, Any] = Field(description="The hand record (CONTRACT.md §1)")
    termination: Literal["trip_completed", "play_stopped", "table_cleared", "source_ended"]
    corrected: bool


class HeldHandOut(PendingHandOut):
    """A hand the table was cleared after while it had open flags (or waited behind one): it waits for a
    person to confirm or correct it, and is not in the game until then."""

    flags: list[LiveFlag] = Field(default_factory=list)


class LiveHand(_Strict):
    """The hand in progress, as the camera's lifecycle reports it."""

    hand: int = Field(description="1 for the first hand the camera followed, then 2, …")
    phase: Phase
    goal: int
    extension_called_by: str | None = None
    draw_pile: bool | None = None
    sides: list[LiveSide]
    flags: list[LiveFlag] = Field(default_factory=list)
    events: list[LivePlay] = Field(default_factory=list, description="The latest plays, oldest first")
    plays: int = 0
    pending: PendingHandOut | None = None
    held: list[HeldHandOut] = Field(default_factory=list, description="Hands waiting for a person, oldest first: "
                                    "confirm and correct go to the first")
    game_id: int | None = Field(None, description="The game the hand goes to (borne run sets it)")


class PendingHandScored(PendingHandOut):
    """The pending hand with its score by the rules of its game."""

    score: dict[str, Any] | None = Field(None, description="As POST /api/score answers; null when it cannot be scored")
    ask_extension: str | None = Field(None, description="In a 700-km hand, the side whose extension call to confirm")
    problem: str | None = Field(None, description="Why the record cannot be scored (only then)")


class LiveHandScored(LiveHand):
    """``GET /api/camera/hand``: the live hand with the pending hand scored by the core."""

    pending: PendingHandScored | None = None
