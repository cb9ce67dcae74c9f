"""Request and response bodies of the API, separate from the core's types.

Hand records are not modelled here: the core parses them strictly (``HandRecord.from_json``)
so that a refusal names the side and the field exactly as ``borne score`` does.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

GoalKm = Literal[700, 1000]


class GameCreate(BaseModel):
    """A new game: either its ``sides`` by name, or its ``players`` (grouped into sides by the rules' defaults)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"sides": ["A", "B"], "rules": "classic", "target": 5000},
                {"players": ["Ana", "Ben", "Cleo", "Dev"], "draw_teams": True, "rules": "classic", "name": "Friday"},
            ]
        },
    )

    sides: list[str] | None = Field(
        None, min_length=2, max_length=8,
        description="The sides' names in seating order. Without a goal, each hand is played to its own goal.",
    )
    players: list[str] | None = Field(
        None, min_length=2, max_length=16,
        description="The players; sides, goal and extension follow RULES.md for their number unless given.",
    )
    teams: list[list[str]] | None = Field(None, description="With players: the partners of each side.")
    team_size: int | None = Field(None, ge=1, le=8, description="With players: players per side (default: 2 for 4, 6 or 8 players).")
    draw_teams: bool = Field(False, description="With players: draw the teams at random.")
    seed: int | None = Field(None, description="With draw_teams: makes the draw reproducible.")
    rules: str = Field("classic", description="A rule set of GET /api/rules.")
    target: int | None = Field(None, ge=1, le=1_000_000, description="Points (hand wins for a race) that win; default from the rules.")
    goal: GoalKm | None = Field(None, description="700 or 1000 km for every hand.")
    extension: bool | None = Field(None, description="A 700-km game where the first side at 700 may call the extension.")
    name: str = Field("", max_length=80, description="An optional title.")

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: str) -> str:
        # like a side's name: no NUL, no escape sequences, no right-to-left override turning a title around
        if not name.isprintable():
            raise ValueError("a title cannot hold control characters")
        return name

    @model_validator(mode="after")
    def _sides_or_players(self) -> GameCreate:
        if (self.sides is None) == (self.players is None):
            raise ValueError("give either sides or players")
        if self.sides is not None and (self.teams is not None or self.team_size is not None or self.draw_teams):
            raise ValueError("teams, team_size and draw_teams go with players, not sides")
        return self


class GameCreated(BaseModel):
    id: int
    revision: int
    sides: list[str]


class SideOut(BaseModel):
    name: str
    players: list[str]


class HandOut(BaseModel):
    number: int = Field(description="1-based hand number.")
    record: dict[str, Any] = Field(description="The hand's facts (CONTRACT.md §1).")
    score: dict[str, Any] = Field(description="Per side the nine line items and the hand total, and the hand's winner.")
    points: dict[str, int] = Field(description="What the hand adds to each side's total.")
    totals: dict[str, int] = Field(description="Running totals after this hand.")


class GameOut(BaseModel):
    """A game as ``GET /api/games/{id}`` returns it."""

    id: int
    revision: int = Field(description="Raised by every change; send it back as If-Match to refuse stale edits.")
    created_at: str
    name: str
    sides: list[SideOut]
    rules: str
    target: int
    goal: int | None
    extension: bool
    counting: str
    hands: list[HandOut]
    totals: dict[str, int]
    winner: str | None
    finished_after_hand: int | None


class HandScored(HandOut):
    """A hand just stored, with where the game now stands."""

    game_id: int
    revision: int
    game_totals: dict[str, int]
    game_winner: str | None
    finished_after_hand: int | None


class GameSummary(BaseModel):
    id: int
    revision: int
    created_at: str
    name: str
    sides: list[str]
    rules: str
    target: int
    hands: int
    totals: dict[str, int]
    winner: str | None


class SetupPreview(BaseModel):
    """The set-up the core makes from a list of players (sides, goal, extension), before the game exists."""

    sides: list[SideOut]
    rules: str
    target: int
    goal: int | None
    extension: bool


class RuleSetOut(BaseModel):
    name: str
    description: str
    default_target: int
    goals: list[int]
    counting: str
    values: dict[str, int]


class ChangeOut(BaseModel):
    id: int
    at: str
    author: str
    action: str
    hand: int | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    undoes: int | None
    undone: bool


class ErrorOut(BaseModel):
    detail: Any
    message: str


# -- the camera (``/api/camera``) ---------------------------------------------------------------


class CameraStatusOut(BaseModel):
    """``GET /api/camera``: the camera panel's status (CONTRACT.md §9)."""

    model_config = ConfigDict(extra="forbid")
    source: str | None = Field(description="What the pipeline reads (a URL with its token hidden); null without a camera")
    connected: bool
    message: str
    frames: int
    frames_per_second: float
    corrupt_frames: int
    reconnects: int
    too_small: bool = Field(description="Cards are too small in the picture to be read reliably")
    card_px: float | None
    ended: bool = Field(description="The source ended (a file played to its end)")
    agent: dict[str, Any] | None = Field(None, description="A Borne camera agent's own status (only for one)")
    camera: bool = Field(description="Whether the display follows a camera (`borne run`)")
    has_frame: bool
    can_choose: bool | None = Field(None, description="Another Borne camera can be chosen (only then)")


class FoundCameraOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    host: str
    port: int
    url: str


class FoundCamerasOut(BaseModel):
    """``GET /api/camera/cameras``."""

    model_config = ConfigDict(extra="forbid")
    current: str
    cameras: list[FoundCameraOut]


class FrameSizeOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width: int
    height: int


class ZonesOut(BaseModel):
    """``GET /api/camera/layout``: the table's zones in use and where they came from."""

    model_config = ConfigDict(extra="forbid")
    layout: dict[str, Any] = Field(description="The layout in use (CONTRACT.md §4)")
    origin: Literal["saved", "file", "camera", "default", "found"] = Field(
        description="found: Borne found the sides from the table, proposed until a person confirms (saves) them")
    table: str
    sides: list[str]
    frame_size: FrameSizeOut | None
    default: dict[str, Any] | None
    saved: bool
    finding: bool = Field(False, description="The sides are being found from the table as the hand starts "
                                             "(the default zones are shown meanwhile)")


class NoHandOut(BaseModel):
    """``{}``: the camera follows no hand."""

    model_config = ConfigDict(extra="forbid")
