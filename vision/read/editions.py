"""Where the runtime finds a deck edition's folder, without the data engine (``datasets``) that draws and enrols them.

Enrolled editions live under the user's data folder (``BORNE_DATA_DIR`` overrides it), one folder per name;
an edition may also be named by its folder's path. The built-in ``generic`` edition has no folder here: its
models are shipped in ``models/``.

>>> check_name("my-deck_2")
'my-deck_2'
>>> check_name("../etc")
Traceback (most recent call last):
...
vision.errors.UnknownEditionError: '../etc' is not an edition name (letters, digits, _ . - only)
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from vision.errors import UnknownEditionError

GENERIC = "generic"
"""Name of the built-in edition."""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def data_dir() -> Path:
    """Where enrolled editions are kept: ``$BORNE_DATA_DIR``, else ``$XDG_DATA_HOME/borne`` or ``~/.local/share/borne``."""
    if os.environ.get("BORNE_DATA_DIR"):
        return Path(os.environ["BORNE_DATA_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "borne"


def check_name(name: str) -> str:
    """An edition name: letters, digits, ``_ . -``, at most 64 characters.

    :raises UnknownEditionError: for anything else (it could not be a folder name).
    """
    if not _NAME.match(name):
        raise UnknownEditionError(f"{name!r} is not an edition name (letters, digits, _ . - only)")
    return name


def is_folder_name(name: str) -> bool:
    """Whether ``name`` names an edition by its folder's path rather than by its enrolled name."""
    return os.sep in name or name.startswith(".")


RESERVED = ("unknown",)
"""Names no enrolled edition may take: ``unknown`` reads a deck nobody enrolled by its numerals."""


def enrolled_folder(name: str) -> Path:
    """The folder of an edition that is not the built-in one: a path as given, else its enrolled folder.

    :raises UnknownEditionError: no edition is enrolled under ``name``.
    """
    if is_folder_name(name):
        return Path(name)
    folder = data_dir() / "editions" / check_name(name)
    if not folder.is_dir():
        raise UnknownEditionError(f"no edition named {name!r} (enrol one with `borne enrol FOLDER --edition {name}`)")
    return folder
