"""The camera on the display: its state, the routes that read it, confirm and correct, the saved hand."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scoring.hand import HandRecord
from scoring.storage import SCHEMA_VERSION, GameStore
from scoring.web.app import create_app
from scoring.web.camera import CameraState, NoPendingHandError, publish_hand, scored_hand_document
from scoring.web.events import Broadcaster, LiveHandEvent
from scoring.web.live_hand import LiveHand
from scoring.web.settings import WebSettings

AUTH = {"Authorization": "Bearer t"}
RECORD = {"goal": 700, "draw_pile_empty_at_finish": False, "extension_called_by": None, "sides": [
    {"side": "North", "distance": {"200": 2, "100": 3}, "safeties": {}},
    {"side": "South", "distance": {"75": 2}, "safeties": {"driving_ace": "coup_fourre"}}]}


def live_hand(pending: dict[str, Any] | None = None) -> LiveHand:
    sides = [{"side": "North", "distance": {"25": 0, "50": 0, "75": 0, "100": 3, "200": 2}, "safeties": {}, "km": 700,
              "confidence": 0.9},
             {"side": "South", "distance": {"25": 0, "50": 0, "75": 2, "100": 0, "200": 0},
              "safeties": {"driving_ace": "coup_fourre"}, "km": 150, "confidence": 0.45}]
    doc = {"hand": 1, "phase": "finished" if pending else "in_play", "goal": 700, "extension_called_by": None,
            "draw_pile": True, "sides": sides, "flags": [], "events": [], "plays": 6, "pending": pending, "game_id": None}
    return LiveHand.model_validate(doc)


class FakeDesk:
    """Stands in for ``borne run``'s LiveTable: records what the display asked."""

    def __init__(self, camera: CameraState, store: GameStore, broadcaster: Broadcaster) -> None:
        self.camera, self.store, self.broadcaster = camera, store, broadcaster
        self.pending: dict[str, Any] | None = {"number": 1, "record": RECORD, "termination": "trip_completed",
                                               "corrected": False}
        self.confirmed: list[dict[str, Any]] = []
        self.corrections: list[HandRecord] = []

    def confirm(self) -> None:
        if self.pending is None:
            raise NoPendingHandError("no hand is waiting to be confirmed")
        self.confirmed.append(self.pending["record"])
        self.pending = None
        publish_hand(self.camera, live_hand(None), store=self.store, broadcaster=self.broadcaster)

    def correct(self, record: HandRecord) -> None:
        self.corrections.append(record)


@pytest.fixture
def client_and_desk(tmp_path: Path) -> Any:
    app = create_app(WebSettings(token="t", db_path=tmp_path / "g.db"))
    camera = CameraState(source="demo")
    desk = FakeDesk(camera, app.state.store, app.state.broadcaster)
    camera.desk = desk
    app.state.camera = camera
    with TestClient(app, base_url="http://localhost") as client:
        publish_hand(camera, live_hand(desk.pending), store=app.state.store, broadcaster=app.state.broadcaster)
        yield client, desk, camera


def test_without_a_camera_the_status_says_so_and_the_rest_is_404(tmp_path: Path) -> None:
    with TestClient(create_app(WebSettings(token="t", db_path=tmp_path / "g.db")), base_url="http://localhost") as client:
        status = client.get("/api/camera").json()
        assert status["camera"] is False and status["message"] == "no camera"
        assert client.get("/api/camera/frame.jpg").status_code == 404
        assert client.get("/api/camera/hand").status_code == 404
        assert client.post("/api/camera/hand/confirm", headers=AUTH).status_code == 404
        assert client.post("/api/camera/hand/correct", headers=AUTH, json=RECORD).status_code == 404


def test_the_status_and_the_latest_picture(client_and_desk: Any) -> None:
    client, _, camera = client_and_desk
    assert client.get("/api/camera/frame.jpg").status_code == 404  # no picture yet
    camera.update(connected=True, frames=12, frames_per_second=4.26, corrupt_frames=2, reconnects=1, too_small=True,
                  card_px=17.04)
    camera.set_frame(b"\xff\xd8jpeg")
    status = client.get("/api/camera").json()
    assert status == {"source": "demo", "connected": True, "message": "", "frames": 12, "frames_per_second": 4.3,
                      "corrupt_frames": 2, "reconnects": 1, "too_small": True, "card_px": 17.0, "ended": False,
                      "camera": True, "has_frame": True}
    r = client.get("/api/camera/frame.jpg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg" and r.content == b"\xff\xd8jpeg"


def test_the_pending_hand_is_scored_by_the_core(client_and_desk: Any) -> None:
    client, _, _ = client_and_desk
    hand = client.get("/api/camera/hand").json()
    pending = hand["pending"]
    assert pending["score"]["winner"] == "North"
    north = next(s for s in pending["score"]["sides"] if s["side"] == "North")
    assert north["items"]["distance"] == 700 and north["items"]["trip"] == 400
    assert pending["ask_extension"] is None
    assert [s["confidence"] for s in hand["sides"]] == [0.9, 0.45]


def test_a_700_km_hand_with_an_extension_asks_the_display_to_confirm_it(tmp_path: Path) -> None:
    with GameStore(tmp_path / "g.db") as store:
        record = {**RECORD, "extension_called_by": "North"}
        record["sides"] = [{"side": "North", "distance": {"200": 2, "100": 6}}, {"side": "South", "distance": {"75": 2}}]
        doc = scored_hand_document(live_hand({"number": 1, "record": record, "termination": "trip_completed",
                                              "corrected": False}), store)
        assert doc.pending is not None and doc.pending.ask_extension == "North"
        assert doc.pending.score is not None and doc.pending.score["sides"][0]["items"]["extension"] > 0


@pytest.mark.parametrize("path", ["/api/camera/hand/confirm", "/api/camera/hand/correct"])
def test_confirm_and_correct_need_the_token(client_and_desk: Any, path: str) -> None:
    client, desk, _ = client_and_desk
    assert client.post(path, json=RECORD).status_code == 401
    assert client.post(path, json=RECORD, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert desk.confirmed == [] and desk.corrections == []


def test_confirm_makes_the_hand_final_once(client_and_desk: Any) -> None:
    client, desk, _ = client_and_desk
    r = client.post("/api/camera/hand/confirm", headers=AUTH)
    assert r.status_code == 200 and r.json()["pending"] is None
    assert desk.confirmed == [RECORD]
    again = client.post("/api/camera/hand/confirm", headers=AUTH)
    assert again.status_code == 409 and "no hand" in again.json()["detail"]


@pytest.mark.parametrize(("body", "where"), [
    ({"goal": 700}, "sides"),
    ({**RECORD, "sides": [{"side": "North", "distance": {"200": 3}}, {"side": "South"}]}, "distance"),
    ({**RECORD, "goal": 650}, "goal"),
    ([1, 2], ""),
])
def test_a_bad_correction_is_refused_with_422_naming_the_field(client_and_desk: Any, body: Any, where: str) -> None:
    client, desk, _ = client_and_desk
    r = client.post("/api/camera/hand/correct", headers=AUTH, json=body)
    assert r.status_code == 422, r.text
    assert where in r.text
    assert desk.corrections == []


def test_a_correction_reaches_the_pipeline_as_a_hand_record(client_and_desk: Any) -> None:
    client, desk, _ = client_and_desk
    r = client.post("/api/camera/hand/correct", headers=AUTH, json=RECORD)
    assert r.status_code == 200
    assert desk.corrections == [HandRecord.from_json(RECORD)]


def test_the_live_hand_goes_out_as_a_camera_event_only_when_it_changed() -> None:
    import asyncio

    async def run() -> list[Any]:
        broadcaster = Broadcaster()
        broadcaster.bind(asyncio.get_running_loop())
        sub = broadcaster.subscribe(7)  # a game's stream hears the camera too
        camera = CameraState(source="0")
        with GameStore(":memory:") as store:
            assert publish_hand(camera, live_hand(), store=store, broadcaster=broadcaster)
            assert not publish_hand(camera, live_hand(), store=store, broadcaster=broadcaster)
        await asyncio.sleep(0)
        got = []
        while not sub.queue.empty():
            got.append(sub.queue.get_nowait())
        return got

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # a loop of its own: Playwright may hold this thread's
        got = pool.submit(asyncio.run, run()).result()
    assert len(got) == 1
    seq, event = got[0]
    assert isinstance(event, LiveHandEvent)
    assert event.to_sse(seq).startswith(f"id: {seq}\nevent: camera\ndata: {{\"hand\":1,")


def test_camera_state_is_safe_to_read_while_the_pipeline_writes() -> None:
    import threading

    camera = CameraState(source="demo")
    stop = threading.Event()

    def writer() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            camera.update(frames=n, frames_per_second=n / 10, connected=n % 2 == 0)
            camera.set_frame(bytes([n % 256]))

    t = threading.Thread(target=writer)
    t.start()
    try:
        for _ in range(2000):
            s = camera.status_json()
            assert s["connected"] == (s["frames"] % 2 == 0)
    finally:
        stop.set()
        t.join()
    assert camera.frame_due(0.0) and not camera.frame_due(60.0)


def test_the_camera_documents_table_arrives_by_migration_and_old_files_open(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    from scoring.storage import _MIGRATIONS

    con.executescript(_MIGRATIONS[1])
    con.execute("INSERT INTO games (created_at, setup, revision) VALUES ('2026-01-01', '{}', 0)")
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    with GameStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 4  # 3: the requests of Idempotency-Key; 4: the club's outbox
        assert store.game_ids() == [1]
        assert store.load_camera_document(name="live_hand") is None
        store.save_camera_document(name="live_hand", document={"hand": 3, "sides": ["A", "B"]})
        store.save_camera_document(name="live_hand", document={"hand": 4, "sides": ["A", "B"]})
    with GameStore(path) as store:
        assert store.load_camera_document(name="live_hand") == {"hand": 4, "sides": ["A", "B"]}
        store.delete_camera_document(name="live_hand")
        assert store.load_camera_document(name="live_hand") is None


def test_a_flag_s_picture_is_served_by_its_id(client_and_desk: Any) -> None:
    client, _, camera = client_and_desk
    assert client.get("/api/camera/flags/1-20-0.jpg").status_code == 404  # no pictures kept yet
    pictures = {"1-20-0": b"\xff\xd8flag"}
    camera.flag_pictures = pictures.get
    r = client.get("/api/camera/flags/1-20-0.jpg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg" and r.content == b"\xff\xd8flag"
    assert client.get("/api/camera/flags/1-21-0.jpg").status_code == 404
    assert client.get("/api/camera/flags/..%2Fsecret.jpg").status_code in (404, 422)


def test_a_held_hand_and_its_flags_with_pictures_reach_the_display(client_and_desk: Any) -> None:
    client, _, camera = client_and_desk
    flag = {"frame": 20, "side": "South", "card": "distance_75", "reason": "stopped",
            "message": "South played a 75 at frame 20 with a Stop on its battle pile", "picture": "/api/camera/flags/1-20-0.jpg"}
    doc = live_hand(None).model_dump()
    doc["held"] = [{"number": 1, "record": RECORD, "termination": "table_cleared", "corrected": False, "flags": [flag]}]
    publish_hand(camera, LiveHand.model_validate(doc), store=client.app.state.store,
                 broadcaster=client.app.state.broadcaster)
    hand = client.get("/api/camera/hand").json()
    assert hand["held"][0]["flags"] == [flag] and hand["held"][0]["number"] == 1
