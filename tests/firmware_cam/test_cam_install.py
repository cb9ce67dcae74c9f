"""The install and uninstall scripts, as far as this machine allows: the files an install writes (under
``--root``, without apt, pip or systemctl), kept settings on a second run, and what uninstall leaves.
And the agent's imports: the runtime only (no torch, no ultralytics, no data engine)."""

from __future__ import annotations

import re
import stat
import subprocess
import sys
from pathlib import Path

from firmware_cam.config import CamConfig

SCRIPTS = Path(__file__).resolve().parents[2] / "firmware_cam" / "install"


def install(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPTS / "install.sh"), "--root", str(root), "--no-apt", "--no-venv", *args],
                          capture_output=True, text=True, timeout=60)


def test_an_install_writes_a_unit_that_starts_at_boot_and_settings_with_a_token(tmp_path: Path) -> None:
    r = install(tmp_path, "--source", "0", "--port", "8090", "--name", "kitchen-cam")
    assert r.returncode == 0, r.stderr
    unit = (tmp_path / "etc/systemd/system/borne-cam.service").read_text()
    for line in ("ExecStart=/opt/borne-cam/venv/bin/borne-cam --config /etc/borne-cam.toml", "Restart=on-failure",
                 "WantedBy=multi-user.target", "User=borne-cam", "SupplementaryGroups=video", "Type=notify",
                 "WatchdogSec=30", "After=network-online.target"):
        assert line in unit.splitlines(), line
    assert re.search(r"@[A-Z]+@", unit) is None  # every placeholder filled
    config_path = tmp_path / "etc/borne-cam.toml"
    config = CamConfig.from_file(config_path)  # the agent accepts what the installer wrote
    assert (config.camera.source, config.server.port, config.server.name) == ("0", 8090, "kitchen-cam")
    assert config.server.token is not None and len(config.server.token) >= 20
    assert stat.S_IMODE(config_path.stat().st_mode) & 0o007 == 0  # the token is not for every user
    assert f"stream.mjpg?token={config.server.token}" in r.stdout
    # a second install keeps the settings (and so the token the laptops know)
    again = install(tmp_path, "--port", "9999")
    assert again.returncode == 0 and "keeping the settings" in again.stdout
    assert CamConfig.from_file(config_path).server.token == config.server.token


def test_uninstall_removes_the_unit_and_keeps_the_token_unless_purged(tmp_path: Path) -> None:
    assert install(tmp_path).returncode == 0
    (tmp_path / "opt/borne-cam/venv/bin").mkdir(parents=True)  # as if the venv had been made
    uninstall = [str(SCRIPTS / "uninstall.sh"), "--root", str(tmp_path)]
    r = subprocess.run(["bash", *uninstall], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "etc/systemd/system/borne-cam.service").exists()
    assert not (tmp_path / "opt/borne-cam").exists()
    assert (tmp_path / "etc/borne-cam.toml").is_file() and "--purge removes it" in r.stdout
    r = subprocess.run(["bash", *uninstall, "--purge"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and not (tmp_path / "etc/borne-cam.toml").exists()


def test_the_scripts_refuse_what_they_do_not_know(tmp_path: Path) -> None:
    r = install(tmp_path, "--frobnicate")
    assert r.returncode == 2 and "unknown option --frobnicate" in r.stderr
    r = install(tmp_path, "--port", "eighty")
    assert r.returncode == 2 and "--port must be a number" in r.stderr
    r = subprocess.run(["bash", str(SCRIPTS / "uninstall.sh"), "--root", str(tmp_path), "--prefix", "/usr"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "refusing to remove --prefix /usr" in r.stderr


def test_the_agent_imports_the_runtime_only() -> None:
    code = ("import sys, firmware_cam.cli, firmware_cam.agent, firmware_cam.server, firmware_cam.discovery, "
            "firmware_cam.cameras, firmware_cam.system, cv2, zeroconf; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'ultralytics', 'datasets', "
            "'torchvision', 'fastapi', 'onnxruntime')); print(','.join(bad))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ""
