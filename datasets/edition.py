"""Deck editions: a folder of face images (``<card id>.png``, ``back.png``) and ``edition.json``.

The built-in ``generic`` edition is drawn by :mod:`datasets.art` on first use and cached
under the user's cache folder (``BORNE_CACHE_DIR`` overrides it). Enrolled editions live
under the user's data folder (``BORNE_DATA_DIR`` overrides it), one folder per name.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from datasets.errors import EditionFormatError, UnknownEditionError
from scoring.cards import Card

GENERIC = "generic"
"""Name of the built-in edition."""

GENERIC_VERSION = 1
"""Bumped whenever the generic art changes, so stale caches are redrawn."""

BACK = "back"
"""Key of the card back in an edition's faces."""

FACE_KEYS: tuple[str, ...] = tuple(c.value for c in Card) + (BACK,)

def cache_dir() -> Path:
    """Where rendered things are cached: ``$BORNE_CACHE_DIR``, else ``$XDG_CACHE_HOME/borne`` or ``~/.cache/borne``."""
    if os.environ.get("BORNE_CACHE_DIR"):
        return Path(os.environ["BORNE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "borne"


def data_dir() -> Path:
    """Where enrolled editions are kept (:func:`vision.read.editions.data_dir`)."""
    from vision.read.editions import data_dir as runtime_data_dir

    return runtime_data_dir()


def check_name(name: str) -> str:
    """An edition name: letters, digits, ``_ . -``, at most 64 characters.

    :raises UnknownEditionError: for anything else (it could not be a folder name).
    """
    from vision import errors
    from vision.read.editions import check_name as runtime_check_name

    try:
        return runtime_check_name(name)
    except errors.UnknownEditionError as e:
        raise UnknownEditionError(str(e)) from None


@dataclass
class Edition:
    """A deck edition on disk. Faces are loaded (RGB ``uint8`` arrays) on first use."""

    name: str
    """The edition's name (``generic`` for the built-in one)."""

    folder: Path
    """The folder holding ``edition.json`` and the face images."""

    meta: dict[str, Any] = field(default_factory=dict)
    """The decoded ``edition.json``."""

    _faces: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, folder: Path) -> Edition:
        """Read an edition folder.

        :raises EditionFormatError: no readable ``edition.json``, or a face file it names is missing.
        """
        meta_path = folder / "edition.json"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise EditionFormatError(f"{folder}: no edition.json (not an edition folder)") from None
        except (OSError, ValueError) as e:
            raise EditionFormatError(f"{meta_path}: cannot be read ({e})") from None
        faces = meta.get("faces") if isinstance(meta, dict) else None
        if not isinstance(faces, dict):
            raise EditionFormatError(f"{meta_path}: needs a 'faces' object of card id → file")
        for key in FACE_KEYS[:-1]:
            if key not in faces:
                raise EditionFormatError(f"{meta_path}: no face for {key}")
            if not (folder / str(faces[key])).is_file():
                raise EditionFormatError(f"{folder}: the face file {faces[key]} is missing")
        return cls(name=str(meta.get("name", folder.name)), folder=folder, meta=meta)

    def face(self, key: Card | str) -> np.ndarray:
        """The face of a card (or ``"back"``) as an RGB array; the generic back when the edition has none."""
        k = key.value if isinstance(key, Card) else key
        if k not in self._faces:
            name = self.meta["faces"].get(k)
            if name is None and k == BACK:
                self._faces[k] = load_edition(GENERIC).face(BACK)
                return self._faces[k]
            if name is None:
                raise EditionFormatError(f"edition {self.name} has no face {k!r}")
            self._faces[k] = read_rgb(self.folder / str(name))
        return self._faces[k]

    @property
    def has_back(self) -> bool:
        return BACK in self.meta["faces"]


def read_rgb(path: Path) -> np.ndarray:
    """An image file as an RGB ``uint8`` array.

    :raises EditionFormatError: the file is not a readable image.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            return np.asarray(im.convert("RGB")).copy()
    except (OSError, UnidentifiedImageError) as e:
        raise EditionFormatError(f"{path}: not a readable image ({e})") from None


def write_edition(folder: Path, name: str, faces: dict[str, np.ndarray], **meta: Any) -> Edition:
    """Write faces (RGB arrays keyed by card id or ``back``) and ``edition.json`` into a folder."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    names: dict[str, str] = {}
    for key in FACE_KEYS:
        if key in faces:
            names[key] = f"{key}.png"
            Image.fromarray(faces[key]).save(folder / names[key], optimize=False, compress_level=3)
    h, w = next(iter(faces.values())).shape[:2]
    data = {"name": name, "size_px": [w, h], "card_mm": [56, 87], "faces": names, **meta}
    tmp = folder / "edition.json.tmp"
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(folder / "edition.json")
    return Edition(name=name, folder=folder, meta=data)


def generic_folder() -> Path:
    return cache_dir() / "editions" / f"{GENERIC}-v{GENERIC_VERSION}"


def ensure_generic() -> Edition:
    """The built-in edition, drawn into the cache on first use."""
    folder = generic_folder()
    try:
        return Edition.open(folder)
    except EditionFormatError:
        pass
    from datasets.art import render_back, render_face

    faces = {c.value: np.asarray(render_face(c)) for c in Card}
    faces[BACK] = np.asarray(render_back())
    return write_edition(folder, GENERIC, faces, source="drawn by datasets.art", version=GENERIC_VERSION)


_LOADED: dict[str, Edition] = {}


def load_edition(name: str = GENERIC) -> Edition:
    """An edition by name (``generic``, or one enrolled into :func:`data_dir`), or by folder path.

    :raises UnknownEditionError: no such edition.
    """
    if name in _LOADED:
        return _LOADED[name]
    if name == GENERIC:
        edition = ensure_generic()
    else:
        from vision import errors
        from vision.read.editions import enrolled_folder

        try:
            folder = enrolled_folder(name)
        except errors.UnknownEditionError as e:
            raise UnknownEditionError(str(e)) from None
        edition = Edition.open(folder)
    _LOADED[name] = edition
    return edition


def export_edition(edition: Edition, out: Path) -> list[Path]:
    """Write every face as ``out/<card id>.png`` plus ``out/back.png`` (CONTRACT §8)."""
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for key in FACE_KEYS:
        path = out / f"{key}.png"
        Image.fromarray(edition.face(key)).save(path)
        written.append(path)
    return written


SHIPPED_FACE_PX = (240, 372)
"""The size the generic edition's faces are shipped at in ``models/faces-generic`` (twice what the matcher
keeps: :data:`vision.read.matcher.REFERENCE_WIDTH`)."""


def write_shipped_generic(out: Path) -> Edition:
    """The generic edition's faces as the runtime reads them (``models/faces-generic``: the runtime may not
    draw them, that is the data engine's work), written at :data:`SHIPPED_FACE_PX`."""
    import cv2

    generic = ensure_generic()
    faces = {key: cv2.resize(generic.face(key), SHIPPED_FACE_PX, interpolation=cv2.INTER_AREA) for key in FACE_KEYS}
    return write_edition(out, GENERIC, faces, source="datasets.edition.write_shipped_generic", version=GENERIC_VERSION)

