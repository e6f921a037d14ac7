"""Hostile clients against the real status page: foreign Host names, deep JSON, fuzzed bodies, stray
file names in the inbox, uploads larger than allowed."""

from __future__ import annotations

import json
import os
import random
import time
from typing import Any

import httpx
import pytest

from appliance.config import load_config
from appliance.errors import ConfigError
from appliance.web.guards import HostAllowList, json_depth, normalise_host, parse_json

RunningAppliance = Any  # the session fixture from conftest.py
ADMIN_JSON_ROUTES = (
    "/api/admin/reindex",
    "/api/admin/forget",
    "/api/admin/room",
    "/api/admin/restart",
)


@pytest.fixture
def client(running: RunningAppliance) -> httpx.Client:
    return httpx.Client(base_url=running.url, timeout=60)


def _auth(running: RunningAppliance) -> dict[str, str]:
    return {"Authorization": f"Bearer {running.token}", "content-type": "application/json"}


def test_a_foreign_host_name_is_refused(client: httpx.Client, running: RunningAppliance) -> None:
    rebinding = client.get("/api/state", headers={"Host": "attacker.example"})
    assert rebinding.status_code == 400 and rebinding.json()["code"] == "host_not_allowed"
    assert "questions" not in rebinding.text
    port = running.url.rsplit(":", 1)[1]
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", "LOCALHOST.", f"[::1]:{port}"):
        assert client.get("/api/state", headers={"Host": host}).status_code == 200, host
    events = client.get("/api/events", headers={"Host": "attacker.example:80"})
    assert events.status_code == 400
    admin = client.post(
        "/api/admin/check", headers={**_auth(running), "Host": "evil.example"}, content=b"{}"
    )
    assert admin.status_code == 400 and admin.json()["code"] == "host_not_allowed"


def test_the_allow_list_holds_the_machines_names_and_addresses() -> None:
    hosts = HostAllowList(("localhost", "@hostname", "@addresses", "bench.example"), "0.0.0.0")
    allowed = hosts.allowed()
    assert {"localhost", "bench.example", "127.0.0.1", f"{os.uname().nodename.lower()}.local"} <= (
        allowed
    )
    assert hosts.accepts("Bench.Example:8080") and not hosts.accepts(None)
    assert not hosts.accepts("bench.example.attacker.example")
    assert HostAllowList(("*",)).accepts("anything.example")
    assert normalise_host("[fe80::1]:8080") == "fe80::1"
    assert normalise_host("::1") == "::1"


def test_api_answers_are_not_cached_and_name_no_server(client: httpx.Client) -> None:
    for path in ("/api/state", "/api/sources", "/api/nothing-here"):
        response = client.get(path)
        assert response.headers["cache-control"] == "no-store", path
        assert "server" not in response.headers, path
    events = client.get("/api/events", headers={"Host": "attacker.example"})
    assert events.headers["cache-control"] == "no-store"
    assert "server" not in client.get("/").headers


def test_deeply_nested_json_gets_a_coded_400_on_every_admin_route(
    client: httpx.Client, running: RunningAppliance
) -> None:
    deep = b"[" * 3_000  # under the 4 KB body limit of the test config; 10 KB in production
    deep_object = b'{"room": ' + b'{"a": ' * 500 + b"1" + b"}" * 500 + b"}"
    for route in ADMIN_JSON_ROUTES:
        for body in (deep, deep_object):
            response = client.post(route, content=body, headers=_auth(running))
            assert response.status_code == 400, (route, response.text)
            assert response.json()["code"] == "json_too_deep"
    upload = client.post("/api/admin/upload", content=deep, headers=_auth(running))
    assert upload.status_code == 400 and upload.json()["code"] == "filename_invalid"
    assert client.get("/healthz").status_code == 200


def _fuzz_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rng.choice([None, True, False, 0, -1, 1e308, 10**40])
    if kind == 1:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(0, 30)))
    if kind == 2:
        return rng.choice(["\ud800", "a\udcffb", "\x00", "../../etc/passwd", "global", ""])
    if kind == 3:
        return "x" * rng.randrange(400, 700)
    if kind in (4, 5):
        return rng.random()
    if kind == 6:
        return [_fuzz_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["namespace", "source", "room", "component", "x"]
    return {rng.choice(keys): _fuzz_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def _fuzz_body(rng: random.Random) -> bytes:
    choice = rng.randrange(5)
    if choice == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    if choice == 1:
        return b"1" * rng.randrange(4000, 4100)  # an integer too long to convert
    if choice == 2:
        return rng.choice([b"NaN", b"-Infinity", b'"\\ud800"', b"{", b"]", b'{"a":1}}'])
    text = json.dumps(_fuzz_value(rng), ensure_ascii=rng.random() < 0.5)
    return text.encode("utf-8", "surrogatepass")


def test_fuzzed_bodies_never_get_a_5xx(client: httpx.Client, running: RunningAppliance) -> None:
    rng = random.Random(37)
    tried = 0
    for _ in range(150):
        body = _fuzz_body(rng)
        for route in ("/api/admin/forget", "/api/admin/room", "/api/admin/restart"):
            payload = body
            if route == "/api/admin/restart" and body.startswith(b"{"):
                payload = body.replace(b'"component"', b'"x"')  # never restart a real part
            response = client.post(route, content=payload, headers=_auth(running))
            tried += 1
            assert response.status_code < 500, (route, payload[:80], response.text)
            if response.status_code >= 400:
                assert response.json()["code"], (route, payload[:80])
    assert tried == 450
    # Strings no file system or index can hold are refused at the door, not deep in the index.
    for body in (
        {"namespace": "global", "source": "\ud800"},
        {"namespace": "global", "source": "a\udcffb.md"},
        {"namespace": "glo\x00bal", "source": "x.md"},
    ):
        raw = json.dumps(body).encode()
        response = client.post("/api/admin/forget", content=raw, headers=_auth(running))
        assert response.status_code == 400 and response.json()["code"] == "field_invalid", body
    assert client.get("/api/state").status_code == 200


def test_a_name_that_is_not_utf8_in_the_inbox_keeps_the_page_up(
    client: httpx.Client, running: RunningAppliance
) -> None:
    inbox = running.data_dir / "inbox" / "global"
    with client.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        raw = os.fsencode(inbox) + b"/vice\xff\xfe.md"
        with open(raw, "wb") as fh:
            fh.write(b"# Vice\n\nThe vice jaws open to 150 mm.\n")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = next(lines)
            if not line.startswith("data: "):
                continue
            state = json.loads(line[6:])
            jobs = [j for j in state["jobs"] if j["source"] == "vice\\xff\\xfe.md"]
            if jobs and jobs[0]["state"] == "done":
                break
        else:
            pytest.fail("the file was not indexed")
    assert client.get("/api/state").status_code == 200
    sources = {s["source"] for s in client.get("/api/sources").json()["global"]}
    assert (
        "inbox/global/vice\\xfe\\xff.md" in sources or "inbox/global/vice\\xff\\xfe.md" in sources
    )


def test_uploads_are_streamed_to_disk_and_refused_ones_leave_nothing(
    client: httpx.Client, running: RunningAppliance
) -> None:
    auth = {"Authorization": f"Bearer {running.token}"}

    def chunks() -> Any:
        for _ in range(40):
            yield b"# big\n" + b"x" * 65536

    big = client.post("/api/admin/upload?filename=big.md", content=chunks(), headers=auth)
    assert big.status_code == 413 and big.json()["code"] == "upload_too_large"
    wrong = client.post("/api/admin/upload?filename=d.png", content=b"not a png", headers=auth)
    assert wrong.status_code == 400 and wrong.json()["code"] == "upload_type_mismatch"
    bad_name = client.post("/api/admin/upload?filename=../x.md", content=b"# x\n", headers=auth)
    assert bad_name.status_code == 400
    note = b"# Drill\n\nHSS 8 mm.\n"
    ok = client.post("/api/admin/upload?filename=drill.md", content=note, headers=auth)
    assert ok.status_code == 202 and ok.json()["bytes"] == len(note)
    assert (running.data_dir / "inbox" / "global" / "drill.md").read_bytes() == note
    staging = running.data_dir / "uploads"
    assert staging.is_dir() and list(staging.iterdir()) == []
    assert (staging.stat().st_mode & 0o777) == 0o700


def test_json_parsing_and_settings_limits(tmp_path: Any) -> None:
    assert json_depth(b'{"a": "[[[[[[[[", "b": [1, [2]]}') == 3
    assert parse_json(b'{"a": [1, {"b": 2}]}') == {"a": [1, {"b": 2}]}
    with pytest.raises(ValueError, match="deeper"):
        parse_json(b"[" * 10_000)
    with pytest.raises(ConfigError, match="max_upload_mb"):
        load_config(environ={"OPENCLAW_WEB__MAX_UPLOAD_MB": "1024"})
    with pytest.raises(ConfigError, match="allowed_hosts"):
        load_config(environ={"OPENCLAW_WEB__ALLOWED_HOSTS": ""})
    config = load_config(environ={"OPENCLAW_WEB__ALLOWED_HOSTS": "bench.lan, localhost"})
    assert config.web.allowed_hosts == ("bench.lan", "localhost")
