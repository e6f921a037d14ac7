"""A text line read by a neural line recogniser: an ONNX model the manifest names, decoded here.

Tesseract finds the lines of a drawing and reads them. Its Chinese model reads rendered Chinese
notes and cells poorly ("表面镀锌钝化" as "RHC, WEEE", "±" as "4"); a recogniser trained on
Chinese and English text lines reads the same crops well. The model takes one line image, 48 pixels
high and as wide as its aspect needs, in three channels scaled to -1..1, and gives a probability
for each character of its alphabet (index 0 is the CTC blank, the last one a space) at each step
along the line. The alphabet is in the model's own metadata (``character``, one per line), so the
file and its alphabet cannot disagree.

The session is made once per model file and process, and is shared: reading is serialised by a lock
(onnxruntime sessions are thread-safe, but one thread per session keeps two cores free for
Tesseract's processes beside it).
"""

from __future__ import annotations

import functools
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from appliance.errors import ModelError
from appliance.models.manifest import load_manifest
from appliance.models.store import locate

log = logging.getLogger(__name__)

#: Pixel height the model reads lines at.
LINE_HEIGHT = 48
#: Narrowest line image given to the model (a single character is about square).
_MIN_WIDTH = 16
#: Width lines narrower than this are padded to (see :meth:`LineModel.read`).
_PADDED_WIDTH = 320
#: Widest line image: a line longer than 40 heights is a misread box, not a line of text.
_MAX_WIDTH = 40 * LINE_HEIGHT


@dataclass(frozen=True)
class LineReading:
    """What the model read in one line image."""

    #: The characters read, CTC-decoded (repeats merged, blanks dropped).
    text: str
    #: Mean probability of the characters read (0..1); 0 when nothing was read.
    conf: float


class LineModel:
    """A CTC text-line recogniser in ONNX; thread-safe."""

    def __init__(self, model_path: Path, *, name: str = "") -> None:
        self.name = name or model_path.stem
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        try:
            self._session = ort.InferenceSession(
                str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
            )
            alphabet = self._session.get_modelmeta().custom_metadata_map.get("character", "")
        except Exception as err:  # onnxruntime raises its own untyped exceptions
            raise ModelError(
                f"line model {self.name} cannot be loaded ({type(err).__name__})",
                code="model_load_failed",
            ) from err
        chars = alphabet.splitlines()
        classes = self._session.get_outputs()[0].shape[-1]
        if not chars or (isinstance(classes, int) and classes != len(chars) + 2):
            raise ModelError(
                f"line model {self.name}: its alphabet ({len(chars)} characters) does not match "
                f"its output ({classes} classes)",
                code="model_load_failed",
            )
        self._alphabet = ["", *chars, " "]
        self._input = self._session.get_inputs()[0].name
        self._lock = threading.Lock()

    def read(self, gray: np.ndarray) -> LineReading:
        """Read one line image (uint8 grey, dark text on light paper, cropped to the line)."""
        if gray.ndim != 2 or min(gray.shape) < 2:
            return LineReading("", 0.0)
        height, width = gray.shape
        new_width = int(np.clip(round(width * LINE_HEIGHT / height), _MIN_WIDTH, _MAX_WIDTH))
        shrink = height > LINE_HEIGHT
        line = cv2.resize(
            gray,
            (new_width, LINE_HEIGHT),
            interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC,
        )
        x = line.astype(np.float32) / 127.5 - 1.0
        if new_width < _PADDED_WIDTH:
            # The model learnt on lines padded on the right to at least this width with zeros (mid
            # grey once scaled); a lone "2" given alone is read as "N".
            x = np.pad(x, ((0, 0), (0, _PADDED_WIDTH - new_width)))
        batch = np.repeat(x[None, None], 3, axis=1)
        with self._lock:
            probs = self._session.run(None, {self._input: batch})[0][0]
        return self._decode(probs)

    def _decode(self, probs: np.ndarray) -> LineReading:
        best = probs.argmax(axis=1)
        chars: list[str] = []
        sure: list[float] = []
        previous = 0
        for step, index in enumerate(best):
            if index != previous and index != 0:
                chars.append(self._alphabet[index])
                sure.append(float(probs[step, index]))
            previous = index
        text = "".join(chars).strip()
        return LineReading(text, float(np.mean(sure)) if text else 0.0)


@functools.lru_cache(maxsize=4)
def _loaded(name: str, models_dir: Path) -> LineModel:
    spec = load_manifest().get(name)
    return LineModel(locate(spec, "onnx", models_dir), name=name)


#: Models already reported as unusable (one warning per process, not one per page).
_REPORTED: set[str] = set()


def line_model(name: str, models_dir: Path) -> LineModel | None:
    """The named line model, loaded once per process; None (with a warning) when it cannot be.

    A missing or damaged model costs the readings it would have mended, not the page: the page is
    read by Tesseract alone, as it is with the model turned off.
    """
    if not name:
        return None
    try:
        return _loaded(name, models_dir)
    except ModelError as err:
        if name not in _REPORTED:
            _REPORTED.add(name)
            log.warning("line model %s not used, pages are read by Tesseract alone: %s", name, err)
        return None
