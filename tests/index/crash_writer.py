"""Child process for the crash test: replaces one large source again and again until killed.

It prints ``midway <version>`` after half of a version's rows are inserted (inside the write
transaction), so the parent can SIGKILL it at that exact moment.
"""

from __future__ import annotations

import sys
from pathlib import Path

from appliance.document import DocumentSlice, SourceDocument
from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore

N_SLICES = 400


class SignallingStore(IndexStore):
    """Announces the middle of the insert so the parent's kill lands inside the transaction."""

    version = 0

    def _insert_slices(self, source_id, namespace, slices, vectors):
        half = len(slices) // 2
        super()._insert_slices(source_id, namespace, slices[:half], vectors[:half])
        print(f"midway {self.version}", flush=True)
        super()._insert_slices(source_id, namespace, slices[half:], vectors[half:])


def main() -> None:
    db_path = Path(sys.argv[1])
    embedder = Embedder.from_manifest("all-minilm-l6-v2-int8", Path("/nonexistent"))
    store = SignallingStore.open_path(db_path, embedder=embedder)
    version = int(sys.argv[2])
    while True:
        store.version = version
        texts = [
            f"version {version} slice {i} of the large bracket document" for i in range(N_SLICES)
        ]
        doc = SourceDocument(
            "big.md", "shop", f"v{version}", tuple(DocumentSlice(text=t) for t in texts)
        )
        store.replace_source(doc)
        print(f"committed {version}", flush=True)
        version += 1


if __name__ == "__main__":
    main()
