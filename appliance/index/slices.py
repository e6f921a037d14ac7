"""The document types under their older address: they live in :mod:`appliance.document`.

``answer/`` and two vision modules still import them from here; new code imports
:mod:`appliance.document`.
"""

from appliance.document import Box, DocumentSlice, SliceKind, SourceDocument

__all__ = ["Box", "DocumentSlice", "SliceKind", "SourceDocument"]
