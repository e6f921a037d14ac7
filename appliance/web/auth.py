"""The admin token: generated at first start, stored 0600 under the data directory, never logged."""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

from appliance.errors import ConfigError
from appliance.logs import register_secret


def load_or_create_token(path: Path) -> str:
    """Read the admin token, creating it (mode 0600, folder 0700) when it does not exist yet."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        token = _read_existing(path)
    else:
        token = secrets.token_urlsafe(32)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(token + "\n")
    register_secret(token)
    return token


def _read_existing(path: Path) -> str:
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        raise ConfigError(
            f"admin token file {path.name} is readable by others (mode {mode:o}); "
            f"fix it with: chmod 600 {path.name}"
        )
    token = path.read_text(encoding="ascii").strip()
    if len(token) < 32:
        raise ConfigError(f"admin token file {path.name} is too short; delete it to regenerate")
    return token


def token_matches(expected: str, given: str | None) -> bool:
    """Constant-time comparison of a presented token."""
    if not given:
        return False
    return hmac.compare_digest(expected.encode(), given.encode())
