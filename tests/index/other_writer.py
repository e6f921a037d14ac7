"""Child process for the freshness tests: writes to an index another process is searching.

python other_writer.py DB replace NAMESPACE SOURCE TEXT
python other_writer.py DB delete NAMESPACE SOURCE
"""

from __future__ import annotations

import sys
from pathlib import Path

from appliance.document import DocumentSlice, SourceDocument
from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore


def main() -> None:
    db, action, namespace, source = sys.argv[1:5]
    embedder = Embedder.from_manifest("all-minilm-l6-v2-int8", Path("/nonexistent"))
    with IndexStore.open_path(Path(db), embedder=embedder) as store:
        if action == "replace":
            text = sys.argv[5]
            doc = SourceDocument(source, namespace, f"h-{text}", (DocumentSlice(text=text),))
            store.replace_source(doc)
        else:
            store.delete_source(namespace, source)
    print("done", flush=True)


if __name__ == "__main__":
    main()
