"""Every operation of the OpenAPI document, fuzzed by schemathesis against a real ``borne serve``: no 5xx.

A bounded budget (``BORNE_FUZZ_EXAMPLES`` per operation, 40 by default, derandomized so a run is
repeatable) keeps it to about a minute in ``make test``; raise it to search longer. Writes carry the
token, so the fuzzer reaches the routes instead of the gate; the event streams never end and are left out.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation.modes import GenerationMode

from tests.examples import TALLYNIGHT_HAND_1
from tests.web.conftest import Server

FUZZ_EXAMPLES = int(os.environ.get("BORNE_FUZZ_EXAMPLES", "40"))


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
                  suppress_health_check=list(HealthCheck))
        def fuzz(case: Any) -> None:
            case.headers = {**(case.headers or {}), **fuzzed_server.auth}  # a fuzzed token would only meet the gate
            response = case.call(timeout=30)
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path} {case.path_parameters} {case.query} "
                                f"{case.headers} {str(case.body)[:200]} → {response.status_code}: {response.text[:200]}")

        fuzz()
    assert operations >= 20
    assert failures == []
    assert fuzzed_server.get("/api/games").status_code == 200
