"""Drawings in: camera capture, quality gate, page correction, OCR with boxes, title blocks.

Entry points: :func:`appliance.vision.ingest.ingest_image` and
:func:`appliance.vision.ingest.ocr_page_image` (used by the ingest pipeline),
:func:`appliance.vision.capture.capture_page` (camera), and the ``openclaw ocr`` / ``openclaw scan``
commands in :mod:`appliance.vision.cli`. See docs/vision.md.
"""
