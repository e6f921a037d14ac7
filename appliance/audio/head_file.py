"""The ``.npz`` file of a small numpy model trained here: float32 arrays and a JSON meta, no pickles.

The keyword head (:mod:`appliance.audio.wake_model`) and the contrast stage
(:mod:`appliance.audio.wake_contrast`) are both stored this way; each checks its own shapes.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from appliance.audio.errors import SpeechModelError


def save_arrays(path: Path, arrays: dict[str, npt.NDArray[Any]], meta: dict[str, Any]) -> None:
    """Write the arrays as float32 and the meta as a JSON string (keys sorted: same bytes)."""
    floats = {name: np.asarray(a, dtype=np.float32) for name, a in arrays.items()}
    text = np.array(json.dumps(meta, sort_keys=True))
    with path.open("wb") as fh:
        np.savez(fh, meta=text, **floats)  # type: ignore[arg-type]


def load_arrays(
    path: Path, names: Sequence[str], what: str
) -> tuple[dict[str, npt.NDArray[np.float32]], dict[str, Any]]:
    """The named arrays and the meta; a SpeechModelError naming ``what`` when it is no such file."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: np.asarray(data[name], dtype=np.float32) for name in names}
            meta = json.loads(str(data["meta"]))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
        raise SpeechModelError(f"wake {what} {path.name}: not a {what} file ({err})") from None
    return arrays, meta
