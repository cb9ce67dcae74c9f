"""Every operation of the OpenAPI document, fuzzed by schemathesis against a real ``borne serve``: no 5xx;
then the characters that broke the server before, in every place a client can put text.

A bounded budget (``BORNE_FUZZ_EXAMPLES`` per operation, 40 by default, derandomized so a run is
repeatable) keeps it to about a minute in ``make test``; raise it to search longer. Writes carry the
token, so the fuzzer reaches the routes instead of the gate; the event streams never end and are left out.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.generation.modes import GenerationMode

from tests.examples import TALLYNIGHT_HAND_1
from tests.web.conftest import Server

FUZZ_EXAMPLES = int(os.environ.get("BORNE_FUZZ_EXAMPLES", "40"))

NO_SHRINKING = (Phase.explicit, Phase.generate)
"""Every failing request is listed as it was sent; shrinking one against a live server could take minutes."""


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("fuzz") / "games.sqlite3")
    srv.start()
    for _ in range(2):  # games 1 and 2 exist, with a hand, so ids the fuzzer tries reach real games
        game_id = srv.post("/api/games", json={"sides": ["Ana & Cleo", "Ben & Dev"]}).json()["id"]
        srv.post(f"/api/games/{game_id}/hands", json=TALLYNIGHT_HAND_1)
    yield srv
    srv.stop()


def test_no_operation_answers_a_server_error(fuzzed_server: Server) -> None:
    # schemathesis's own pytest decorator does not run under pytest 9 yet; its strategies do, per operation
    schema = schemathesis.openapi.from_url(fuzzed_server.url + "/openapi.json").exclude(path_regex=r"/events$")
    failures: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        # data that fits the document and data that does not (wrong types, missing fields, odd strings), and
        # the same on the stored games: a generated id is almost never one, and would stop at the 404
        strategies = [operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)]
        names = {p.name for p in operation.path_parameters}
        if names:
            real = {k: v for k, v in {"game_id": "1", "number": "1"}.items() if k in names}
            strategies += [operation.as_strategy(mode, path_parameters=real) for mode in GenerationMode]
        cases = st.one_of(strategies)

        @given(case=cases)
        @settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck), phases=NO_SHRINKING)
        def fuzz(case: Any) -> None:
            case.headers = {**(case.headers or {}), **fuzzed_server.auth}  # a fuzzed token would only meet the gate
            response = case.call(timeout=10)
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path} {case.path_parameters} {case.query} "
                                f"{case.headers} {str(case.body)[:200]} → {response.status_code}: {response.text[:200]}")

        fuzz()
    assert operations >= 20
    assert failures == []
    assert fuzzed_server.get("/api/games").status_code == 200


# Characters that broke the server before (issue 15): digits that are not ASCII, lone surrogates, controls,
# direction overrides, spreadsheet formula starts, quotes; mixed with plain digits so ids and values look real.
ODD_CHARACTERS = "²¹١٢５１0125=+-@\t\r \"'\\/%é\x00\x1b\u202e\ud800\udfff"
odd_text = st.text(alphabet=ODD_CHARACTERS, min_size=1, max_size=6)


def in_path(text: str) -> str:
    from urllib.parse import quote

    return quote(text.encode("utf-8", "surrogatepass"), safe="")  # a lone surrogate as the bytes a client could send


def in_header(text: str) -> bytes:
    """What of ``text`` a header can carry (latin-1, no controls, no spaces at the ends); the server reads latin-1."""
    value = bytes(b for b in text.encode("latin-1", "replace") if b >= 0x20 and b != 0x7F).strip()
    return value or b"0"


def odd_request(server: Server, where: str, text: str) -> httpx.Response:
    """One request with ``text`` in the place ``where`` names, to game 1 (which exists, with a hand)."""
    json_headers = {**server.auth, "Content-Type": "application/json"}
    hand = {"goal": 1000, "sides": [{"side": "Ana & Cleo", "distance": {"25": 1}}, {"side": "Ben & Dev"}]}
    if where == "game id":
        return httpx.get(f"{server.url}/api/games/{in_path(text)}", timeout=10)
    if where == "sheet id":
        return httpx.get(f"{server.url}/api/games/{in_path(text)}/sheet.pdf", timeout=10)
    if where == "hand number":
        return httpx.delete(f"{server.url}/api/games/1/hands/{in_path(text)}", headers=server.auth, timeout=10)
    if where == "If-Match":
        return httpx.put(f"{server.url}/api/games/1/hands/1", headers={**json_headers, "If-Match": in_header(text)},
                         content=json.dumps(hand), timeout=10)
    if where == "distance value":
        hand["sides"][0]["distance"] = {text: 1}
    elif where == "field name":
        hand["sides"][0][text] = 1
    elif where == "side name":
        hand["sides"][0]["side"] = text
    else:
        body = {"sides": [text, "B"], "name": text} if where == "game names" else {"sides": ["A", "B"], "name": text}
        return httpx.post(f"{server.url}/api/games", headers=json_headers, content=json.dumps(body), timeout=10)
    return httpx.post(f"{server.url}/api/games/1/hands", headers=json_headers, content=json.dumps(hand), timeout=10)


PLACES = ["game id", "sheet id", "hand number", "If-Match", "distance value", "field name", "side name", "game name",
          "game names"]


def test_odd_characters_anywhere_get_a_clear_refusal_never_a_server_error(fuzzed_server: Server) -> None:
    failures: list[str] = []

    @given(where=st.sampled_from(PLACES), text=odd_text)
    @settings(max_examples=FUZZ_EXAMPLES * 5, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck), phases=NO_SHRINKING)
    def fuzz(where: str, text: str) -> None:
        if len(failures) >= 10:
            return  # enough to go on; a hung server would otherwise take every example's timeout
        try:
            response = odd_request(fuzzed_server, where, text)
        except httpx.HTTPError as e:
            failures.append(f"{where} {text!r} → no answer ({type(e).__name__})")
            return
        if response.status_code >= 500:
            failures.append(f"{where} {text!r} → {response.status_code}")
        elif response.status_code in (400, 404, 409, 422):
            assert response.json()  # a refusal says why, in JSON that decodes

    fuzz()
    assert failures == []
