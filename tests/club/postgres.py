"""A throwaway PostgreSQL cluster on loopback (the club's tests and ``bench/bench_club.py`` start one).

The cluster lives in a temporary folder, listens on 127.0.0.1 on a free port (and a socket in that folder),
trusts only loopback connections, and is stopped at the end. PostgreSQL refuses to run as root, so when
started by root the server runs as Debian's ``postgres`` system user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


class ClusterError(RuntimeError):
    """PostgreSQL is missing or did not start."""


SUPERUSER = "postgres"
"""The cluster's superuser (initdb ``-U``), whoever runs it."""
START_TRIES = 3
"""Free ports are taken between asking and binding now and then: try that many."""


@dataclass(frozen=True)
class PostgresCluster:
    """A running throwaway cluster."""

    port: int
    """The loopback TCP port it listens on."""
    folder: Path
    """The temporary folder of its data, log, socket and ``pg_hba.conf`` (removed at the end)."""

    def url(self, database: str = "postgres") -> str:
        """A URL of ``database`` on this cluster, as its superuser (trusted on loopback)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"


def postgres_bindir() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: ``pg_config --bindir``, else the newest /usr/lib/postgresql/*/bin."""
    candidates = []
    if shutil.which("pg_config"):
        done = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=False)
        if done.returncode == 0 and done.stdout.strip():
            candidates.append(Path(done.stdout.strip()))
    found = glob.glob("/usr/lib/postgresql/*/bin")
    candidates += sorted((Path(p) for p in found), key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
                         reverse=True)
    for folder in candidates:
        if (folder / "pg_ctl").exists() and (folder / "initdb").exists():
            return folder
    raise ClusterError("PostgreSQL is not installed (no initdb and pg_ctl found): run `make test`, which installs "
                       "Debian's postgresql for the club's tests")


def _as_server_user(command: list[str]) -> list[str]:
    """``command`` run as the unprivileged user that owns the cluster (``postgres`` when we are root)."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(_as_server_user(command), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ClusterError(f"{what} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")


@contextmanager
def running_cluster(*, durable: bool = False) -> Iterator[PostgresCluster]:
    """A started cluster, stopped on leaving; ``durable`` keeps PostgreSQL's fsync (the tests turn it off).

    :raises ClusterError: no PostgreSQL, no ``postgres`` user to run it as root, or it did not start.
    """
    bindir = postgres_bindir()
    folder = Path(tempfile.mkdtemp(prefix="borne-pg-"))
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            raise ClusterError("run as root but there is no `postgres` user to run PostgreSQL: run `make test`, "
                               "which installs Debian's postgresql") from None
        os.chown(folder, user.pw_uid, user.pw_gid)
    data = folder / "data"
    try:
        _run([str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--locale=C",
              "--no-sync"], "initdb")
        # Trust loopback TCP only: no socket login, no other host.
        (folder / "pg_hba.conf").write_text("host all all 127.0.0.1/32 trust\n")
        if os.geteuid() == 0:
            os.chown(folder / "pg_hba.conf", user.pw_uid, user.pw_gid)
        options = "" if durable else "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        for attempt in range(1, START_TRIES + 1):
            port = _free_port()
            done = subprocess.run(_as_server_user([
                str(bindir / "pg_ctl"), "start", "-D", str(data), "-w", "-t", "60", "-l", str(folder / "server.log"),
                "-o", f"-h 127.0.0.1 -p {port} -k {folder} -c hba_file={folder / 'pg_hba.conf'} {options}",
            ]), capture_output=True, text=True, check=False)
            if done.returncode == 0:
                break
            if attempt == START_TRIES:
                log = (folder / "server.log").read_text(errors="replace")[-2000:] if (folder / "server.log").exists() else ""
                raise ClusterError(f"PostgreSQL did not start: {done.stderr.strip()}\n{log}")
        yield PostgresCluster(port=port, folder=folder)
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(_as_server_user([str(bindir / "pg_ctl"), "stop", "-D", str(data), "-m", "fast", "-w"]),
                           capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)
