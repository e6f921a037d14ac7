"""Layering: the rooms the service wires together never import the service back; vision never
imports ingest.

The service builds the status page (``web/``) and the LEDs and buttons (``gpio/``); they read what
they need (the live state, the latency book, the log redaction) from modules below all three. An
import the other way would make a circle again, so every import is counted: at module level, inside
functions, under ``TYPE_CHECKING``, relative ones, and module names handed to ``importlib``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "appliance"

_ABOVE = ("appliance.service", "appliance.web", "appliance.gpio")
#: Room (a package or a module under appliance/) -> the packages it must never import.
FORBIDDEN = {
    "web": ("appliance.service",),
    "gpio": ("appliance.service",),
    # What all three read sits below all three.
    "state.py": _ABOVE,
    "latency.py": _ABOVE,
    "logs.py": _ABOVE,
    # Ingest hands images and scanned pages to vision; vision never reaches back into ingest.
    "vision": ("appliance.ingest",),
}
#: Room -> files of it the rule does not cover: a room's command line sits above the rooms, as
#: appliance/cli.py does (``openclaw ocr FILE`` renders a PDF page and builds a document through
#: ingest before showing what vision reads).
COMMAND_LINES = {"vision": ("cli.py",)}


def _module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, root: Path = PACKAGE) -> Iterator[tuple[int, str]]:
    """Every module a file under ``root`` imports, as (line, absolute dotted name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package.pop()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            yield node.lineno, prefix
            # "from appliance import service" imports the package too.
            for alias in node.names:
                yield node.lineno, f"{prefix}.{alias.name}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value


def _violations(room: str, package: Path = PACKAGE) -> list[str]:
    found: dict[str, str] = {}  # one entry per import statement, the first name it matched
    place = package / room
    skipped = {place / name for name in COMMAND_LINES.get(room, ())}
    for path in [place] if place.is_file() else sorted(place.rglob("*.py")):
        if path in skipped:
            continue
        for line, name in imported_modules(path, package):
            where = f"{path.relative_to(package.parent)}:{line}"
            if any(name == b or name.startswith(b + ".") for b in FORBIDDEN[room]):
                found.setdefault(where, f"{where} imports {name}")
    return list(found.values())


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_room_does_not_import_what_runs_above_it(room: str) -> None:
    assert (PACKAGE / room).exists()
    assert _violations(room) == []


def test_the_scan_sees_every_kind_of_import(tmp_path: Path) -> None:
    # A scan that finds nothing proves little unless it would have found each form.
    room = tmp_path / "appliance" / "web"
    room.mkdir(parents=True)
    (room / "bad.py").write_text(
        "import appliance.service.appliance\n"
        "from appliance.service.state import X\n"
        "from appliance import service\n"
        "from ..service import pipeline\n"
        "def f():\n"
        "    import importlib\n"
        "    importlib.import_module('appliance.service.parts')\n"
    )
    found = _violations("web", tmp_path / "appliance")
    assert sorted({int(v.split(":")[1].split()[0]) for v in found}) == [1, 2, 3, 4, 7]


def test_ingest_imports_vision_where_the_checkers_see_it() -> None:
    # ingest loads vision inside the functions that need it (start-up time), as plain imports:
    # the scan above and mypy see them, which a name handed to importlib would hide from mypy.
    ingest = PACKAGE / "ingest"
    found = {
        name
        for path in sorted(ingest.rglob("*.py"))
        for _, name in imported_modules(path)
        if name.startswith("appliance.vision")
    }
    assert {"appliance.vision.ingest", "appliance.vision.pdftitle"} <= found
    assert not [p.name for p in ingest.rglob("*.py") if "import_module(" in p.read_text("utf-8")]
