"""The phone camera's feed: the WebSocket refuses a socket without the table's token before any picture is
taken, hands pictures to the pipeline's source, which keeps the newest and drops (never queues) the rest."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from scoring.web.app import create_app
from scoring.web.feed import FeedClose
from scoring.web.settings import WebSettings
from vision.sources.pushed import PushedSource

TOKEN = "t0ken"
FEED = "/api/camera/feed"


def picture(shade: int) -> bytes:
    ok, jpeg = cv2.imencode(".jpg", np.full((72, 128, 3), shade, np.uint8))
    assert ok
    return jpeg.tobytes()


@pytest.fixture
def source() -> PushedSource:
    return PushedSource(name="the phone's camera")


@pytest.fixture
def client(tmp_path: Path, source: PushedSource) -> Iterator[TestClient]:
    app = create_app(WebSettings(token=TOKEN, db_path=tmp_path / "games.sqlite3"))
    app.state.frame_inbox = source
    with TestClient(app, base_url="http://localhost") as c:
        yield c


def closed_with(client: TestClient, url: str, *, first: str | bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, str]:
    with client.websocket_connect(url, headers=headers or {}) as ws:
        if isinstance(first, str):
            ws.send_text(first)
        elif isinstance(first, bytes):
            ws.send_bytes(first)
        with pytest.raises(WebSocketDisconnect) as refused:
            ws.receive_text()
    return refused.value.code, refused.value.reason


@pytest.mark.parametrize(("url", "first", "code"), [
    (FEED, picture(10), FeedClose.NO_TOKEN),                          # a picture before any token
    (FEED, "hello", FeedClose.NO_TOKEN),                              # not the token message
    (FEED, json.dumps({"token": ""}), FeedClose.NO_TOKEN),
    (FEED, json.dumps({"token": "wrong"}), FeedClose.WRONG_TOKEN),
    (f"{FEED}?token=wrong", picture(10), FeedClose.WRONG_TOKEN),
])
def test_a_feed_without_the_tables_token_is_refused_before_any_picture(client: TestClient, source: PushedSource,
                                                                       url: str, first: str | bytes,
                                                                       code: int) -> None:
    got, reason = closed_with(client, url, first=first)
    assert got == code and reason
    assert source.counts().received == 0 and source.latest(timeout=0.05) is None
    assert source.counts().senders == 0


def test_a_wrong_token_says_so(client: TestClient) -> None:
    assert closed_with(client, f"{FEED}?token=wrong") == (FeedClose.WRONG_TOKEN, "wrong token for this table")


def test_a_page_of_another_site_is_refused_even_with_the_token(client: TestClient, source: PushedSource) -> None:
    code, _ = closed_with(client, f"{FEED}?token={TOKEN}", first=picture(10),
                          headers={"Origin": "https://evil.example"})
    assert code == FeedClose.WRONG_TOKEN and source.counts().received == 0


def test_a_server_without_the_browser_camera_takes_no_pictures(tmp_path: Path) -> None:
    app = create_app(WebSettings(token=TOKEN, db_path=tmp_path / "games.sqlite3"))
    with TestClient(app, base_url="http://localhost") as client:
        code, reason = closed_with(client, f"{FEED}?token={TOKEN}")
    assert code == FeedClose.NOT_TAKEN and "--source browser" in reason


@pytest.mark.parametrize("by_query", [True, False])
def test_pictures_with_the_token_reach_the_source_newest_kept_older_dropped(client: TestClient, source: PushedSource,
                                                                             by_query: bool) -> None:
    with client.websocket_connect(f"{FEED}?token={TOKEN}" if by_query else FEED,
                                  headers={"Origin": "http://testserver"}) as ws:  # the same site
        if not by_query:
            ws.send_text(json.dumps({"token": TOKEN}))
        assert ws.receive_json() == {"type": "ready"}
        for shade in (10, 60, 110, 160, 210):  # the pipeline takes none meanwhile: nothing queues
            ws.send_bytes(picture(shade))
        counts = ws.receive_json()  # sent every half second, after the pictures above were taken in
        assert counts["type"] == "counts" and counts["senders"] == 1
        assert (counts["received"], counts["dropped"], counts["taken"]) == (5, 4, 0)
        frame = source.latest(timeout=1.0)
        assert frame is not None and abs(int(frame.image.mean()) - 210) <= 2  # the newest
        assert source.latest(timeout=0.05) is None  # the older ones are gone, not queued
    assert source.counts().senders == 0 and not source.stats.connected


def test_an_unreadable_picture_is_counted_and_skipped(source: PushedSource) -> None:
    source.offer(b"not a jpeg")
    assert source.latest(timeout=0.05) is None
    source.offer(b"")
    assert source.stats.corrupt == 2
    source.offer(picture(90))
    frame = source.latest(timeout=0.5)
    assert frame is not None and frame.index == 0 and source.stats.frames == 1


def test_the_pipeline_waits_for_pictures_and_stops_when_the_source_closes(source: PushedSource) -> None:
    import threading
    import time

    got: list[float] = []

    def read() -> None:
        for frame in source.frames():
            got.append(float(frame.image.mean()))

    reader = threading.Thread(target=read)
    reader.start()
    source.offer(picture(200))
    deadline = time.monotonic() + 5
    while not got and time.monotonic() < deadline:
        time.sleep(0.01)
    source.close()
    reader.join(5)
    assert not reader.is_alive() and len(got) == 1


def test_the_camera_page_is_served_with_its_strings(client: TestClient) -> None:
    page = client.get("/camera?token=x")
    assert page.status_code == 200 and "/static/phone.js" in page.text
    assert "getUserMedia" in client.get("/static/phone.js").text
    assert client.get("/api/strings?lang=fr").json()["phone"]["title"] == "Téléphone caméra"
    assert client.get("/camera/certificate.pem").status_code == 404  # served over plain HTTP here
