"""How much of what was drawn is in the index: the ceiling of every answer about a rendered drawing.

The rendered drawings of the answers set (bench/answer_drawings.py) are exactly their records, so
every title-block value, note, dimension, hole-table cell, revision cell and parts-list cell drawn
is known. This looks each one up in the slices an index built by bench/answer_eval.py holds for
that drawing, compared as the answer bench compares (bench/answer_eval_set.matches: case and
spacing aside), with a decimal comma also found as the point the index writes.

Printed per split: by kind and by title-block style; the held-out part by style and kind as totals
(what was not read is listed for tuning and dev only, with -v).

    .venv/bin/python bench/answer_readable.py --index-dir bench/out/answer_eval-zh [--condition photo] [-v]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.index.store import IndexStore
from bench.answer_causes import IndexedText
from bench.answer_drawings import DRAWINGS, Drawing
from bench.answer_eval import open_config
from bench.answer_eval_set import matches


def drawn_items(d: Drawing) -> list[tuple[str, str]]:
    """(kind, text) of everything drawn on ``d`` that a question may ask for."""
    items = [("field", f.value) for f in d.fields if f.value]
    items += [("note", n) for n in d.notes] + [("dimension", x.text) for x in d.dims]
    items += [("hole", v) for h in d.holes for v in (h.tag, h.x, h.y, h.size, h.count, h.note) if v]
    items += [
        ("revision", v)
        for r in d.revisions
        for v in (r.rev, r.text, r.date, r.zone, r.by, r.doc)
        if v
    ]
    items += [
        ("parts list", v)
        for p in d.parts
        for v in (p.pos, p.qty, p.name, p.number, p.material, p.note)
        if v
    ]
    return items


def found(text: str, drawn: str) -> bool:
    return matches(text, drawn) or ("," in drawn and matches(text, drawn.replace(",", ".")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--condition", choices=["clean", "photo"], default="clean")
    parser.add_argument("-v", action="store_true", help="list what tuning and dev did not read")
    args = parser.parse_args()
    root = (args.index_dir / args.condition).resolve()
    if not (root / "data" / "index.sqlite3").exists():
        raise SystemExit(f"no index in {root}: build it with bench/answer_eval.py first")
    with IndexStore.open(open_config(root, None)) as store:
        indexed = IndexedText(store)
        texts = {d.file_name: indexed.of(d.file_name) for d in DRAWINGS}
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    missed: list[str] = []
    for d in DRAWINGS:
        text = texts[d.file_name]
        if not text:
            print(f"  {d.file_name} is not in the index")
        for kind, drawn in drawn_items(d):
            ok = found(text, drawn)
            for key in ("all", f"kind {kind}", f"style {d.style}"):
                tally[(d.split, key)][0] += ok
                tally[(d.split, key)][1] += 1
            if not ok and d.split != "heldout":
                missed.append(f"  {d.split:7} {d.file_name:32} {kind:10} {drawn}")
    print(f"drawn and found in {root.parent.name}/{args.condition}")
    for split in ("tuning", "dev", "heldout"):
        for (s, key), (hit, n) in sorted(tally.items()):
            if s == split:
                print(f"  {split:8} {key:18} {hit:4}/{n:<4} {100 * hit / n:5.1f} %")
    if args.v:
        print("\n".join(missed))


if __name__ == "__main__":
    main()
