"""One photo of the table counted (CONTRACT §9): the display's "Score from a photo". Nothing is stored."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, HTTPException, Request, UploadFile

from scoring.web.deps import Store, Writer, game_id_param
from scoring.web.photos import PhotoCounter, propose_hand
from scoring.web.routers.games import WRITE_ERRORS
from scoring.web.schemas import ErrorOut

router = APIRouter(prefix="/api/photos", tags=["photos"])

REFUSALS: dict[int | str, dict[str, Any]] = {
    **WRITE_ERRORS,
    413: {"model": ErrorOut, "description": "The photo is too large (bytes or pixels)"},
    415: {"model": ErrorOut, "description": "Not a JPEG or PNG image"},
    422: {"model": ErrorOut, "description": "No card found in the photo, or no photo sent"},
}


def photo_counter(request: Request) -> PhotoCounter:
    counter: PhotoCounter | None = getattr(request.app.state, "photos", None)
    if counter is None:
        raise HTTPException(404, "this display counts no photos (start it with `borne serve` or `borne run`)")
    return counter


@router.post("", dependencies=[Writer], responses=REFUSALS,
             summary="Count one photo of the table (CONTRACT §5's form): every card with its outline, each side's "
                     "census; with `game`, the hand it proposes in that game, scored. Nothing is stored")
def count_photo(
    request: Request, store: Store,
    photo: Annotated[UploadFile, File(description="The photo, JPEG or PNG, as the phone's camera takes it")],
    game: Annotated[str | None, Form(description="A game's id: also propose the photo's hand in that game")] = None,
) -> dict[str, Any]:
    counter = photo_counter(request)
    game_id = game_id_param(game) if game else None
    setup = store.load(game_id).game.setup if game_id is not None else None  # an unknown game: 404 before counting
    counted = counter(photo.file.read())  # a PhotoRefusedError answers with its status
    if setup is not None:
        counted["proposal"] = {"game": game_id, **propose_hand(counted, setup)}
    return counted
