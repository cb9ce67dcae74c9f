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

    @classmethod
    def resolve(
        cls, *, host: str, port: int, token: str | None, db_path: str | os.PathLike[str] | None
    ) -> tuple[WebSettings, bool]:
        """Settings from command-line values, the environment and defaults.

        Returns the settings and whether the token was generated (so the caller prints it).
        """
        from scoring.storage import default_db_path

        generated = False
        chosen = token or os.environ.get(TOKEN_ENV) or ""
        if not chosen:
            chosen = new_token()
            generated = True
        path = Path(db_path) if db_path else default_db_path()
        return cls(host=host, port=port, token=chosen, db_path=path, language="en", sse_keepalive_s=15.0), generated


def new_token() -> str:
    """A short token a person can type on a phone: 8 characters, no look-alikes."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))
