"""The status page over real HTTP: read-only views, admin token, hostile and malformed requests."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest

RunningAppliance = Any  # the session fixture from conftest.py


@pytest.fixture
def client(running: RunningAppliance) -> httpx.Client:
    return httpx.Client(base_url=running.url, timeout=60)


def _auth(running: RunningAppliance) -> dict[str, str]:
    return {"Authorization": f"Bearer {running.token}"}


def test_page_state_health_and_metrics(client: httpx.Client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<title>OpenClaw" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    state = client.get("/api/state").json()
    names = {c["name"]: c["status"] for c in state["components"]}
    assert names["indexer"] == "running" and names["web"] == "running"
    assert names["presence"] == "disabled"
    health = client.get("/healthz")
    assert health.status_code == 200 and health.json() == {"status": "ok", "failing": []}
    metrics = client.get("/metrics").text
    assert 'openclaw_component_up{component="indexer",status="running"} 1.0' in metrics
    assert "openclaw_index_jobs_pending" in metrics


def test_question_record_has_citation_region_and_latency(
    running: RunningAppliance, client: httpx.Client
) -> None:
    record = running.ask("what material is drawing A-1024?")
    assert "6061-T6" in record["answer"], record
    cite = record["citations"][0]
    assert cite["drawing_number"] == "A-1024"
    assert cite["thumbnail"].startswith("artifacts/") and cite["region"]
    assert {"retrieval", "first_audio", "total"} <= set(record["latency"])
    state = client.get("/api/state").json()
    assert state["questions"][0]["id"] == record["id"]
    assert state["latency"]["retrieval"]["count"] >= 1
    thumb = client.get("/" + cite["thumbnail"])
    assert thumb.status_code == 200 and thumb.headers["content-type"] == "image/jpeg"
    metrics = client.get("/metrics").text
    assert 'openclaw_question_stage_seconds_count{stage="retrieval"}' in metrics


@pytest.mark.parametrize(
    "path",
    [
        "/artifacts/../secrets/admin-token",
        "/artifacts/%2e%2e/secrets/admin-token",
        "/artifacts/..%2fsecrets%2fadmin-token",
        "/artifacts/x/../../secrets/admin-token",
        "/artifacts//etc/passwd",
        "/artifacts/%2fetc%2fpasswd",
        "/artifacts/a%00.png",
        "/artifacts/..\\..\\index.sqlite3",
        "/artifacts/index.sqlite3",
        "/artifacts/nothing-here.png",
        "/static/../../service/appliance.py",
        "/static/%2e%2e/app.py",
    ],
)
def test_path_traversal_is_refused(
    client: httpx.Client, running: RunningAppliance, path: str
) -> None:
    response = client.get(path)
    assert response.status_code in (400, 404), path
    assert running.token not in response.text
    assert "import" not in response.text and "root:" not in response.text


def test_symlink_out_of_the_store_is_not_followed(
    client: httpx.Client, running: RunningAppliance
) -> None:
    link_dir = running.data_dir / "artifacts" / "evil"
    link_dir.mkdir(parents=True, exist_ok=True)
    link = link_dir / "token.png"
    if not link.exists():
        os.symlink(running.data_dir / "secrets" / "admin-token", link)
    response = client.get("/artifacts/evil/token.png")
    assert response.status_code == 404
    assert running.token not in response.text


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/admin/reindex", {}),
        ("/api/admin/forget", {"namespace": "global", "source": "inbox/global/A-1024_revC.png"}),
        ("/api/admin/room", {"room": None}),
        ("/api/admin/restart", {"component": "inbox"}),
        ("/api/admin/check", {}),
    ],
)
def test_admin_actions_need_the_token(
    client: httpx.Client, path: str, body: dict[str, object]
) -> None:
    missing = client.post(path, json=body)
    assert missing.status_code == 401 and missing.json()["code"] == "token_missing"
    wrong = client.post(path, json=body, headers={"Authorization": "Bearer not-the-token"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "token_invalid"
    basic = client.post(path, json=body, headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert basic.status_code == 403
    upload = client.post("/api/admin/upload?filename=x.md", content=b"# x\n")
    assert upload.status_code == 401
    sources = client.get("/api/sources").json()
    assert "inbox/global/A-1024_revC.png" in {s["source"] for s in sources["global"]}


def test_uploads_are_checked(client: httpx.Client, running: RunningAppliance) -> None:
    auth = _auth(running)
    big = b"#" * (1024 * 1024 + 1)
    too_big = client.post("/api/admin/upload?filename=big.md", content=big, headers=auth)
    assert too_big.status_code == 413 and too_big.json()["code"] == "upload_too_large"

    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(40):
            yield b"#" * 65536  # 2.5 MB without a Content-Length header

    streamed = client.post("/api/admin/upload?filename=big.md", content=chunks(), headers=auth)
    assert streamed.status_code == 413
    fake_png = client.post("/api/admin/upload?filename=drawing.png", content=b"hello", headers=auth)
    assert fake_png.status_code == 400 and fake_png.json()["code"] == "upload_type_mismatch"
    for name in ("../escape.md", "sub/dir.md", ".hidden.md", "x.exe", "a\x00.md", ""):
        bad = client.post(
            "/api/admin/upload", params={"filename": name}, content=b"# x", headers=auth
        )
        assert bad.status_code == 400, name
        assert bad.json()["code"] in ("filename_invalid", "upload_empty")
    bad_ns = client.post(
        "/api/admin/upload",
        params={"filename": "x.md", "namespace": "../etc"},
        content=b"# x",
        headers=auth,
    )
    assert bad_ns.status_code == 400 and bad_ns.json()["code"] == "namespace_invalid"
    empty = client.post("/api/admin/upload?filename=e.md", content=b"", headers=auth)
    assert empty.status_code == 400
    assert not (running.data_dir.parent / "escape.md").exists()
    assert not any((running.data_dir / "inbox").rglob("big.md"))


def test_malformed_json_requests(client: httpx.Client, running: RunningAppliance) -> None:
    auth = {**_auth(running), "content-type": "application/json"}
    cases = [
        (b"{not json", 400, "json_invalid"),
        (b"[1, 2]", 400, "json_invalid"),
        (b"\xff\xfe", 400, "json_invalid"),
        (json.dumps({"component": 5}).encode(), 400, "field_invalid"),
        (json.dumps({"component": "nonexistent"}).encode(), 400, "component_unknown"),
        (b'{"component": "' + b"x" * 5000 + b'"}', 413, "body_too_large"),
    ]
    for body, status, code in cases:
        response = client.post("/api/admin/restart", content=body, headers=auth)
        assert (response.status_code, response.json()["code"]) == (status, code), body[:20]
    room = client.post("/api/admin/room", json={"room": "moon base"}, headers=_auth(running))
    assert room.status_code == 400 and room.json()["code"] == "room_unknown"
    assert client.get("/no/such/page").json()["code"] == "not_found"
    assert client.put("/api/state").status_code == 405


def test_raw_garbage_on_the_socket_gets_400_and_the_server_stays_up(
    client: httpx.Client, running: RunningAppliance
) -> None:
    port = int(running.url.rsplit(":", 1)[1])
    for garbage in (
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
        b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n",
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    ):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(garbage)
            reply = sock.recv(200)
        assert reply == b"" or reply.startswith(b"HTTP/1.1 4"), reply[:40]
    assert client.get("/healthz").status_code == 200


def test_upload_index_forget_and_restart(client: httpx.Client, running: RunningAppliance) -> None:
    auth = _auth(running)
    note = b"# Lathe\n\nThe lathe chuck key lives in drawer 7.\n"
    up = client.post(
        "/api/admin/upload?filename=lathe.md&namespace=shop", content=note, headers=auth
    )
    assert up.status_code == 202, up.text
    assert (running.data_dir / "inbox" / "shop" / "lathe.md").read_bytes() == note
    assert running.appliance is not None
    running.call(running.appliance.queue.drained())
    assert "inbox/shop/lathe.md" in {s["source"] for s in client.get("/api/sources").json()["shop"]}
    gone = client.post(
        "/api/admin/forget",
        json={"namespace": "shop", "source": "inbox/shop/lathe.md"},
        headers=auth,
    )
    assert gone.status_code == 200 and gone.json()["message"] == "forgot inbox/shop/lathe.md"
    assert not (running.data_dir / "inbox" / "shop" / "lathe.md").exists()
    assert "inbox/shop/lathe.md" not in {
        s["source"] for s in client.get("/api/sources").json().get("shop", [])
    }
    before = {c["name"]: c["restarts"] for c in client.get("/api/state").json()["components"]}
    restarted = client.post("/api/admin/restart", json={"component": "inbox"}, headers=auth)
    assert restarted.status_code == 200
    running.call(running.appliance.inbox.reconciled.wait())
    after = {c["name"]: c["restarts"] for c in client.get("/api/state").json()["components"]}
    assert after["inbox"] == before["inbox"] + 1


def test_live_stream_sends_state_on_change(client: httpx.Client, running: RunningAppliance) -> None:
    with client.stream("GET", "/api/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        first = _next_state(lines)
        running.ask("which room")
        for _ in range(50):
            later = _next_state(lines)
            if later["questions"] and later["questions"][0]["question"] == "which room":
                break
        else:
            pytest.fail("the asked question never appeared on the live stream")
        assert later["version"] > first["version"]
        assert later["questions"][0]["answer"].startswith("No room is near")


def _next_state(lines) -> dict[str, object]:  # type: ignore[no-untyped-def]
    for line in lines:
        if line.startswith("data: "):
            return json.loads(line[6:])  # type: ignore[no-any-return]
    raise AssertionError("stream ended")


def test_token_file_is_private(running: RunningAppliance) -> None:
    token_file = running.data_dir / "secrets" / "admin-token"
    assert token_file.stat().st_mode & 0o777 == 0o600
    assert (token_file.parent.stat().st_mode & 0o777) == 0o700
    assert Path(token_file).read_text().strip() == running.token


def test_uploading_a_drawing_indexes_it_through_vision(
    client: httpx.Client, running: RunningAppliance
) -> None:
    import io

    from appliance.service.samples import SAMPLES, draw_sample

    buffer = io.BytesIO()
    draw_sample(SAMPLES[1]).save(buffer, format="PNG")
    up = client.post(
        "/api/admin/upload?filename=B-2040_revA.png&namespace=shop",
        content=buffer.getvalue(),
        headers=_auth(running),
    )
    assert up.status_code == 202, up.text
    running.call(running.appliance.queue.drained())
    shop = {s["source"]: s for s in client.get("/api/sources").json()["shop"]}
    assert shop["inbox/shop/B-2040_revA.png"]["drawing_number"] == "B-2040"
    jobs = client.get("/api/state").json()["jobs"]
    assert any(j["source"] == "B-2040_revA.png" and j["state"] == "done" for j in jobs)
