"""The status page: a Starlette app serving the page, its JSON, live events and admin actions.

Read-only views need no token. Every ``/api/admin/*`` action needs the admin token in an
``Authorization: Bearer`` header. Only thumbnails and corrected images under ``data_dir/artifacts`` can be
served, and only after the resolved path is checked to be inside it. Errors are JSON
``{"code", "message"}`` without paths or internals.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from appliance.errors import InputError, OpenClawError
from appliance.ingest.names import is_printable
from appliance.state import LiveState
from appliance.web.auth import token_matches
from appliance.web.base import ApplianceControl
from appliance.web.guards import HostAllowList, JsonTooDeep, TrustedHosts, parse_json
from appliance.web.metrics import StateCollector
from appliance.web.settings import WebSettings

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).with_name("static")
#: Image types the artifact route serves.
ARTIFACT_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
}
_SAFE_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
_SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
#: What the API's answers say to caches: they hold transcripts, so no copy is kept anywhere.
_NO_STORE = (b"cache-control", b"no-store")
#: Free space an upload must leave on the data directory's disk (the index must still be writable).
UPLOAD_DISK_RESERVE = 256 * 1024 * 1024
#: Upload bytes collected before each write to the staging file.
_UPLOAD_WRITE_BYTES = 1 << 20


def _sync(fh: Any) -> None:
    fh.flush()
    os.fsync(fh.fileno())


class RequestRejected(InputError):
    """An HTTP request that is malformed, too large or not allowed."""

    code = "request_invalid"

    def __init__(self, message: str, *, code: str | None = None, status: int = 400) -> None:
        super().__init__(message, code=code)
        #: HTTP status to answer with.
        self.status = status


def json_bytes(data: Any) -> bytes:
    """JSON as UTF-8; strings that are not valid Unicode (undecodable file names) are escaped."""
    text = json.dumps(data, ensure_ascii=False, default=str)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, ensure_ascii=True, default=str).encode("ascii")


class SafeJSONResponse(JSONResponse):
    """A JSON response that never fails to serialise a name (see :func:`json_bytes`)."""

    def render(self, content: Any) -> bytes:
        return json_bytes(content)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return SafeJSONResponse({"code": code, "message": message}, status_code=status)


class SecurityHeaders:
    """ASGI middleware adding a strict content security policy and no-sniff to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + _SECURITY_HEADERS
                if api:
                    headers = [h for h in headers if h[0].lower() != b"cache-control"]
                    headers.append(_NO_STORE)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def resolve_artifact(artifacts_root: Path, rel: str) -> Path:
    """The file for ``/artifacts/<rel>``, or RequestRejected; never anything outside the root."""
    if not rel or "\x00" in rel or "\\" in rel or rel.startswith("/"):
        raise RequestRejected("bad artifact path", code="path_invalid")
    parts = rel.split("/")
    if any(not _SAFE_PART.match(p) or p in (".", "..") for p in parts):
        raise RequestRejected("bad artifact path", code="path_invalid")
    if Path(parts[-1]).suffix.lower() not in ARTIFACT_TYPES:
        raise RequestRejected("only images are served from the store", code="path_invalid")
    root = artifacts_root.resolve()
    try:
        path = (root / rel).resolve(strict=True)
    except (FileNotFoundError, RuntimeError, OSError):
        raise RequestRejected("no such artifact", code="not_found", status=404) from None
    # A symlink inside the store pointing elsewhere is refused as well.
    if not path.is_relative_to(root) or not path.is_file():
        raise RequestRejected("no such artifact", code="not_found", status=404)
    return path


class StatusPage:
    """Builds the Starlette app around the live state and the appliance's controls."""

    def __init__(
        self,
        state: LiveState,
        control: ApplianceControl,
        settings: WebSettings,
        data_dir: Path,
        token: str,
        registry: CollectorRegistry | None = None,
    ) -> None:
        self.state = state
        self.control = control
        self.settings = settings
        self.artifacts_root = data_dir / "artifacts"
        #: Uploads are streamed into this folder, then moved into the inbox.
        self.uploads_dir = data_dir / "uploads"
        #: The Host names this page answers.
        self.hosts = HostAllowList(settings.allowed_hosts, settings.host)
        self._token = token
        self.registry = registry or CollectorRegistry()
        self.registry.register(StateCollector(state))
        #: Set when the server is shutting down: live streams end.
        self.closing = asyncio.Event()
        self.streams = 0
        self._snapshot_cache: tuple[int, bytes] = (-1, b"")

    # -- helpers ---------------------------------------------------------------------------------
    def snapshot_bytes(self) -> bytes:
        """The state as JSON, serialised once per version however many clients ask."""
        version, data = self._snapshot_cache
        if version != self.state.version or not data:
            data = json_bytes(self.state.snapshot())
            self._snapshot_cache = (self.state.version, data)
        return data

    def _require_admin(self, request: Request) -> None:
        header = request.headers.get("authorization", "")
        scheme, _, given = header.partition(" ")
        if not header:
            raise RequestRejected(
                "this action needs the admin token", code="token_missing", status=401
            )
        if scheme.lower() != "bearer" or not token_matches(self._token, given.strip()):
            raise RequestRejected("the admin token is wrong", code="token_invalid", status=403)

    async def _json_body(self, request: Request) -> dict[str, Any]:
        limit = self.settings.max_json_kb * 1024
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            raise RequestRejected("request body too large", code="body_too_large", status=413)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise RequestRejected("request body too large", code="body_too_large", status=413)
        if not body:
            return {}
        try:
            data = parse_json(body)
        except JsonTooDeep as err:
            raise RequestRejected(f"the body is {err}", code="json_too_deep") from None
        except ValueError:  # also invalid UTF-8 and integers too long to convert
            raise RequestRejected("the body is not valid JSON", code="json_invalid") from None
        if not isinstance(data, dict):
            raise RequestRejected("the body must be a JSON object", code="json_invalid")
        return data

    @staticmethod
    def _str_field(data: dict[str, Any], key: str, *, required: bool = True) -> str | None:
        value = data.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value or len(value) > 500 or not is_printable(value):
            raise RequestRejected(f"field {key!r} must be a non-empty string", code="field_invalid")
        return value

    # -- read-only routes ------------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    async def api_state(self, request: Request) -> Response:
        return Response(self.snapshot_bytes(), media_type="application/json")

    async def api_sources(self, request: Request) -> Response:
        return SafeJSONResponse(await self.control.sources())

    async def events(self, request: Request) -> Response:
        if self.streams >= self.settings.max_streams:
            return _error(503, "too_many_streams", "too many live viewers; try again later")
        return StreamingResponse(
            self._event_stream(request),
            media_type="text/event-stream",
            headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
        )

    async def _event_stream(self, request: Request) -> AsyncIterator[bytes]:
        self.streams += 1
        try:
            seen = -1
            yield b"retry: 2000\n\n"
            while not self.closing.is_set():
                if await self.state.wait_change(seen, self.settings.sse_keepalive_s):
                    seen = self.state.version
                    yield b"event: state\ndata: " + self.snapshot_bytes() + b"\n\n"
                else:
                    if await request.is_disconnected():
                        return
                    yield b": keep-alive\n\n"
        finally:
            self.streams -= 1

    async def artifact(self, request: Request) -> Response:
        path = resolve_artifact(self.artifacts_root, request.path_params["path"])
        return FileResponse(path, media_type=ARTIFACT_TYPES[path.suffix.lower()])

    async def metrics(self, request: Request) -> Response:
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)

    async def healthz(self, request: Request) -> Response:
        ok, failing = self.control.healthy()
        return SafeJSONResponse(
            {"status": "ok" if ok else "degraded", "failing": failing},
            status_code=200 if ok else 503,
        )

    # -- admin routes ----------------------------------------------------------------------------
    async def admin_check(self, request: Request) -> Response:
        self._require_admin(request)
        return SafeJSONResponse({"ok": True})

    async def upload(self, request: Request) -> Response:
        self._require_admin(request)
        namespace = request.query_params.get("namespace", "global")
        filename = request.query_params.get("filename", "")
        limit = self.settings.max_upload_mb * 1024 * 1024
        too_large = RequestRejected(
            f"upload larger than {self.settings.max_upload_mb} MB",
            code="upload_too_large",
            status=413,
        )
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            raise too_large
        self.uploads_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        if shutil.disk_usage(self.uploads_dir).free < int(length or 0) + UPLOAD_DISK_RESERVE:
            raise RequestRejected(
                "not enough free space on the appliance for this upload",
                code="disk_full",
                status=507,
            )
        staged = self.uploads_dir / f"{secrets.token_hex(8)}.part"
        try:
            size = await self._stream_to(staged, request, limit, too_large)
            if size == 0:
                raise RequestRejected("the upload is empty", code="upload_empty")
            result = await self.control.upload(namespace, filename, staged)
        finally:
            with contextlib.suppress(FileNotFoundError):
                staged.unlink()  # still here when the upload was refused
        return SafeJSONResponse(result, status_code=202)

    @staticmethod
    async def _stream_to(
        staged: Path, request: Request, limit: int, too_large: RequestRejected
    ) -> int:
        """Write the request body to ``staged`` as it arrives (never whole in memory); its size."""
        fd = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            size = 0
            pending: list[bytes] = []
            buffered = 0
            try:
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > limit:
                        raise too_large
                    pending.append(chunk)
                    buffered += len(chunk)
                    if buffered >= _UPLOAD_WRITE_BYTES:
                        await asyncio.to_thread(fh.write, b"".join(pending))
                        pending, buffered = [], 0
                await asyncio.to_thread(fh.write, b"".join(pending))
                await asyncio.to_thread(_sync, fh)
            except OSError as err:
                raise RequestRejected(
                    f"the upload cannot be stored ({os.strerror(err.errno or 0)})",
                    code="disk_full",
                    status=507,
                ) from None
        return size

    async def reindex(self, request: Request) -> Response:
        self._require_admin(request)
        data = await self._json_body(request)
        namespace = self._str_field(data, "namespace", required=False)
        return SafeJSONResponse(await self.control.reindex(namespace), status_code=202)

    async def forget(self, request: Request) -> Response:
        self._require_admin(request)
        data = await self._json_body(request)
        namespace = self._str_field(data, "namespace")
        source = self._str_field(data, "source")
        assert namespace is not None and source is not None
        return SafeJSONResponse(await self.control.forget(namespace, source))

    async def room(self, request: Request) -> Response:
        self._require_admin(request)
        data = await self._json_body(request)
        room = data.get("room")
        if room is not None and (
            not isinstance(room, str) or not room or len(room) > 100 or not is_printable(room)
        ):
            raise RequestRejected("field 'room' must be a room name or null", code="field_invalid")
        return SafeJSONResponse(await self.control.set_room(room))

    async def restart(self, request: Request) -> Response:
        self._require_admin(request)
        data = await self._json_body(request)
        component = self._str_field(data, "component")
        assert component is not None
        return SafeJSONResponse(await self.control.restart(component))

    # -- errors ----------------------------------------------------------------------------------
    async def on_openclaw_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, OpenClawError)
        status = getattr(exc, "status", None) or (400 if isinstance(exc, InputError) else 500)
        return _error(status, exc.code, exc.message)

    async def on_http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        codes = {404: "not_found", 405: "method_not_allowed"}
        return _error(exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail))

    async def on_crash(self, request: Request, exc: Exception) -> Response:
        log.exception("status page request failed")
        return _error(500, "internal_error", "internal error (details in the service log)")

    def build(self) -> Starlette:
        """The ASGI application."""
        routes = [
            Route("/", self.index),
            Route("/api/state", self.api_state),
            Route("/api/sources", self.api_sources),
            Route("/api/events", self.events),
            Route("/artifacts/{path:path}", self.artifact),
            Route("/metrics", self.metrics),
            Route("/healthz", self.healthz),
            Route("/api/admin/check", self.admin_check, methods=["POST"]),
            Route("/api/admin/upload", self.upload, methods=["POST"]),
            Route("/api/admin/reindex", self.reindex, methods=["POST"]),
            Route("/api/admin/forget", self.forget, methods=["POST"]),
            Route("/api/admin/room", self.room, methods=["POST"]),
            Route("/api/admin/restart", self.restart, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        ]
        app = Starlette(
            routes=routes,
            exception_handlers={
                OpenClawError: self.on_openclaw_error,
                HTTPException: self.on_http_error,
                Exception: self.on_crash,
            },
        )
        app.add_middleware(SecurityHeaders)
        # Outermost: a request for someone else's name is refused before anything else runs.
        app.add_middleware(TrustedHosts, hosts=self.hosts)
        return app
