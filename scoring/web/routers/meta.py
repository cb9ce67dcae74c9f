"""What the pages need besides games: rule sets, the set-up the core proposes, the interface strings."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from scoring.game import GameSetup
from scoring.rules import RULE_SETS, RuleSet
from scoring.web.deps import Language
from scoring.web.i18n import LANGUAGES, load_strings
from scoring.web.routers.games import preview
from scoring.web.schemas import RuleSetOut, SetupPreview

router = APIRouter(prefix="/api", tags=["set-up"])

VALUE_NAMES = ("distance_per_km", "safety", "all_safeties", "coup_fourre", "trip", "delayed_action", "safe_trip",
               "shut_out", "extension")


@router.get("/rules", response_model=list[RuleSetOut], summary="The rule sets, with what each counts")
def rules() -> list[RuleSetOut]:
    return [
        RuleSetOut(name=r.name, description=r.description, default_target=r.default_target, goals=list(r.goals),
                   counting=r.counting.value, values={v: getattr(r, v) for v in VALUE_NAMES})
        for r in RULE_SETS.values()
    ]


@router.get("/setup", response_model=SetupPreview,
            summary="The sides, goal and extension the rules give a list of players (draws teams if asked)")
def setup_preview(
    players: Annotated[list[str], Query(min_length=2, max_length=16)],
    rules: str = "classic",
    team_size: Annotated[int | None, Query(ge=1, le=8)] = None,
    draw_teams: bool = False,
    seed: int | None = None,
) -> SetupPreview:
    setup = GameSetup.for_players(players, rules=RuleSet.from_name(rules), team_size=team_size,
                                  draw_teams=draw_teams, seed=seed)
    return preview(setup)


@router.get("/strings", summary="The interface strings of a language (English where a translation lacks one)")
def strings(language: Language) -> dict[str, Any]:
    return load_strings(language)


@router.get("/languages", summary="The languages the display speaks, each named in its own words")
def languages() -> dict[str, str]:
    return dict(LANGUAGES)
