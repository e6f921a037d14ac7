"""The camera to a source document: the one path ``openclaw scan`` and the service's "scan this" share.

The configured camera is opened for one burst, the sharpest frame that passes the quality gate is
kept and read (:func:`~appliance.vision.capture.capture_page`), and it becomes a
:class:`~appliance.document.SourceDocument` named after the capture, with its artifacts written.
Indexing it is the caller's: the CLI opens its own store, the service hands it to its one writer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from appliance.document import SourceDocument
from appliance.vision.cameras import open_camera
from appliance.vision.capture import Capture, capture_page, capture_source_id, capture_stamp
from appliance.vision.ingest import source_document

if TYPE_CHECKING:
    from appliance.config import Config


def capture_document(
    config: Config, namespace: str, *, captured: Callable[[], None] | None = None
) -> tuple[Capture, SourceDocument]:
    """Capture a page from the configured camera and make it a source document of ``namespace``.

    ``captured`` is called once the shot passed the gate, before the document is made (the
    service's progress). A rejected shot raises the vision part's PageQualityError, whose message
    says what to do ("too blurry, hold it still"); no document is made then.
    """
    camera = open_camera(config.vision, config.paths.data_dir)
    try:
        capture = capture_page(camera, config.vision)
    finally:
        camera.close()
    if captured is not None:
        captured()
    document = source_document(
        capture.analysis,
        capture.frame.image,
        data=capture.frame.data,
        namespace=namespace,
        source=capture_source_id(capture.frame),
        config=config,
        media_type="image/jpeg",
        mtime=capture.frame.captured_at,
        fallback_title=f"capture {capture_stamp(capture.frame)}",
    )
    return capture, document
