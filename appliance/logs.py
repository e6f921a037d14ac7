"""Structured, journald-friendly logging that never prints a secret.

Every record becomes one JSON object on one line (journald keeps it as MESSAGE; ``journalctl -o cat``
shows it as is). Fields given with ``extra=`` are included. Registered secrets (the admin token) are
replaced by ``[redacted]`` wherever they appear in the message or the fields.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from typing import Any

_STANDARD = set(vars(logging.makeLogRecord({}))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}
_secrets: set[str] = set()
_lock = threading.Lock()


def register_secret(secret: str) -> None:
    """Never print this string in any log record from now on."""
    if len(secret) >= 8:  # short strings would redact ordinary words
        with _lock:
            _secrets.add(secret)


def redact(text: str) -> str:
    """The text with every registered secret replaced."""
    with _lock:
        secrets = list(_secrets)
    for secret in secrets:
        text = text.replace(secret, "[redacted]")
    return text


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, extra fields, exception type."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value if isinstance(value, int | float | bool | None) else str(value)
        if record.exc_info and record.exc_info[0] is not None:
            out["exc_type"] = record.exc_info[0].__name__
            out["traceback"] = self.formatException(record.exc_info)
        line = json.dumps(out, ensure_ascii=False, default=str)
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            # A file name that is not UTF-8 (surrogate escapes): escape it, or journald and any
            # UTF-8 reader of the log would choke on the line.
            line = json.dumps(out, ensure_ascii=True, default=str)
        return redact(line)


def setup_logging(level: int = logging.INFO) -> None:
    """Send every log record as JSON lines to stderr (journald collects it under systemd)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # uvicorn's access log would print every status-page poll; errors still come through.
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
