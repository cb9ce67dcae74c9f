"""Sub-commands of ``borne``. Each module has ``register(subparsers)``; heavy imports happen inside the command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

MAX_INPUT_BYTES = 10 * 1024 * 1024
"""Largest JSON input a command reads (a hand record is a few hundred bytes)."""


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type`` taking a whole number from ``low`` to ``high``, refusing anything else in words.

    >>> whole_number(0, 10)("7")
    7
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}")
        return value

    return parse


class CommandError(Exception):
    """A command's input cannot be used (a missing file, a directory, bytes that are not text)."""


def read_text_input(path: str) -> str:
    """The text of a file, or of stdin for ``-``, refusing what cannot be a JSON document.

    :raises CommandError: the file is missing, unreadable, too large or not UTF-8.
    """
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            p = Path(path)
            if p.is_dir():
                raise CommandError(f"{path}: is a directory, not a JSON file")
            with p.open("rb") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except OSError as e:
        raise CommandError(f"{path}: cannot be read ({e.strerror})") from None
    if len(data) > MAX_INPUT_BYTES:
        raise CommandError(f"{path}: larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB; not a hand or game file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not UTF-8 text") from None
