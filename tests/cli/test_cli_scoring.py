"""``borne score``, ``borne game`` and ``borne export`` as a user runs them: real processes, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from scoring.game import GameSetup
from scoring.storage import GameStore
from tests.examples import TALLYNIGHT_HAND_1, TALLYNIGHT_HAND_2

HAND_1 = TALLYNIGHT_HAND_1
HAND_2 = TALLYNIGHT_HAND_2


def borne(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "borne", *args], input=data, capture_output=True, timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_score_prints_the_contract_json(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND_1))
    out = borne("score", str(path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["rules"] == "classic"
    assert result["winner"] == "Ana & Cleo"
    ana, ben = result["sides"]
    assert ana["items"] == {"distance": 1000, "safeties": 200, "all_safeties": 0, "coups_fourres": 300, "trip": 400,
                            "delayed_action": 300, "safe_trip": 0, "shut_out": 0, "extension": 0}
    assert (ana["total"], ben["total"]) == (2200, 675)
    assert out.stderr == b""


def test_score_reads_stdin_and_takes_rules():
    out = borne("score", "-", "--rules", "dujardin-2024", stdin=json.dumps(HAND_1))
    assert out.returncode == 0
    ana = json.loads(out.stdout)["sides"][0]
    assert ana["items"]["delayed_action"] == 0 and ana["total"] == 1900


def test_game_prints_totals_after_each_hand():
    game = {"sides": ["Ana & Cleo", "Ben & Dev"], "hands": [HAND_1, HAND_2]}
    out = borne("game", "-", stdin=json.dumps(game))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "totals_after_each_hand": [{"Ana & Cleo": 2200, "Ben & Dev": 675}, {"Ana & Cleo": 2950, "Ben & Dev": 2475}],
        "totals": {"Ana & Cleo": 2950, "Ben & Dev": 2475},
        "winner": None,
        "finished_after_hand": None,
    }
    out = borne("game", "-", "--target", "2500", stdin=json.dumps(game))
    assert json.loads(out.stdout)["winner"] == "Ana & Cleo"
    assert json.loads(out.stdout)["finished_after_hand"] == 2


def test_game_refuses_hands_after_the_game_was_won():
    game = {"sides": ["Ana & Cleo", "Ben & Dev"], "hands": [HAND_1, HAND_2]}
    out = borne("game", "-", "--target", "2000", stdin=json.dumps(game))
    assert out.returncode == 2
    assert b"hands[1]" in out.stderr and b"won the game after hand 1" in out.stderr
    assert out.stdout == b""


BAD_INPUTS = [
    ("empty file", b""),
    ("whitespace", b"  \n"),
    ("malformed JSON", b'{"goal": 1000, "sides": ['),
    ("not UTF-8", b"\xff\xfe\x00{"),
    ("a list", b"[]"),
    ("wrong type", json.dumps({**HAND_1, "goal": "1000"}).encode()),
    ("unknown card", json.dumps({**HAND_1, "sides": [{"side": "A", "safeties": {"rocket": "played"}}, {"side": "B"}]})
     .encode()),
    ("huge number", json.dumps({**HAND_1, "sides": [{"side": "A", "distance": {"25": 10**100}}, {"side": "B"}]})
     .encode()),
    ("huge float", b'{"goal": 1e999, "sides": []}'),
    ("deep nesting", b"[" * 100_000),
    ("three 200s", json.dumps({"goal": 1000, "sides": [{"side": "A", "distance": {"200": 3}}, {"side": "B"}]})
     .encode()),
]


@pytest.mark.parametrize(("what", "data"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
@pytest.mark.parametrize("command", ["score", "game"])
def test_bad_input_exits_2_with_one_clear_line(tmp_path, what, data, command):
    path = tmp_path / "input.json"
    path.write_bytes(data)
    out = borne(command, str(path))
    assert out.returncode == 2
    assert out.stdout == b""
    lines = out.stderr.decode().strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(f"borne {command}: ")
    assert "Traceback" not in lines[0]


@pytest.mark.parametrize("path", ["missing.json", "."])
def test_missing_files_and_directories_are_refused(tmp_path, path):
    out = subprocess.run([sys.executable, "-m", "borne", "score", path], cwd=tmp_path, capture_output=True)
    assert out.returncode == 2 and len(out.stderr.decode().strip().splitlines()) == 1


def test_unknown_rules_is_a_usage_error():
    out = borne("score", "-", "--rules", "parker", stdin=json.dumps(HAND_1))
    assert out.returncode == 2 and b"invalid choice" in out.stderr


def command_paths() -> list[tuple[str, ...]]:
    """Every sub-command of ``borne``, nested ones too (``cards export``)."""
    import argparse

    from borne.cli import build_parser

    def walk(parser: argparse.ArgumentParser, prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.append((*prefix, name))
                    found.extend(walk(sub, (*prefix, name)))
        return found

    return walk(build_parser(), ())


def test_the_contract_commands_exist():
    assert {("score",), ("game",)} <= set(command_paths())


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_every_subcommand_has_help(path):
    out = borne(*path, "--help")
    assert out.returncode == 0 and b"usage: borne " + " ".join(path).encode() in out.stdout


def test_scoring_commands_do_not_import_vision_or_web_frameworks(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND_1))
    code = (
        "import sys, runpy; sys.argv = ['borne', 'score', sys.argv[1]];\n"
        "from borne.cli import main; rc = main(sys.argv[1:]);\n"
        "heavy = [m for m in ('cv2', 'onnxruntime', 'fastapi', 'starlette', 'numpy', 'torch', 'ultralytics')"
        " if m in sys.modules]\n"
        "print('HEAVY', heavy, file=sys.stderr); sys.exit(rc)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert out.returncode == 0
    assert "HEAVY []" in out.stderr


def test_export_writes_a_stored_game_as_json_and_csv(tmp_path):
    db = tmp_path / "games.sqlite3"
    from scoring.hand import HandRecord

    with GameStore(db) as store:
        setup = GameSetup.for_players(["Ana", "Ben", "Cleo", "Dev"], teams=[["Ana", "Cleo"], ["Ben", "Dev"]])
        gid = store.create_game(setup).id
        store.add_hand(gid, HandRecord.from_json(HAND_1))
        store.add_hand(gid, HandRecord.from_json(HAND_2))
    out = borne("export", str(gid), "--db", str(db))
    assert out.returncode == 0
    assert json.loads(out.stdout)["totals"] == {"Ana & Cleo": 2950, "Ben & Dev": 2475}
    out = borne("export", str(gid), "--db", str(db), "--format", "csv")
    assert out.stdout.decode().splitlines()[-1].endswith(",2475")
    out = borne("export", "99", "--db", str(db))
    assert out.returncode == 2 and b"no game 99" in out.stderr
    out = borne("export", "1", "--db", str(tmp_path / "nope.sqlite3"))
    assert out.returncode == 2 and not (tmp_path / "nope.sqlite3").exists()
