"""Games: create, list, read, undo, history and export."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Response
from fastapi.responses import PlainTextResponse

from scoring.errors import SetupError
from scoring.game import GameSetup, Side
from scoring.hand import parse_side_name
from scoring.rules import RuleSet
from scoring.storage import StoredGame, game_document
from scoring.web.deps import Author, Events, ExpectedRevision, GameId, Store, Writer
from scoring.web.events import GameEvent
from scoring.web.i18n import LANGUAGES, choose_language, load_strings
from scoring.web.schemas import ChangeOut, ErrorOut, GameCreate, GameCreated, GameOut, GameSummary, SetupPreview

router = APIRouter(prefix="/api/games", tags=["games"])

WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "No token"},
    403: {"model": ErrorOut, "description": "Wrong token"},
    404: {"model": ErrorOut, "description": "No such game or hand"},
    409: {"model": ErrorOut, "description": "Stale revision, or the game is already won"},
    422: {"model": ErrorOut, "description": "Invalid body; names the offending field"},
}

LIST_LIMIT = 100


def setup_from(body: GameCreate) -> GameSetup:
    """The core's set-up for a request (the core applies RULES.md's defaults and checks it).

    :raises SetupError, UnknownRulesError, MalformedHandError: naming what is wrong.
    """
    rules = RuleSet.from_name(body.rules)
    if body.players is not None:
        return GameSetup.for_players(
            body.players, rules=rules, teams=body.teams, team_size=body.team_size, draw_teams=body.draw_teams,
            seed=body.seed, target=body.target, goal=body.goal, extension=body.extension, name=body.name.strip(),
        )
    assert body.sides is not None
    names = [parse_side_name(s, field=f"sides[{i}]") for i, s in enumerate(body.sides)]
    return GameSetup(
        sides=tuple(Side(name=n) for n in names),
        rules=rules,
        target=rules.default_target if body.target is None else body.target,
        goal=body.goal,
        extension=bool(body.extension),
        name=body.name.strip(),
    )


def publish(events: Events, kind: str, stored: StoredGame, hand: int | None = None) -> dict[str, Any]:
    """Tell every open page about a change; returns the game document sent."""
    document = game_document(stored)
    events.publish(GameEvent(kind=kind, game_id=stored.id, revision=stored.revision, game=document, hand=hand))
    return document


def etag(response: Response, revision: int) -> None:
    response.headers["ETag"] = f'"{revision}"'


@router.post("", status_code=200, response_model=GameCreated, dependencies=[Writer], responses=WRITE_ERRORS,
             summary="Start a game")
def create_game(body: GameCreate, store: Store, events: Events, author: Author, response: Response) -> GameCreated:
    try:
        setup = setup_from(body)
    except SetupError as e:  # name the field the client sent: players or sides
        field = "players" if body.players is not None else "sides"
        raise HTTPException(422, [{"loc": ["body", field], "msg": str(e), "type": "setup", "field": field}]) from None
    stored = store.create_game(setup, author=author)
    publish(events, "created", stored)
    etag(response, stored.revision)
    response.headers["Location"] = f"/api/games/{stored.id}"
    return GameCreated(id=stored.id, revision=stored.revision, sides=list(stored.game.setup.side_names))


@router.get("", response_model=list[GameSummary], summary="Games, newest first")
def list_games(store: Store) -> list[GameSummary]:
    out = []
    for game_id in store.game_ids()[:LIST_LIMIT]:
        stored = store.load(game_id)
        game = stored.game
        out.append(GameSummary(
            id=stored.id, revision=stored.revision, created_at=stored.created_at, name=game.setup.name,
            sides=list(game.setup.side_names), rules=game.setup.rules.name, target=game.setup.target,
            hands=len(game.hands), totals=game.totals(), winner=game.outcome().winner,
        ))
    return out


@router.get("/{game_id}", response_model=GameOut, responses={404: {"model": ErrorOut}},
            summary="A game: set-up, every hand with its facts and items, totals, winner")
def get_game(game_id: GameId, store: Store, response: Response) -> dict[str, Any]:
    stored = store.load(game_id)
    etag(response, stored.revision)
    return game_document(stored)


@router.post("/{game_id}/undo", response_model=GameOut, dependencies=[Writer], responses=WRITE_ERRORS,
             summary="Take back the last change to the hands")
def undo(game_id: GameId, store: Store, events: Events, author: Author, revision: ExpectedRevision,
         response: Response) -> dict[str, Any]:
    stored = store.undo(game_id, author=author, expected_revision=revision)
    etag(response, stored.revision)
    last = store.history(game_id)[-1]
    return publish(events, "undo", stored, last.hand_number)


@router.get("/{game_id}/history", response_model=list[ChangeOut], responses={404: {"model": ErrorOut}},
            summary="Every change to the game, oldest first")
def history(game_id: GameId, store: Store) -> list[dict[str, Any]]:
    return [c.to_json() for c in store.history(game_id)]


@router.get("/{game_id}/export.json", responses={404: {"model": ErrorOut}}, summary="The game with its history, as a file")
def export_json(game_id: GameId, store: Store) -> Response:
    import json

    body = json.dumps(store.export_json(game_id), indent=2, ensure_ascii=False)
    return Response(body, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="borne-game-{game_id}.json"'})


@router.get("/{game_id}/export.csv", response_class=PlainTextResponse, responses={404: {"model": ErrorOut}},
            summary="One row per hand and side")
def export_csv(
    game_id: GameId, store: Store,
    lang: Annotated[str | None, Query(max_length=16, description="Column headings in this language "
                                      f"({', '.join(LANGUAGES)}); without it, by id.")] = None,
) -> Response:
    headings = None
    if lang:
        strings = load_strings(choose_language([lang]))
        headings = {**strings["items"], **strings["export"]}
    return Response(store.export_csv(game_id, headings=headings), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="borne-game-{game_id}.csv"'})


def preview(setup: GameSetup) -> SetupPreview:
    data = setup.to_json()
    return SetupPreview(sides=data["sides"], rules=data["rules"], target=data["target"], goal=data["goal"],
                        extension=data["extension"])
