"""Hands of a game: add, replace, delete. The core parses, checks and scores; these routes only translate."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Response

from scoring.hand import HandRecord
from scoring.storage import StoredGame, game_document
from scoring.web.deps import Author, Events, ExpectedRevision, GameId, HandNumber, Store, Writer
from scoring.web.routers.games import WRITE_ERRORS, etag, publish
from scoring.web.schemas import GameOut, HandScored

router = APIRouter(prefix="/api/games/{game_id}/hands", tags=["hands"])

HAND_EXAMPLE = {
    "goal": 1000,
    "draw_pile_empty_at_finish": True,
    "extension_called_by": None,
    "sides": [
        {"side": "A", "distance": {"25": 0, "50": 1, "75": 2, "100": 6, "200": 1},
         "safeties": {"puncture_proof": "coup_fourre", "driving_ace": "played"}},
        {"side": "B", "distance": {"100": 4, "75": 1, "50": 2}, "safeties": {"extra_tank": "played"}},
    ],
}

HandBody = Body(description="A hand record (CONTRACT.md §1), sides named as in the game.", examples=[HAND_EXAMPLE])


def scored(stored: StoredGame, number: int) -> HandScored:
    document = game_document(stored)
    hand = document["hands"][number - 1]
    return HandScored(
        **hand, game_id=stored.id, revision=stored.revision, game_totals=document["totals"],
        game_winner=document["winner"], finished_after_hand=document["finished_after_hand"],
    )


@router.post("", status_code=200, response_model=HandScored, dependencies=[Writer], responses=WRITE_ERRORS,
             summary="Add a hand; returns it scored")
def add_hand(game_id: GameId, store: Store, events: Events, author: Author, revision: ExpectedRevision,
             response: Response, hand: Any = HandBody) -> HandScored:
    record = HandRecord.from_json(hand)
    stored = store.add_hand(game_id, record, author=author, expected_revision=revision)
    number = len(stored.game.hands)
    publish(events, "add", stored, number)
    etag(response, stored.revision)
    return scored(stored, number)


@router.put("/{number}", response_model=HandScored, dependencies=[Writer], responses=WRITE_ERRORS,
            summary="Replace hand n (1-based) and re-total")
def replace_hand(game_id: GameId, number: HandNumber, store: Store, events: Events, author: Author, revision: ExpectedRevision,
                 response: Response, hand: Any = HandBody) -> HandScored:
    record = HandRecord.from_json(hand)
    store.load(game_id)  # an unknown game is 404 before the hand number is looked at
    stored = store.replace_hand(game_id, number, record, author=author, expected_revision=revision)
    publish(events, "replace", stored, number)
    etag(response, stored.revision)
    return scored(stored, number)


@router.delete("/{number}", response_model=GameOut, dependencies=[Writer], responses=WRITE_ERRORS,
               summary="Delete hand n (later hands move up) and re-total; returns the game")
def delete_hand(game_id: GameId, number: HandNumber, store: Store, events: Events, author: Author, revision: ExpectedRevision,
                response: Response) -> dict[str, Any]:
    stored = store.delete_hand(game_id, number, author=author, expected_revision=revision)
    etag(response, stored.revision)
    return publish(events, "delete", stored, number)
