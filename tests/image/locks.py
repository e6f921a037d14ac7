"""The lock tool, ``image-build/lock_hashes.py``, for the tests: loaded from its path, as
``image-build/`` is not a package (the tool runs alone, with nothing but the standard library)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
RUNTIME_LOCK = REPO / "requirements-runtime.lock"
DEV_LOCK = REPO / "requirements.lock"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "lock_hashes", REPO / "image-build" / "lock_hashes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("lock_hashes", module)  # its dataclass looks its module up by name
    spec.loader.exec_module(module)
    return module


lock_hashes = _load()
