"""Fuzzing the status page's routes over real HTTP: admin JSON routes, the upload route's query, the
artifact and static paths, with hostile bodies, headers and Host names.

Every request gets an answer below 500, every refusal is JSON with a code, and the page keeps serving.
Bodies that would really change the shared appliance (restart a real component, forget its drawing,
re-index everything, hold a real room, queue a valid upload) are left out: those routes' effects are
tested on their own.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from tests.fuzzing import any_text, deep_nesting, json_bytes, json_values, long, quick

RunningAppliance = Any  # the session fixture from conftest.py
JSON_ROUTES = [
    "/api/admin/check",
    "/api/admin/reindex",
    "/api/admin/forget",
    "/api/admin/room",
    "/api/admin/restart",
]
FIELDS = ["namespace", "source", "room", "component"]
_header_text = st.text(string.ascii_letters + string.digits + " -._:/[]@", max_size=40)


@st.composite
def requests(draw: Any) -> dict[str, Any]:
    """One request: a route, a body, headers (mostly with the admin token and a good Host)."""
    kind = draw(st.sampled_from(["json", "json", "upload", "get"]))
    body = draw(
        st.one_of(
            st.binary(max_size=200),
            deep_nesting(),
            st.builds(json_bytes, json_values(FIELDS), st.booleans()),
        )
    )
    headers: dict[str, str] = {}
    if draw(st.integers(0, 9)):
        headers["authorization"] = "Bearer {token}"
    else:
        headers["authorization"] = draw(_header_text)
    if not draw(st.integers(0, 9)):
        headers["host"] = draw(_header_text)
    headers["content-type"] = draw(
        st.sampled_from(["application/json", "text/plain", "multipart/form-data", ""])
    )
    if kind == "json":
        return {
            "method": "POST",
            "path": draw(st.sampled_from(JSON_ROUTES)),
            "params": {},
            "body": body,
            "headers": headers,
        }
    if kind == "upload":
        params = {"namespace": draw(any_text), "filename": draw(any_text)}
        return {
            "method": "POST",
            "path": "/api/admin/upload",
            "params": params,
            "body": body,
            "headers": headers,
        }
    prefix = draw(st.sampled_from(["/artifacts/", "/static/", "/api/", "/"]))
    return {
        "method": draw(st.sampled_from(["GET", "POST", "PUT", "DELETE"])),
        "path": prefix + draw(any_text),
        "params": {},
        "body": body,
        "headers": headers,
    }


_VALID_FILENAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,150}$")


def _changes_the_appliance(request: dict[str, Any], running: RunningAppliance) -> bool:
    """Whether a request could really act (those are tested on their own, not fuzzed here)."""
    if request["path"] == "/api/admin/upload":
        return bool(_VALID_FILENAME.match(request["params"]["filename"]))
    if request["path"] not in JSON_ROUTES:
        return False
    try:
        data = json.loads(request["body"])
    except (ValueError, RecursionError):
        return False
    if not isinstance(data, dict):
        return False
    if request["path"] == "/api/admin/reindex":
        return data.get("namespace") is None or isinstance(data.get("namespace"), str)
    if request["path"] == "/api/admin/restart":
        return isinstance(data.get("component"), str)
    if request["path"] == "/api/admin/room":
        return isinstance(data.get("room"), str)
    if request["path"] == "/api/admin/forget":
        return isinstance(data.get("source"), str) and "A-1024" in data["source"]
    return False


def send(client: httpx.Client, running: RunningAppliance, request: dict[str, Any]) -> None:
    if _changes_the_appliance(request, running):
        reject()
    headers = {k: v.replace("{token}", running.token) for k, v in request["headers"].items() if v}
    try:
        response = client.request(
            request["method"],
            request["path"],
            params=request["params"],
            content=request["body"],
            headers=headers,
        )
    except (httpx.LocalProtocolError, httpx.InvalidURL, UnicodeEncodeError):
        reject()  # the client itself will not send it
    assert response.status_code < 500, (request, response.status_code, response.text[:300])
    if response.status_code >= 400 and not request["path"].startswith("/static/"):
        assert response.json()["code"], (request, response.text[:300])


@pytest.fixture(scope="module")
def fuzz_client(running: RunningAppliance) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=running.url, timeout=60) as client:
        yield client


@quick(150)
@given(requests())
def test_any_request_gets_a_coded_answer_below_500(
    running: RunningAppliance, fuzz_client: httpx.Client, request: dict[str, Any]
) -> None:
    send(fuzz_client, running, request)


@pytest.mark.fuzz
@long()
@given(requests())
def test_fuzz_the_routes(
    running: RunningAppliance, fuzz_client: httpx.Client, request: dict[str, Any]
) -> None:
    send(fuzz_client, running, request)


def test_the_page_still_serves_after_the_fuzz(
    running: RunningAppliance, fuzz_client: httpx.Client
) -> None:
    state = fuzz_client.get("/api/state")
    assert state.status_code == 200
    components = {c["name"]: c for c in state.json()["components"]}
    assert components["web"]["restarts"] == 0
    assert fuzz_client.get("/healthz").status_code in (200, 503)
    sources = fuzz_client.get("/api/sources").json()
    assert any("A-1024" in s["source"] for s in sources["global"])
