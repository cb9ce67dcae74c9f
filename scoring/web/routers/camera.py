"""The camera: its status and latest picture, the hand it follows (confirm it, correct it), and the
table's zones (show them, save a person's, forget them).

With ``borne serve`` there is no camera: the status says so and the rest is 404.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, HTTPException, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from scoring.hand import HandRecord
from scoring.web.camera import NO_CAMERA, CameraChoiceError, CameraChooser, CameraState, NoPendingHandError
from scoring.web.deps import Writer
from scoring.web.live_hand import LiveHandScored
from scoring.web.routers.games import WRITE_ERRORS
from scoring.web.routers.hands import HAND_EXAMPLE
from scoring.web.schemas import CameraStatusOut, FoundCamerasOut, NoHandOut, ZonesOut
from scoring.web.zones import ZoneDesk, check_layout

router = APIRouter(prefix="/api/camera", tags=["camera"])

NO_CAMERA_MESSAGE = "no camera: start the display with `borne run` to follow the table"


def optional_camera(request: Request) -> CameraState | None:
    camera: CameraState | None = getattr(request.app.state, "camera", None)
    return camera


def require_camera(camera: Annotated[CameraState | None, Depends(optional_camera)]) -> CameraState:
    if camera is None:
        raise HTTPException(404, NO_CAMERA_MESSAGE)
    return camera


CorrectBody = Body(description="A hand record (CONTRACT.md §1) with the table's sides.", examples=[HAND_EXAMPLE])

MaybeCamera = Annotated[CameraState | None, Depends(optional_camera)]
Camera = Annotated[CameraState, Depends(require_camera)]


@router.get("", summary="The camera's status: connected or lost, frames per second, corrupt frames, reconnects",
            response_model=CameraStatusOut, response_model_exclude_unset=True)
def camera_status(camera: MaybeCamera) -> dict[str, Any]:
    return dict(NO_CAMERA) if camera is None else camera.status_json()


@router.get("/frame.jpg", summary="The latest picture with boxes, ids and zones drawn (JPEG)",
            response_class=Response, responses={200: {"content": {"image/jpeg": {}}}, 404: {"description": "No camera or no picture yet"}})
def camera_frame(camera: Camera) -> Response:
    jpeg = camera.frame_jpeg()
    if jpeg is None:
        raise HTTPException(404, "the camera has no picture yet")
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/hand", summary="The hand the camera follows: counts, confidence and flags per side, the pending hand scored",
            response_model=LiveHandScored, response_model_exclude_unset=True)
def live_hand(camera: Camera) -> LiveHandScored:
    hand = camera.hand()
    if hand is None:
        raise HTTPException(404, "the camera has not seen a hand yet")
    return hand


@router.get("/flags/{picture}.jpg", summary="A flag's picture: the frame it names, the card outlined (JPEG)",
            response_class=Response, responses={200: {"content": {"image/jpeg": {}}},
                                                404: {"description": "No camera, or no picture kept by that id"}})
def flag_picture(camera: Camera, picture: Annotated[str, Path(pattern=r"^\d+-\d+-\d+$")]) -> Response:
    jpeg = camera.flag_pictures(picture) if camera.flag_pictures is not None else None
    if jpeg is None:
        raise HTTPException(404, f"no picture {picture!r}: only the latest hands' flags keep theirs")
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "private, max-age=3600"})


def _desk(camera: CameraState) -> Any:
    if camera.desk is None:
        raise HTTPException(404, NO_CAMERA_MESSAGE)
    return camera.desk


@router.post("/hand/confirm", dependencies=[Writer], responses={**WRITE_ERRORS, 409: {"description": "No hand is pending"}},
             summary="Confirm the first hand held for a look (else the pending hand): it becomes final and goes "
                     "into the game, with the hands that waited in line behind it",
             response_model=LiveHandScored | NoHandOut, response_model_exclude_unset=True)
def confirm_hand(camera: Camera) -> LiveHandScored | NoHandOut:
    try:
        _desk(camera).confirm()
    except NoPendingHandError as e:
        raise HTTPException(409, str(e)) from None
    return camera.hand() or NoHandOut()


@router.post("/hand/correct", dependencies=[Writer], responses=WRITE_ERRORS,
             summary="A person's record of the hand wins: the first hand held (else the pending hand) is "
                     "confirmed with it; a hand in play goes on counting from it",
             response_model=LiveHandScored | NoHandOut, response_model_exclude_unset=True)
def correct_hand(camera: Camera, hand: Any = CorrectBody) -> LiveHandScored | NoHandOut:
    record = HandRecord.from_json(hand)
    record.validate()
    try:
        _desk(camera).correct(record)
    except NoPendingHandError as e:
        raise HTTPException(409, str(e)) from None
    return camera.hand() or NoHandOut()


def require_chooser(camera: Camera) -> CameraChooser:
    if camera.chooser is None:
        raise HTTPException(404, "this display follows a file or the demo: there is no camera to change")
    return camera.chooser


Chooser = Annotated[CameraChooser, Depends(require_chooser)]


class CameraChoice(BaseModel):
    """A Borne camera (``borne-cam``) to follow, by the name it announces, with its own token."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=60, description="The name the camera announces over mDNS")
    token: str = Field(min_length=1, max_length=200, description="The camera's own token (borne-cam prints it)")


@router.get("/cameras", summary="The Borne cameras (borne-cam) that answer on the network, and the one followed",
            response_model=FoundCamerasOut)
def found_cameras(camera: Camera, chooser: Chooser) -> dict[str, Any]:
    return {"current": camera.status.source, "cameras": chooser.cameras()}


@router.post("/source", dependencies=[Writer], responses={**WRITE_ERRORS, 422: {"description": "The camera cannot be used: why"}},
             summary="Follow another Borne camera from the next frame (the hand goes on)",
             response_model=CameraStatusOut, response_model_exclude_unset=True)
def choose_camera(camera: Camera, chooser: Chooser, choice: CameraChoice) -> dict[str, Any]:
    try:
        chooser.choose(choice.name, choice.token)
    except CameraChoiceError as e:
        raise HTTPException(422, str(e)) from None
    return camera.status_json()


LAYOUT_EXAMPLE = {"sides": [
    {"side": "North", "zone": [[412, 80], [868, 80], [868, 330], [412, 330]], "up": [0.0, 1.0]},
    {"side": "South", "zone": [[412, 390], [868, 390], [868, 640], [412, 640]], "up": [0.0, -1.0]}]}

LayoutBody = Body(description="A table layout (CONTRACT.md §4) with exactly the table's sides; zones in image pixels.",
                  examples=[LAYOUT_EXAMPLE])


def require_zones(camera: Camera) -> ZoneDesk:
    if camera.zones is None:
        raise HTTPException(404, NO_CAMERA_MESSAGE)
    return camera.zones


Zones = Annotated[ZoneDesk, Depends(require_zones)]


@router.get("/layout", summary="The table's zones in use, where they came from (saved, file, camera, default), "
                               "the picture's size and the default zones", response_model=ZonesOut)
def get_layout(zones: Zones) -> dict[str, Any]:
    return zones.zones().to_json()


@router.put("/layout", dependencies=[Writer], responses=WRITE_ERRORS,
            summary="Save the table's zones (kept per table) and follow them from the next frame; "
                    "refused with 422 naming the field, nothing saved", response_model=ZonesOut)
def put_layout(zones: Zones, layout: Any = LayoutBody) -> dict[str, Any]:
    checked = check_layout(layout, sides=zones.zones().sides)
    return zones.save_zones(checked).to_json()


@router.delete("/layout", dependencies=[Writer], responses={**WRITE_ERRORS, 409: {"description": "No start-up layout has the table's sides"}},
               summary="Forget the saved zones: back to the start-up layout (--layout, the source's own, or the default)",
               response_model=ZonesOut)
def delete_layout(zones: Zones) -> dict[str, Any]:
    return zones.forget_zones().to_json()
