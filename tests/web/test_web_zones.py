"""The table's zones: the strict check of a layout, ``borne run``'s TableZones (saved zones win over the
demo's), and ``GET/PUT/DELETE /api/camera/layout`` on a real ``borne run`` (and ``borne serve``) process."""

from __future__ import annotations

import copy
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from scoring.storage import GameStore
from scoring.web.routers.camera import NO_CAMERA_MESSAGE
from scoring.web.zones import InvalidLayoutError, LayoutOrigin, NoLayoutToRestoreError, check_layout
from tests.web.camera_run import CameraRun, render_sequence, zone_editing_run
from tests.web.conftest import Server

SIDES = ("North", "South")
ZONES = {"sides": [
    {"side": "North", "zone": [[20, 10], [620, 10], [600, 150], [40, 150]], "up": [0, 1]},
    {"side": "South", "zone": [[20, 210], [620, 210], [620, 350], [20, 350]], "up": [0.0, -1.0]}]}


def with_change(path: tuple[Any, ...], value: Any, *, remove: bool = False) -> dict[str, Any]:
    """``ZONES`` with the field at ``path`` set to ``value`` (or removed)."""
    out: Any = copy.deepcopy(ZONES)
    target = out
    for p in path[:-1]:
        target = target[p]
    if remove:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


# (name, body, the field the refusal names)
REFUSALS: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], ""),
    ("no sides", {}, "sides"),
    ("sides not a list", {"sides": {"North": []}}, "sides"),
    ("an unknown field", {**ZONES, "camera": 0}, "camera"),
    ("one side", {"sides": ZONES["sides"][:1]}, "sides"),
    ("nine sides", {"sides": ZONES["sides"] * 5}, "sides"),
    ("a side named twice", with_change(("sides", 1, "side"), "North"), "sides[1].side"),
    ("a side renamed", with_change(("sides", 1, "side"), "Sud"), "sides[1].side"),
    ("an empty name", with_change(("sides", 0, "side"), "  "), "sides[0].side"),
    ("a name not a string", with_change(("sides", 0, "side"), 7), "sides[0].side"),
    ("a side not an object", with_change(("sides", 1), "South"), "sides[1]"),
    ("an unknown side field", with_change(("sides", 0, "colour"), "red"), "sides[0].colour"),
    ("no zone", with_change(("sides", 0, "zone"), None, remove=True), "sides[0].zone"),
    ("two points", with_change(("sides", 0, "zone"), [[0, 0], [10, 10]]), "sides[0].zone"),
    ("65 points", with_change(("sides", 0, "zone"), [[i, i * i % 97] for i in range(65)]), "sides[0].zone"),
    ("a point of three numbers", with_change(("sides", 0, "zone", 2), [1, 2, 3]), "sides[0].zone[2]"),
    ("a point as text", with_change(("sides", 0, "zone", 1), ["620", "10"]), "sides[0].zone[1]"),
    ("a true point", with_change(("sides", 0, "zone", 1), [True, 10]), "sides[0].zone[1]"),
    ("a point far away", with_change(("sides", 0, "zone", 1), [1e9, 10]), "sides[0].zone[1]"),
    ("corners on one line", with_change(("sides", 1, "zone"), [[0, 0], [100, 100], [200, 200], [300, 300]]),
     "sides[1].zone"),
    ("a sliver", with_change(("sides", 1, "zone"), [[0, 0], [600, 0], [600, 0.1]]), "sides[1].zone"),
    ("crossing edges", with_change(("sides", 0, "zone"), [[0, 0], [100, 300], [640, 158], [0, 158]]),
     "sides[0].zone"),
    ("up of length 2", with_change(("sides", 0, "up"), [0, 2]), "sides[0].up"),
    ("up zero", with_change(("sides", 0, "up"), [0, 0]), "sides[0].up"),
    ("up of one number", with_change(("sides", 0, "up"), [1]), "sides[0].up"),
    ("up as text", with_change(("sides", 0, "up"), "north"), "sides[0].up"),
]


# -- the check, on its own ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "body", "field"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_check_layout_refuses_naming_the_field(name: str, body: Any, field: str) -> None:
    with pytest.raises(InvalidLayoutError) as caught:
        check_layout(body, sides=SIDES)
    assert caught.value.field == field


def test_check_layout_keeps_a_good_layout_in_any_order_and_scales_up_to_unit_length() -> None:
    body = {"sides": [ZONES["sides"][1], {**ZONES["sides"][0], "up": [0.0, 1.05]}]}
    out = check_layout(body, sides=SIDES)
    assert [s["side"] for s in out["sides"]] == ["South", "North"]
    assert out["sides"][1]["up"] == [0.0, 1.0]
    assert out["sides"][0]["zone"] == [[20.0, 210.0], [620.0, 210.0], [620.0, 350.0], [20.0, 350.0]]
    without_up = check_layout(with_change(("sides", 1, "up"), None, remove=True), sides=SIDES)
    assert "up" not in without_up["sides"][1]


# -- borne run's TableZones, with a stand-in pipeline ----------------------------------------------------


def layout_of(doc: dict[str, Any]) -> Any:
    from vision.table.layout import TableLayout

    return TableLayout.from_json(doc)


def table_zones(store: GameStore, *, base: Any, origin: LayoutOrigin) -> Any:
    """TableZones as ``borne run`` makes it with nothing saved."""
    from borne.live import TableZones
    from vision.table.layout import TableLayout

    pipeline = SimpleNamespace(layout=base if base is not None else TableLayout.default(640, 360), seated=True)
    return TableZones(store, pipeline, threading.Lock(), table="kitchen", base=base, base_origin=origin, origin=origin,
                      saved=False, frame_size=(640, 360))


def test_once_a_person_saved_zones_the_demo_no_longer_replaces_them(tmp_path: Path) -> None:
    from vision.table.layout import TableLayout

    with GameStore(tmp_path / "g.db") as store:
        first = TableLayout.default(640, 360)
        zones = table_zones(store, base=first, origin=LayoutOrigin.CAMERA)
        second = TableLayout.default(640, 300)
        zones.source_layout(second)  # a new demo hand: followed
        assert zones.pipeline.layout is second and zones.zones().origin is LayoutOrigin.CAMERA
        saved = zones.save_zones(check_layout(ZONES, sides=SIDES))
        assert saved.origin is LayoutOrigin.SAVED and saved.saved
        person = zones.pipeline.layout
        assert person is not second and person.to_json() == layout_of(ZONES).to_json()
        third = TableLayout.default(600, 360)
        zones.source_layout(third)  # the next demo hand: the person's zones stay
        assert zones.pipeline.layout is person
        doc = store.load_camera_document(name="layout:kitchen")
        assert doc is not None and doc["layout"] == person.to_json() and doc["frame_size"] == [640, 360]
        back = zones.forget_zones()  # back to the demo's latest hand
        assert back.origin is LayoutOrigin.CAMERA and not back.saved and zones.pipeline.layout is third
        assert store.load_camera_document(name="layout:kitchen") is None


def test_a_layout_of_other_sides_from_the_source_is_not_followed(tmp_path: Path) -> None:
    from vision.table.layout import TableLayout

    with GameStore(":memory:") as store:
        start = TableLayout.default(640, 360)
        zones = table_zones(store, base=start, origin=LayoutOrigin.CAMERA)
        zones.source_layout(TableLayout.default(640, 360, sides=("Ana", "Ben")))
        assert zones.pipeline.layout is start


def test_the_default_zones_put_the_side_higher_in_the_picture_on_top(tmp_path: Path) -> None:
    with GameStore(":memory:") as store:
        upside_down = {"sides": [
            {"side": "North", "zone": [[0, 250], [640, 250], [640, 360], [0, 360]]},
            {"side": "South", "zone": [[0, 0], [640, 0], [640, 100], [0, 100]]}]}
        zones = table_zones(store, base=None, origin=LayoutOrigin.DEFAULT)
        zones.save_zones(check_layout(upside_down, sides=SIDES))
        default = zones.zones().default
        assert [s["side"] for s in default["sides"]] == ["South", "North"]
        assert default["sides"][0]["up"] == [0.0, 1.0] and default["sides"][0]["zone"][0] == [0.0, 0.0]
        back = zones.forget_zones()  # no start-up layout: the default, made for the picture
        assert back.origin is LayoutOrigin.DEFAULT and back.layout == default


def test_saved_zones_of_three_sides_cannot_be_forgotten_without_a_layout_to_go_back_to() -> None:
    from borne.live import TableZones

    three = {"sides": [{"side": n, "zone": [[x, 0], [x + 100, 0], [x + 100, 100], [x, 100]]}
                       for n, x in (("A", 0), ("B", 200), ("C", 400))]}
    with GameStore(":memory:") as store:
        pipeline = SimpleNamespace(layout=layout_of(three), seated=True)
        zones = TableZones(store, pipeline, threading.Lock(), table="t", base=None, base_origin=LayoutOrigin.DEFAULT,
                           origin=LayoutOrigin.SAVED, saved=True, frame_size=(640, 360))
        store.save_camera_document(name="layout:t", document={"version": 1, "layout": three})
        assert zones.zones().default is None
        with pytest.raises(NoLayoutToRestoreError):
            zones.forget_zones()
        assert store.load_camera_document(name="layout:t") is not None


# -- the routes, on real processes ---------------------------------------------------------------------


def saved_documents(db: Path) -> dict[str, Any]:
    """The layouts in the games' SQLite file, read as another program would."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT name, document FROM camera_documents WHERE name LIKE 'layout:%'").fetchall()
    finally:
        con.close()
    return {name: json.loads(doc) for name, doc in rows}


@pytest.fixture(scope="module")
def sequence(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render_sequence(tmp_path_factory.mktemp("zones-seq"), seed=5, frames=126)


@pytest.fixture(scope="module")
def zone_run(sequence: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CameraRun]:
    """``borne run`` without ``--layout``, playing slowly so it runs through the module."""
    yield from zone_editing_run(tmp_path_factory.mktemp("zones"), sequence)


@pytest.fixture
def run(zone_run: CameraRun) -> CameraRun:
    """The module's ``borne run`` with nothing saved."""
    assert zone_run.delete("/api/camera/layout").status_code == 200
    return zone_run


def test_without_layout_the_default_zones_are_used_with_the_picture_size(run: CameraRun) -> None:
    view = run.get("/api/camera/layout").json()
    assert view["origin"] == "default" and view["table"] == "table" and view["saved"] is False
    assert view["sides"] == ["North", "South"]
    assert view["frame_size"] == {"width": 640, "height": 360}
    assert view["layout"] == view["default"]
    north, south = view["layout"]["sides"]
    assert north["side"] == "North" and north["up"] == [0.0, 1.0] and north["zone"][0] == [0.0, 0.0]
    assert south["side"] == "South" and south["up"] == [0.0, -1.0] and south["zone"][2] == [640.0, 360.0]


def test_put_saves_the_zones_for_the_table_and_the_camera_follows_them(run: CameraRun) -> None:
    r = run.put("/api/camera/layout", json=ZONES)
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["origin"] == "saved" and view["saved"] is True
    assert view["layout"] == layout_of(ZONES).to_json()
    assert run.get("/api/camera/layout").json() == view
    assert saved_documents(run.db) == {"layout:table": {"version": 1, "table": "table", "layout": view["layout"],
                                                        "frame_size": [640, 360]}}
    back = run.delete("/api/camera/layout")
    assert back.status_code == 200 and back.json()["origin"] == "default" and back.json()["saved"] is False
    assert back.json()["layout"] == back.json()["default"]
    assert saved_documents(run.db) == {}
    assert run.delete("/api/camera/layout").status_code == 200  # forgetting nothing is no error


@pytest.mark.parametrize(("name", "body", "field"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_every_refusal_is_a_422_naming_the_field_and_nothing_is_stored(run: CameraRun, name: str, body: Any,
                                                                      field: str) -> None:
    before = run.get("/api/camera/layout").json()
    r = run.put("/api/camera/layout", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["field"] == field and detail["type"] == "invalid_layout" and detail["msg"]
    assert run.get("/api/camera/layout").json() == before
    assert saved_documents(run.db) == {}


def test_a_body_that_is_not_json_is_refused(run: CameraRun) -> None:
    r = run.put("/api/camera/layout", content=b"{sides")
    assert r.status_code == 422
    assert saved_documents(run.db) == {}


def test_saving_and_forgetting_zones_need_the_token(run: CameraRun) -> None:
    assert run.put("/api/camera/layout", json=ZONES, token=None).status_code == 401
    assert run.put("/api/camera/layout", json=ZONES, token="nope").status_code == 403
    assert saved_documents(run.db) == {} and run.get("/api/camera/layout").json()["origin"] == "default"
    assert run.put("/api/camera/layout", json=ZONES).status_code == 200
    assert run.delete("/api/camera/layout", token=None).status_code == 401
    assert run.delete("/api/camera/layout", token="nope").status_code == 403
    assert run.get("/api/camera/layout").json()["origin"] == "saved" and "layout:table" in saved_documents(run.db)


def test_borne_serve_has_no_zones(server: Server) -> None:
    for r in (server.get("/api/camera/layout"), server.put("/api/camera/layout", json=ZONES),
              server.delete("/api/camera/layout")):
        assert r.status_code == 404 and r.json()["detail"] == NO_CAMERA_MESSAGE


def test_saved_zones_are_used_again_after_a_restart_unless_layout_is_given(sequence: Path, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = CameraRun(db, sequence / "frames", sequence, fps=2, layout=None).start()
    try:
        first.wait_for_frame(timeout=30)
        assert first.put("/api/camera/layout", json=ZONES).status_code == 200
    finally:
        first.stop()
    again = CameraRun(db, sequence / "frames", sequence, fps=2, layout=None).start()
    try:
        view = again.get("/api/camera/layout").json()
        assert view["origin"] == "saved" and view["layout"] == layout_of(ZONES).to_json()
        assert "Zones of table 'table': saved" in again.log.read_text()
    finally:
        again.stop()
    other_table = CameraRun(db, sequence / "frames", sequence, fps=2, layout=None, table="kitchen").start()
    try:
        other_table.wait_for_frame(timeout=30)
        assert other_table.get("/api/camera/layout").json()["origin"] == "default"
    finally:
        other_table.stop()
    with_file = CameraRun(db, sequence / "frames", sequence, fps=2).start()  # --layout wins over saved zones
    try:
        view = with_file.get("/api/camera/layout").json()
        assert view["origin"] == "file" and view["saved"] is True
        assert view["sides"] == ["South", "North"]  # the file's order
        assert np.allclose(view["layout"]["sides"][0]["zone"],
                           json.loads((sequence / "layout.json").read_text())["sides"][0]["zone"])
    finally:
        with_file.stop()
    assert saved_documents(db)["layout:table"]["layout"] == layout_of(ZONES).to_json()


def saved_zones(store: GameStore, size: tuple[int, int]) -> Any:
    """TableZones as ``borne run`` makes it when ZONES were saved on a picture of ``size``."""
    from borne.live import TableZones
    from vision.table.layout import TableLayout

    pipeline = SimpleNamespace(layout=layout_of(ZONES), seated=True)
    return TableZones(store, pipeline, threading.Lock(), table="kitchen", base=None, base_origin=LayoutOrigin.DEFAULT,
                      origin=LayoutOrigin.SAVED, saved=True, frame_size=None, saved_size=size), TableLayout


def test_saved_zones_follow_the_camera_to_another_resolution_of_the_same_shape() -> None:
    with GameStore(":memory:") as store:
        zones, _ = saved_zones(store, (1280, 720))
        zones.saw_frame(640, 360)
        view = zones.zones()
        assert view.origin is LayoutOrigin.SAVED and view.frame_size == (640, 360)
        drawn = layout_of(ZONES)
        for now, then in zip(zones.pipeline.layout.sides, drawn.sides, strict=True):
            assert np.allclose(now.zone, then.zone / 2) and now.up == then.up
        zones.saw_frame(1280, 720)  # back to the size they were drawn on: exactly as drawn
        assert zones.pipeline.layout.to_json() == drawn.to_json()


def test_saved_zones_of_a_picture_of_another_shape_give_way_to_the_default_zones() -> None:
    with GameStore(":memory:") as store:
        zones, TableLayout = saved_zones(store, (1280, 720))
        zones.saw_frame(640, 480)  # 4:3 now: the camera sees another part of the table
        view = zones.zones()
        assert view.origin is LayoutOrigin.DEFAULT and view.saved  # still kept, for the person to look at
        assert zones.pipeline.layout.to_json() == view.default
        assert view.default["sides"][1]["zone"][2] == [640.0, 480.0]
