"""The hub's API: the tables and their games (CONTRACT §11), the board, tournaments and rounds, exports."""

from __future__ import annotations

import asyncio
import csv
import dataclasses
import io
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from scoring.club.pages import Accept, Lang, page_language
from scoring.club.seating import draw_seating, seeded_seating
from scoring.web.i18n import load_strings
from scoring.web.sheet import game_sheet_pdf

router = APIRouter(prefix="/api/club", tags=["club"])

LATEST_HANDS = 20
"""Hands the board lists as they are scored."""


def _store(request: Request) -> Any:
    return request.app.state.store


Store = Annotated[Any, Depends(_store)]


def plain(value: Any) -> Any:
    """Dataclasses (the store's summaries) as JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def listed(values: Any) -> list[dict[str, Any]]:
    """The store's rows as JSON objects."""
    return [plain(v) for v in values]


def _not_found(e: ValueError) -> HTTPException:
    return HTTPException(status_code=404, detail=str(e))


@router.get("/tables", summary="Every table of the club: online or not, its current game and its sides' totals")
async def tables(store: Store) -> list[dict[str, Any]]:
    """``name``, ``online``, ``game_id`` (the current game's id at the hub, as ``/tables/NAME/games`` gives it;
    also as ``game``), ``table_game`` (its id at the table), ``totals``, ``hands``, ``winner``, ``last_seen``."""
    return [{**row, "game_id": row["game"]} for row in listed(await asyncio.to_thread(store.tables))]


@router.get("/tables/{name}/games", summary="A table's games in the §3 game form, with their hands")
async def table_games(name: str, store: Store) -> list[dict[str, Any]]:
    """Oldest first: ``sides`` (names), ``hands`` (§1 records), ``totals_after_each_hand``, ``totals``, ``winner``,
    ``finished_after_hand`` as ``borne game`` prints them; beside them the hub's ``id``, the ``table_game`` (its id
    at the table), ``rules``, ``target``, ``players`` per side and ``hand_points`` (each hand's points per side)."""
    from scoring.club.errors import TableNotFoundError

    try:
        return [game_form(g) for g in listed(await asyncio.to_thread(store.table_games, name))]
    except TableNotFoundError as e:
        raise _not_found(e) from None


def game_form(document: dict[str, Any]) -> dict[str, Any]:
    """A stored game's document (``GET /api/games/{id}``'s form) in CONTRACT §3's game form."""
    hands = document["hands"]
    return {"id": document["id"], "table": document.get("table"), "table_game": document.get("table_game"),
            "name": document.get("name", ""), "created_at": document.get("created_at"),
            "sides": [s["name"] for s in document["sides"]],
            "players": {s["name"]: list(s.get("players", [])) for s in document["sides"]},
            "rules": document["rules"], "target": document["target"], "goal": document.get("goal"),
            "hands": [h["record"] for h in hands], "hand_points": [h["points"] for h in hands],
            "totals_after_each_hand": [h["totals"] for h in hands], "totals": document["totals"],
            "winner": document["winner"], "finished_after_hand": document["finished_after_hand"]}


@router.get("/board", summary="Everything the board shows, in one answer")
async def board(request: Request, store: Store) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        return {"club": request.app.state.club, "tables": plain(store.tables()), "standings": plain(store.standings()),
                "latest": plain(store.latest_hands(LATEST_HANDS))}

    answer = await asyncio.to_thread(read)
    listener = request.app.state.listener
    answer["live"] = dict(listener.live) if listener is not None else {}
    answer["broker"] = listener is not None and listener.connected.is_set()
    return answer


@router.get("/standings", summary="The club's standings across every table's games")
async def standings(store: Store) -> list[dict[str, Any]]:
    return listed(await asyncio.to_thread(store.standings))


class TournamentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=80)


class RoundIn(BaseModel):
    """A round's seating: drawn at random from ``players``, or seeded from the standings (strongest together)."""

    model_config = ConfigDict(extra="forbid")
    players: list[Annotated[str, Field(min_length=1, max_length=60)]] = Field(min_length=2, max_length=400)
    per_table: int = Field(default=2, ge=2, le=6, description="Sides (or players) at each table.")
    method: Literal["drawn", "seeded"] = "drawn"
    seed: int | None = Field(default=None, description="The draw's seed, to draw the same seating again.")


@router.get("/tournaments", summary="Every tournament, newest first")
async def tournaments(store: Store) -> list[dict[str, Any]]:
    return listed(await asyncio.to_thread(store.tournaments))


@router.post("/tournaments", status_code=201, summary="Start a tournament (the club's token)")
async def create_tournament(body: TournamentIn, store: Store) -> dict[str, Any]:
    return {"id": await asyncio.to_thread(store.create_tournament, body.name)}


@router.post("/tournaments/{tournament_id}/rounds", status_code=201,
             summary="Seat the next round, drawn or seeded from the standings (the club's token)")
async def add_round(tournament_id: int, body: RoundIn, store: Store) -> dict[str, Any]:
    if len(set(body.players)) != len(body.players):
        raise HTTPException(status_code=422, detail="players: a name is listed twice")

    def seat() -> dict[str, Any]:
        if body.method == "seeded":
            seating = seeded_seating(store.standings(), body.per_table, players=body.players)
        else:
            seating = draw_seating(body.players, body.per_table, body.seed)
        number = store.add_round(tournament_id, seating, drawn=body.method == "drawn")
        return {"round": number, "seating": seating}

    from scoring.club.errors import SeatingError, TournamentNotFoundError

    try:
        return await asyncio.to_thread(seat)
    except TournamentNotFoundError as e:
        raise _not_found(e) from None
    except SeatingError as e:
        raise HTTPException(status_code=422, detail=str(e)) from None


@router.get("/tournaments/{tournament_id}", summary="A tournament and its rounds' seating")
async def tournament(tournament_id: int, store: Store) -> dict[str, Any]:
    from scoring.club.errors import TournamentNotFoundError

    try:
        rounds = plain(await asyncio.to_thread(store.rounds, tournament_id))
    except TournamentNotFoundError as e:
        raise _not_found(e) from None
    return {"id": tournament_id, "rounds": rounds}


@router.get("/export.json", summary="Every table's games, as one JSON document")
async def export_json(request: Request, store: Store) -> Response:
    def everything() -> dict[str, Any]:
        names = [t["name"] for t in plain(store.tables())]
        return {"club": request.app.state.club, "tables": {n: [game_form(g) for g in listed(store.table_games(n))]
                                                           for n in names}}

    body = json.dumps(await asyncio.to_thread(everything), ensure_ascii=False, indent=1)
    return Response(body, media_type="application/json",
                    headers={"Content-Disposition": 'attachment; filename="borne-club.json"'})


@router.get("/export.csv", summary="One row per hand and side of every table's games")
async def export_csv(store: Store) -> Response:
    from scoring.storage import csv_text

    def rows() -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["table", "game", "hand", "side", "points", "total"])
        for table in plain(store.tables()):
            for game in plain(store.table_games(table["name"])):
                for hand in game["hands"]:
                    for side, points in hand["points"].items():
                        writer.writerow([table["name"], game["id"], hand["number"], csv_text(side), points,
                                         hand["totals"][side]])
        return out.getvalue()

    return Response(await asyncio.to_thread(rows), media_type="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="borne-club.csv"'})


@router.get("/tables/{name}/games/{game_id}/sheet.pdf", response_class=Response,
            summary="One of a table's games as a printable score sheet")
async def sheet(name: str, game_id: int, store: Store, lang: Lang = None, accept_language: Accept = None) -> Response:
    from scoring.club.errors import TableNotFoundError

    try:
        games = plain(await asyncio.to_thread(store.table_games, name))
    except TableNotFoundError as e:
        raise _not_found(e) from None
    game = next((g for g in games if g["id"] == game_id), None)
    if game is None:
        raise HTTPException(status_code=404, detail=f"table {name} has no game {game_id}")
    pdf = await asyncio.to_thread(game_sheet_pdf, game, load_strings(page_language(lang, accept_language)))
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="borne-{name}-game-{game_id}.pdf"'})
