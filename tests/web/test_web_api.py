"""The HTTP API of CONTRACT.md §9 against a real ``borne serve`` process on loopback.

Over 400 lines on purpose: one file walks the contract's routes in its order against one server process
(started once for the module), so a reader checks the contract section by section here.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from typing import Any

import httpx
import pytest
from pypdf import PdfReader

from tests.examples import TALLYNIGHT_HAND_1, TALLYNIGHT_HAND_2
from tests.web.conftest import Server

SIDES = ["Ana & Cleo", "Ben & Dev"]


def new_game(server: Server, **body: Any) -> int:
    r = server.post("/api/games", json={"sides": SIDES, "rules": "classic", "target": 5000, **body})
    assert r.status_code == 200, r.text
    return int(r.json()["id"])


def pdf_text(content: bytes) -> str:
    import io

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def winning_hand() -> dict[str, Any]:
    """Ana & Cleo: 1,000 km, all four safeties as coups fourrés, shut-out: 4,100 points."""
    return {"goal": 1000, "draw_pile_empty_at_finish": True, "sides": [
        {"side": "Ana & Cleo", "distance": {"100": 8, "200": 1},
         "safeties": {s: "coup_fourre" for s in ("right_of_way", "extra_tank", "puncture_proof", "driving_ace")}},
        {"side": "Ben & Dev", "distance": {}}]}


# -- pages -----------------------------------------------------------------------


def test_pages_and_docs_are_served(server: Server) -> None:
    home = server.get("/")
    assert home.status_code == 200 and "text/html" in home.headers["content-type"]
    assert "/static/app.js" in home.text
    assert server.get("/new").status_code == 200
    assert server.get("/static/app.js").status_code == 200
    assert server.get("/static/style.css").status_code == 200
    docs = server.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    spec = server.get("/openapi.json").json()
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/hands",
                 "/api/games/{game_id}/hands/{number}", "/api/games/{game_id}/sheet.pdf"):
        assert path in spec["paths"]


def test_nothing_on_the_pages_comes_from_the_internet(server: Server) -> None:
    for path in ("/", "/static/app.js", "/static/style.css"):
        text = server.get(path).text
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text, path


# -- the contract's calls -----------------------------------------------------------


def test_create_game_exactly_as_the_contract_writes_it(server: Server) -> None:
    r = server.post("/api/games", json={"sides": ["A", "B"], "rules": "classic", "target": 5000})
    assert r.status_code == 200
    game = server.get(f"/api/games/{r.json()['id']}").json()
    assert [s["name"] for s in game["sides"]] == ["A", "B"]
    assert (game["rules"], game["target"], game["hands"], game["winner"]) == ("classic", 5000, [], None)
    assert game["totals"] == {"A": 0, "B": 0}


def test_tallynight_hands_post_get_and_totals(server: Server) -> None:
    gid = new_game(server)
    r = server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    assert r.status_code == 200, r.text
    hand = r.json()
    assert hand["number"] == 1
    assert {s["side"]: s["total"] for s in hand["score"]["sides"]} == {"Ana & Cleo": 2200, "Ben & Dev": 675}
    items = {s["side"]: s["items"] for s in hand["score"]["sides"]}["Ana & Cleo"]
    assert items == {"distance": 1000, "safeties": 200, "all_safeties": 0, "coups_fourres": 300, "trip": 400,
                     "delayed_action": 300, "safe_trip": 0, "shut_out": 0, "extension": 0}
    assert hand["revision"] == 1 and r.headers["ETag"] == '"1"'
    r = server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_2)
    assert r.json()["totals"] == {"Ana & Cleo": 2950, "Ben & Dev": 2475}
    game = server.get(f"/api/games/{gid}").json()
    assert game["totals"] == {"Ana & Cleo": 2950, "Ben & Dev": 2475}
    assert [h["number"] for h in game["hands"]] == [1, 2]
    assert game["hands"][0]["record"]["sides"][0]["safeties"] == {"right_of_way": "played", "puncture_proof": "coup_fourre"}
    assert game["hands"][1]["points"] == {"Ana & Cleo": 750, "Ben & Dev": 1800}


def test_put_replaces_a_hand_and_retotals(server: Server) -> None:
    gid = new_game(server)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_2)
    fixed = copy.deepcopy(TALLYNIGHT_HAND_1)
    fixed["draw_pile_empty_at_finish"] = False  # no delayed action after all: 300 less
    r = server.put(f"/api/games/{gid}/hands/1", json=fixed)
    assert r.status_code == 200, r.text
    assert r.json()["number"] == 1 and r.json()["points"]["Ana & Cleo"] == 1900
    assert server.get(f"/api/games/{gid}").json()["totals"] == {"Ana & Cleo": 2650, "Ben & Dev": 2475}


def test_delete_removes_a_hand_and_later_hands_move_up(server: Server) -> None:
    gid = new_game(server)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_2)
    r = server.delete(f"/api/games/{gid}/hands/1")
    assert r.status_code == 200
    game = server.get(f"/api/games/{gid}").json()
    assert len(game["hands"]) == 1 and game["totals"] == {"Ana & Cleo": 750, "Ben & Dev": 1800}


def test_sheet_pdf_holds_the_totals(server: Server) -> None:
    gid = new_game(server, name="Tallynight")
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_2)
    r = server.get(f"/api/games/{gid}/sheet.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    text = pdf_text(r.content)
    for expected in ("Tallynight", "Ana & Cleo", "Ben & Dev", "2,200", "675", "1,800", "750", "2,950", "2,475",
                     "Delayed action", "Coups fourrés", "Running total"):
        assert expected in text, expected


def test_blank_sheet_pdf(server: Server) -> None:
    r = server.get("/api/sheets/blank.pdf", params={"sides": ["North", "South"], "hands": 3})
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    text = pdf_text(r.content)
    assert "North" in text and "Hand 3" in text and "Safe trip" in text


# -- more routes -------------------------------------------------------------------


def test_list_undo_history_and_exports(server: Server) -> None:
    gid = new_game(server)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_2)
    listed = {g["id"]: g for g in server.get("/api/games").json()}
    assert listed[gid]["hands"] == 2 and listed[gid]["totals"]["Ana & Cleo"] == 2950
    r = server.post(f"/api/games/{gid}/undo")
    assert r.status_code == 200 and len(r.json()["hands"]) == 1
    assert [c["action"] for c in server.get(f"/api/games/{gid}/history").json()] == ["create", "add", "add", "undo"]
    exported = server.get(f"/api/games/{gid}/export.json")
    assert json.loads(exported.content)["totals"] == {"Ana & Cleo": 2200, "Ben & Dev": 675}
    csv = server.get(f"/api/games/{gid}/export.csv")
    assert csv.headers["content-type"].startswith("text/csv") and "Ana & Cleo" in csv.text
    fresh = new_game(server)
    r = server.post(f"/api/games/{fresh}/undo")
    assert r.status_code == 409 and "undo" in r.json()["message"]


def test_rules_and_setup_preview(server: Server) -> None:
    rules = {r["name"]: r for r in server.get("/api/rules").json()}
    assert set(rules) == {"classic", "classic-swapped", "teamzy", "dujardin-2024", "dujardin-2025"}
    assert rules["classic"]["description"] and rules["classic-swapped"]["values"]["safe_trip"] == 500
    four = server.get("/api/setup", params={"players": ["Ana", "Ben", "Cleo", "Dev"]}).json()
    assert [s["name"] for s in four["sides"]] == ["Ana & Ben", "Cleo & Dev"] and four["goal"] == 1000
    assert not four["extension"]
    three = server.get("/api/setup", params={"players": ["Ana", "Ben", "Cleo"]}).json()
    assert (len(three["sides"]), three["goal"], three["extension"]) == (3, 700, True)
    drawn = server.get("/api/setup", params={"players": ["Ana", "Ben", "Cleo", "Dev"], "draw_teams": "true",
                                             "seed": 7}).json()
    assert sorted(p for s in drawn["sides"] for p in s["players"]) == ["Ana", "Ben", "Cleo", "Dev"]


def test_create_from_players_with_teams_goal_and_extension(server: Server) -> None:
    r = server.post("/api/games", json={"players": ["Ana", "Ben", "Cleo", "Dev"],
                                        "teams": [["Ana", "Cleo"], ["Ben", "Dev"]], "name": "Friday"})
    game = server.get(f"/api/games/{r.json()['id']}").json()
    assert [s["name"] for s in game["sides"]] == SIDES and game["name"] == "Friday"
    assert (game["goal"], game["extension"]) == (1000, False)
    r = server.post("/api/games", json={"players": ["Ana", "Ben"], "rules": "teamzy", "target": 3000})
    game = server.get(f"/api/games/{r.json()['id']}").json()
    assert (game["rules"], game["target"], game["goal"]) == ("teamzy", 3000, 1000)
    r = server.post("/api/games", json={"players": ["Ana", "Ben", "Cleo"], "goal": 1000, "extension": False})
    game = server.get(f"/api/games/{r.json()['id']}").json()
    assert (game["goal"], game["extension"]) == (1000, False)


def test_extension_game_takes_a_called_extension(server: Server) -> None:
    r = server.post("/api/games", json={"players": ["Ana", "Ben"]})
    gid = r.json()["id"]
    hand = {"goal": 700, "extension_called_by": "Ana", "sides": [
        {"side": "Ana", "distance": {"100": 8, "200": 1}}, {"side": "Ben", "distance": {"50": 2}}]}
    r = server.post(f"/api/games/{gid}/hands", json=hand)
    assert r.status_code == 200, r.text
    ana = {s["side"]: s["items"] for s in r.json()["score"]["sides"]}["Ana"]
    assert (ana["trip"], ana["extension"]) == (400, 200)


# -- refusals -----------------------------------------------------------------------


def stored_hands(server: Server, gid: int) -> int:
    return len(server.get(f"/api/games/{gid}").json()["hands"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda h: h["sides"][0]["distance"].update({"200": 3}), "distance.200"),
        (lambda h: h["sides"][1]["distance"].update({"200": 2, "100": 5}), "distance"),
        (lambda h: h["sides"][1]["safeties"].update({"puncture_proof": "played"}), "safeties.puncture_proof"),
        (lambda h: h["sides"][0]["distance"].update({"300": 1}), "distance.300"),
        (lambda h: h["sides"][0]["safeties"].update({"driving_ace": "sideways"}), "safeties.driving_ace"),
        (lambda h: h.update({"goal": 800}), "goal"),
        (lambda h: h.update({"colour": "red"}), "colour"),
        (lambda h: h["sides"][1].update({"side": "Eve & Fay"}), "sides"),
        (lambda h: h.pop("sides"), "sides"),
    ],
)
def test_invalid_hand_is_422_naming_the_field_and_nothing_is_stored(server: Server, change: Any, field: str) -> None:
    gid = new_game(server)
    hand = copy.deepcopy(TALLYNIGHT_HAND_1)
    change(hand)
    r = server.post(f"/api/games/{gid}/hands", json=hand)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    assert detail["field"] == field and field in r.json()["message"]
    assert stored_hands(server, gid) == 0
    assert server.get(f"/api/games/{gid}").json()["revision"] == 0


def test_bodies_that_are_not_hands_are_422(server: Server) -> None:
    gid = new_game(server)
    for body in (b"not json", b"[1, 2]", b'"hand"', b"{}"):
        r = server.post(f"/api/games/{gid}/hands", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 422, body
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    bad = copy.deepcopy(TALLYNIGHT_HAND_2)
    bad["sides"][0]["distance"]["200"] = 5
    r = server.put(f"/api/games/{gid}/hands/1", json=bad)
    assert r.status_code == 422 and r.json()["detail"][0]["field"] == "distance.200"
    assert server.get(f"/api/games/{gid}").json()["hands"][0]["record"]["sides"][0]["distance"]["200"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"sides": ["A"]}, "sides"),
        ({"sides": ["A", "A"]}, "sides"),
        ({"sides": ["A", ""]}, "sides[1]"),
        ({"sides": ["A", "B"], "rules": "poker"}, "rules"),
        ({"sides": ["A", "B"], "target": 0}, "target"),
        ({"sides": ["A", "B"], "goal": 900}, "goal"),
        ({"sides": ["A", "B"], "colour": "red"}, "colour"),
        ({"players": ["Ana", "Ana"]}, "players"),
        ({"players": ["Ana", "Ben", "Cleo"], "team_size": 2}, "players"),
        ({}, "body"),
    ],
)
def test_invalid_game_is_422_naming_the_field(server: Server, body: dict[str, Any], field: str) -> None:
    before = len(server.get("/api/games").json())
    r = server.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert field in json.dumps(r.json()["detail"])
    assert len(server.get("/api/games").json()) == before


WRITES = [
    ("post", "/api/games", {"sides": ["A", "B"]}),
    ("post", "/api/games/{gid}/hands", TALLYNIGHT_HAND_1),
    ("put", "/api/games/{gid}/hands/1", TALLYNIGHT_HAND_1),
    ("delete", "/api/games/{gid}/hands/1", None),
    ("post", "/api/games/{gid}/undo", None),
]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_writes_need_the_token(server: Server, method: str, path: str, body: Any) -> None:
    gid = new_game(server)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_2)
    url = server.url + path.format(gid=gid)
    kwargs: dict[str, Any] = {"json": body} if body is not None else {}
    missing = httpx.request(method, url, timeout=10, **kwargs)
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"] == "Bearer"
    wrong = httpx.request(method, url, headers={"Authorization": "Bearer nope"}, timeout=10, **kwargs)
    assert wrong.status_code == 403
    not_bearer = httpx.request(method, url, headers={"Authorization": f"Basic {server.token}"}, timeout=10, **kwargs)
    assert not_bearer.status_code == 401
    game = server.get(f"/api/games/{gid}").json()
    assert game["revision"] == 1 and len(game["hands"]) == 1


def test_unknown_ids_are_404(server: Server) -> None:
    gid = new_game(server)
    for path in ("/api/games/999999", "/api/games/abc", "/api/games/999999/sheet.pdf", "/api/games/999999/history",
                 "/api/games/999999/export.csv", "/api/games/999999/export.json", "/api/games/999999/events"):
        assert server.get(path).status_code == 404, path
    assert server.post("/api/games/999999/hands", json=TALLYNIGHT_HAND_1).status_code == 404
    assert server.put("/api/games/999999/hands/1", json=TALLYNIGHT_HAND_1).status_code == 404
    assert server.delete("/api/games/999999/hands/1").status_code == 404
    assert server.post("/api/games/999999/undo").status_code == 404
    assert server.put(f"/api/games/{gid}/hands/1", json=TALLYNIGHT_HAND_1).status_code == 404
    assert server.put(f"/api/games/{gid}/hands/x", json=TALLYNIGHT_HAND_1).status_code == 404
    assert server.delete(f"/api/games/{gid}/hands/3").status_code == 404


def test_stale_edits_are_409_and_change_nothing(server: Server) -> None:
    gid = new_game(server)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    seen = server.get(f"/api/games/{gid}").json()["revision"]
    assert server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_2, headers={"If-Match": f'"{seen}"'}).status_code == 200
    fixed = copy.deepcopy(TALLYNIGHT_HAND_1)
    fixed["draw_pile_empty_at_finish"] = False
    r = server.put(f"/api/games/{gid}/hands/1", json=fixed, headers={"If-Match": f'"{seen}"'})
    assert r.status_code == 409
    assert (r.json()["expected"], r.json()["actual"]) == (seen, seen + 1) and "changed" in r.json()["message"]
    assert server.delete(f"/api/games/{gid}/hands/2", params={"revision": seen}).status_code == 409
    assert server.post(f"/api/games/{gid}/undo", headers={"If-Match": str(seen)}).status_code == 409
    game = server.get(f"/api/games/{gid}").json()
    assert game["totals"] == {"Ana & Cleo": 2950, "Ben & Dev": 2475} and game["revision"] == seen + 1
    assert server.put(f"/api/games/{gid}/hands/1", json=fixed, headers={"If-Match": "W/\"2\""}).status_code == 200


def test_a_hand_after_the_game_is_won_is_409(server: Server) -> None:
    gid = new_game(server)
    for _ in range(2):
        assert server.post(f"/api/games/{gid}/hands", json=winning_hand()).status_code == 200
    game = server.get(f"/api/games/{gid}").json()
    assert (game["winner"], game["finished_after_hand"], game["totals"]["Ana & Cleo"]) == ("Ana & Cleo", 2, 8200)
    r = server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    assert r.status_code == 409 and "won the game" in r.json()["message"]
    assert len(server.get(f"/api/games/{gid}").json()["hands"]) == 2


# -- live updates ----------------------------------------------------------------------


def read_events(url: str, found: list[dict[str, Any]], ready: threading.Event, stop_after: int) -> None:
    with httpx.stream("GET", url, timeout=15) as r:
        event = ""
        for line in r.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
                if event == "hello":
                    ready.set()
            elif line.startswith("data: ") and event == "game":
                found.append(json.loads(line[6:]))
                if len(found) >= stop_after:
                    return


def test_changes_stream_to_every_event_client(server: Server) -> None:
    gid = new_game(server)
    streams = []
    for url in (f"{server.url}/api/events", f"{server.url}/api/games/{gid}/events"):
        found: list[dict[str, Any]] = []
        ready = threading.Event()
        thread = threading.Thread(target=read_events, args=(url, found, ready, 2), daemon=True)
        thread.start()
        assert ready.wait(10)
        streams.append((thread, found))
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_1)
    server.post(f"/api/games/{gid}/hands", json=TALLYNIGHT_HAND_2)
    for thread, found in streams:
        thread.join(10)
        assert [e["kind"] for e in found] == ["add", "add"]
        assert found[-1]["game"]["totals"] == {"Ana & Cleo": 2950, "Ben & Dev": 2475}
        assert found[-1]["revision"] == 2 and found[-1]["hand"] == 2


def test_the_token_can_come_from_the_environment(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys

    from tests.web.conftest import free_port

    port = free_port()
    env = {**os.environ, "BORNE_TOKEN": "from-env"}
    proc = subprocess.Popen([sys.executable, "-m", "borne", "serve", "--port", str(port), "--db", str(tmp_path / "g.db")],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx.get(url + "/api/rules", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        body = {"sides": ["A", "B"]}
        assert httpx.post(url + "/api/games", json=body, headers={"Authorization": "Bearer from-env"}).status_code == 200
        assert httpx.post(url + "/api/games", json=body, headers={"Authorization": "Bearer x"}).status_code == 403
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_generated_token_is_printed_at_start(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys

    from tests.web.conftest import free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "BORNE_TOKEN"}
    proc = subprocess.Popen([sys.executable, "-m", "borne", "serve", "--port", str(port), "--db", str(tmp_path / "g.db")],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        token_line = next(line for line in lines if line.startswith("Token"))
        token = token_line.split(":", 1)[1].split()[0]
        r = httpx.post(f"http://127.0.0.1:{port}/api/games", json={"sides": ["A", "B"]},
                       headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)
