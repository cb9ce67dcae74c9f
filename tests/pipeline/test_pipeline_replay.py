"""End to end: a rendered hand replayed through the live pipeline (its landings read by the shipped recogniser;
the true boxes only for the first view) gives the hand's true facts and one event per distance card and safety."""

from __future__ import annotations

import json

import pytest

from borne.cli import main
from datasets.scene import SceneSpec
from datasets.sequence import generate_sequence
from vision.feeding import run_source
from vision.pipeline import Pipeline
from vision.read.frame_reader import FrameReader
from vision.read.models import recogniser_path
from vision.read.recogniser import FaceRecogniser
from vision.read.replay_detector import TruthReplayDetector
from vision.sources import FolderSource, VideoFileSource
from vision.table.layout import TableLayout

SEED = 5005
"""A short hand (112 frames, 12 distance cards and safeties); the bench uses other seeds."""


@pytest.fixture(scope="module")
def sequence(tmp_path_factory):
    out = tmp_path_factory.mktemp("sequence")
    summary = generate_sequence(out, seed=SEED, spec=SceneSpec(width=640, height=360), progress=False)
    assert summary["video"] is not None
    return out


def scored_plays(folder):
    return [e for e in json.loads((folder / "events.json").read_text()) if e["pile"] in ("distance", "safeties")]


def check_against_truth(out: dict, folder) -> None:
    truth = json.loads((folder / "hand.json").read_text())
    assert out["sides"] == [{k: s[k] for k in ("side", "distance", "safeties")} for s in truth["sides"]]
    assert out["hand"] == truth
    plays = scored_plays(folder)
    assert [(e["side"], e["card"], e["sideways"]) for e in out["events"]] == \
        [(e["side"], e["card"], e["sideways"]) for e in plays]
    # a card is read once the arm that laid it has left: within 0.6 s of the frame it was laid in (10 frames/s)
    assert all(0 <= e["frame"] - t["frame"] <= 6 for e, t in zip(out["events"], plays))
    assert out["flags"] == []


def test_a_replayed_hand_gives_the_true_record_and_events(sequence):
    detector = TruthReplayDetector(sequence / "truth")
    reader = FrameReader(detector, FaceRecogniser.load(recogniser_path("generic")))
    pipeline = Pipeline(reader, TableLayout.from_file(sequence / "layout.json"), before_read=detector.seek)
    run_source(FolderSource(sequence / "frames"), pipeline)
    check_against_truth(pipeline.replay_json(), sequence)
    kinds = [e.kind for e in pipeline.log]
    assert kinds[0] == "hand_started" and kinds[-1] == "hand_pending"
    assert kinds.count("card_played") == len(scored_plays(sequence))


def test_borne_replay_reads_a_folder_of_frames(sequence, capsys):
    status = main(["replay", str(sequence / "frames"), "--layout", str(sequence / "layout.json"),
                   "--truth-boxes", str(sequence / "truth")])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"sides", "draw_pile", "events"}
    check_against_truth(out, sequence)


def test_borne_replay_reads_a_video(sequence, capsys):
    video = next(p for p in (sequence / "video.mp4", sequence / "video.avi") if p.is_file())
    assert len(list(VideoFileSource(video).frames())) == len(list((sequence / "frames").iterdir()))
    status = main(["replay", str(video), "--layout", str(sequence / "layout.json"),
                   "--truth-boxes", str(sequence / "truth")])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    truth = json.loads((sequence / "hand.json").read_text())
    assert out["hand"]["sides"] == truth["sides"]
    assert len(out["events"]) == len(scored_plays(sequence))


@pytest.mark.parametrize("make", ["missing", "empty folder", "not a video"])
def test_borne_replay_refuses_a_bad_source_with_one_line(sequence, tmp_path, capsys, make):
    if make == "missing":
        source = tmp_path / "nowhere.mp4"
    elif make == "empty folder":
        source = tmp_path / "frames"
        source.mkdir()
    else:
        source = tmp_path / "hand.mp4"
        source.write_text("no video here")
    status = main(["replay", str(source), "--layout", str(sequence / "layout.json")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("borne replay: ") and str(source) in err and err.count("\n") == 1


def test_borne_replay_refuses_a_bad_layout(sequence, tmp_path, capsys):
    layout = tmp_path / "layout.json"
    layout.write_text("{}")
    assert main(["replay", str(sequence / "frames"), "--layout", str(layout)]) == 2
    assert "layout" in capsys.readouterr().err
