"""The ``borne`` command: one sub-command per job, each registered by a module of ``borne.commands``.

Command modules import only argparse at module level; each command imports what it
needs when it runs, so ``borne score`` starts without OpenCV, ONNX Runtime or a web framework.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from borne.commands import CommandError

COMMAND_MODULES: tuple[str, ...] = (
    "borne.commands.score",
    "borne.commands.web",
    "borne.commands.data",
    "borne.commands.vision",
    "borne.commands.train",
    "borne.commands.replay",
    "borne.commands.run",
    "borne.commands.club",
)
"""Modules with a ``register(subparsers)`` function, in the order their commands are listed."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="borne",
        description="Borne keeps the score of Mille Bornes games, by hand or by watching the table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:  # a command module not written yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``borne``; returns the exit status (0 ok, 2 bad input or usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    from scoring.errors import BorneError

    try:
        status: int = args.func(args)
    except (BorneError, CommandError) as e:
        print(f"borne {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status
