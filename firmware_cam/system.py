"""The Pi's health where it reports it: the SoC temperature and the firmware's throttling flags.

Elsewhere (a laptop, a container) the values are ``None``. Reading them costs a file read and, at
most every :data:`THROTTLE_EVERY_S`, one ``vcgencmd`` call.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

THERMAL_ZONE = Path("/sys/class/thermal/thermal_zone0/temp")
THROTTLE_EVERY_S = 10.0

THROTTLE_BITS = {0: "under-voltage", 1: "arm frequency capped", 2: "throttled", 3: "soft temperature limit",
                 16: "under-voltage has occurred", 17: "frequency capping has occurred",
                 18: "throttling has occurred", 19: "soft temperature limit has occurred"}
"""``vcgencmd get_throttled``'s bits."""

_cache: dict[str, object] = {"at": -1e9, "value": None}
_lock = threading.Lock()


def temperature_c(zone: Path = THERMAL_ZONE) -> float | None:
    try:
        return round(int(zone.read_text().strip()) / 1000.0, 1)
    except (OSError, ValueError):
        return None


def parse_throttled(text: str) -> tuple[int, list[str]] | None:
    """``throttled=0x50005`` → the bits and their meanings.

    >>> parse_throttled("throttled=0x50005")
    (327685, ['under-voltage', 'throttled', 'under-voltage has occurred', 'throttling has occurred'])
    >>> parse_throttled("nonsense") is None
    True
    """
    try:
        value = int(text.strip().split("=", 1)[1], 16)
    except (IndexError, ValueError):
        return None
    return value, [name for bit, name in THROTTLE_BITS.items() if value >> bit & 1]


def throttled() -> tuple[int, list[str]] | None:
    with _lock:
        if time.monotonic() - float(_cache["at"]) < THROTTLE_EVERY_S:  # type: ignore[arg-type]
            return _cache["value"]  # type: ignore[return-value]
        value = None
        tool = shutil.which("vcgencmd")
        if tool is not None:
            try:
                out = subprocess.run([tool, "get_throttled"], capture_output=True, text=True, timeout=2).stdout
                value = parse_throttled(out)
            except (OSError, subprocess.SubprocessError):
                value = None
        _cache.update(at=time.monotonic(), value=value)
        return value


def pi_health() -> dict[str, object]:
    t = throttled()
    return {"temperature_c": temperature_c(), "throttled": None if t is None else hex(t[0]),
            "throttled_flags": None if t is None else t[1]}


def sd_notify(message: str) -> bool:
    """Tell systemd (``Type=notify`` units) ``READY=1`` or ``WATCHDOG=1``; ``False`` when not under systemd."""
    import os
    import socket

    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            s.connect(address)
            s.sendall(message.encode())
        return True
    except OSError:
        return False


M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter for the number of malloc arenas."""
HEAP_ARENAS = 2
"""Arenas the agent's threads share. glibc gives each new thread an arena of its own (up to eight per
core), and a thread per stream client that comes and goes leaves megabytes stranded in arenas nobody
uses any more; two keep the heap's size close to what is in use."""


@functools.cache
def _libc() -> Any:
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


def bound_heap(arenas: int = HEAP_ARENAS) -> bool:
    """Share ``arenas`` malloc arenas between all threads (glibc only; elsewhere nothing). True when set."""
    libc = _libc()
    return bool(libc is not None and libc.mallopt(M_ARENA_MAX, arenas) == 1)


def release_freed_memory() -> None:
    """Give the memory freed by a finished client back to the system (glibc's ``malloc_trim``)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
