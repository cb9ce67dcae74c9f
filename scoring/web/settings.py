"""The web server's settings: one model, read once at start-up (never at import)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

TOKEN_ENV = "BORNE_TOKEN"
"""Environment variable holding the table's token when ``--token`` is not given."""


class WebSettings(BaseModel):
    """How the display is served and where its games are kept."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field("127.0.0.1", description="Address to listen on; 0.0.0.0 opens the display to the LAN.")
    port: int = Field(8000, ge=0, le=65535, description="TCP port (0 picks a free one).")
    token: str = Field(min_length=1, max_length=200, description="The table's token; writes need it as a Bearer token.")
    db_path: Path = Field(description="The SQLite file holding the games.")
    language: str = Field("en", pattern=r"^[a-z]{2}(-[A-Z]{2})?$", description="Interface strings file (strings/LANG.json).")
    sse_keepalive_s: float = Field(15.0, gt=0, description="Seconds between keep-alive comments on an idle event stream.")
    allowed_hosts: tuple[str, ...] = Field(
        (), description="Host names the display answers to besides loopback, this machine's names, --host and IP "
        "addresses (a name in DNS that points here, a reverse proxy's). Any other Host header gets 400.")
    max_body_bytes: int = Field(
        64 * 1024, ge=1024, le=16 * 1024 * 1024,
        description="Largest request body taken (a hand is a few hundred bytes); larger ones get 413 unread.")
    max_streams: int = Field(
        200, ge=1, le=10_000,
        description="Open event streams in all; past it a new one gets 503 and the page polls instead. "
        "Each stream holds a connection (one open file); raising it needs a higher open-files limit.")
    max_streams_per_client: int = Field(
        8, ge=1, le=10_000, description="Open event streams per client address (a phone's tabs); past it 503.")

    @classmethod
    def resolve(
        cls, *, host: str, port: int, token: str | None, db_path: str | os.PathLike[str] | None,
        token_file: str | os.PathLike[str] | None = None, allowed_hosts: tuple[str, ...] = (),
        max_streams: int | None = None, max_streams_per_client: int | None = None,
    ) -> tuple[WebSettings, bool]:
        """Settings from command-line values, the environment and defaults.

        The token comes from ``token``, else the first line of ``token_file``, else ``$BORNE_TOKEN``, else
        a new one. Returns the settings and whether the token was generated (so the caller prints it).

        :raises TokenFileError: the token file cannot be read or holds no token.
        """
        from scoring.storage import default_db_path

        generated = False
        chosen = token or (read_token_file(Path(token_file)) if token_file else "") or os.environ.get(TOKEN_ENV) or ""
        if not chosen:
            chosen = new_token()
            generated = True
        path = Path(db_path) if db_path else default_db_path()
        limits = {k: v for k, v in (("max_streams", max_streams), ("max_streams_per_client", max_streams_per_client))
                  if v is not None}
        settings = cls(host=host, port=port, token=chosen, db_path=path, language="en", sse_keepalive_s=15.0,
                       allowed_hosts=allowed_hosts, **limits)
        return settings, generated


class TokenFileError(ValueError):
    """The token file cannot be read, or its first line is empty."""


def read_token_file(path: Path) -> str:
    """The token on the first line of ``path`` (kept out of ``ps``, unlike ``--token``).

    :raises TokenFileError: naming the file.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise TokenFileError(f"cannot read the token file {path}: {getattr(e, 'strerror', None) or e}") from None
    token = lines[0].strip() if lines else ""
    if not token:
        raise TokenFileError(f"the token file {path} is empty; put the token on its first line")
    return token


TOKEN_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""31 characters, none that a person reads as another (no i, l, o, 0, 1): about 4.95 bits each."""

TOKEN_GROUPS = 3
TOKEN_GROUP_LENGTH = 5
"""Three groups of five: 15 characters, about 74 bits, typed as ``k7mqx-2pt9r-hw4cz``."""


def new_token() -> str:
    """A token a person can still type on a phone, hard to guess even at thousands of tries a second.

    >>> t = new_token()
    >>> len(t), t.count("-"), all(c in TOKEN_ALPHABET for c in t.replace("-", ""))
    (17, 2, True)
    """
    return "-".join("".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_GROUP_LENGTH))
                    for _ in range(TOKEN_GROUPS))
