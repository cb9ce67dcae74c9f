"""``borne train`` on an install without the train extra: a clear refusal, and nothing written."""

from __future__ import annotations

import sys

import pytest

from borne.cli import main


@pytest.mark.parametrize(("model", "extra"), [("detector", "ultralytics"), ("reader", "torch")])
def test_training_without_the_train_extra_is_refused_before_anything_is_written(model, extra, tmp_path, monkeypatch,
                                                                                capsys):
    monkeypatch.setitem(sys.modules, extra, None)  # import of it fails as on an install without the extra
    build, models = tmp_path / "build", tmp_path / "models"
    assert main(["train", model, "--build", str(build), "--models", str(models)]) == 2
    assert "needs the train extra: pip install -e '.[train]'" in capsys.readouterr().err
    assert not build.exists() and not models.exists()
