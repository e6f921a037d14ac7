"""Structured logs: one JSON object per line, secrets redacted."""

from __future__ import annotations

import json
import logging

from appliance.logs import JsonFormatter, register_secret


def test_json_line_with_extra_fields_and_redaction() -> None:
    secret = "s3cr3t-token-value-1234567890"
    register_secret(secret)
    record = logging.makeLogRecord(
        {
            "name": "t",
            "levelno": logging.WARNING,
            "levelname": "WARNING",
            "msg": "token is %s",
            "args": (secret,),
            "component": "web",
            "header": f"Bearer {secret}",
        }
    )
    line = JsonFormatter().format(record)
    assert secret not in line
    data = json.loads(line)
    assert data["msg"] == "token is [redacted]"
    assert data["component"] == "web" and data["header"] == "Bearer [redacted]"
    assert data["level"] == "warning"
