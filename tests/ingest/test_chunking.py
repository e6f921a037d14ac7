"""Structure-aware chunking of Markdown and plain text."""

from __future__ import annotations

import itertools

from appliance.index.slices import SliceKind
from appliance.ingest.chunking import pack, token_count
from appliance.ingest.markdown import markdown_blocks, text_blocks

DOC = """# Bracket

Intro paragraph about the bracket.

## Assembly

Step one. Step two.

```python
def torque():
    return 25
```

| bolt | torque |
|------|--------|
| M8   | 25 N·m |

### Notes
Last words.
"""


def test_markdown_blocks_carry_sections_and_lines() -> None:
    blocks = list(markdown_blocks(DOC))
    kinds = [(b.kind, b.section) for b in blocks]
    assert kinds == [
        (SliceKind.PROSE, "Bracket"),
        (SliceKind.PROSE, "Bracket > Assembly"),
        (SliceKind.CODE, "Bracket > Assembly"),
        (SliceKind.TABLE, "Bracket > Assembly"),
        (SliceKind.PROSE, "Bracket > Assembly > Notes"),
    ]
    code = blocks[2]
    assert (code.line_start, code.line_end) == (9, 12)
    assert DOC.split("\n")[code.line_start - 1].startswith("```")


def test_code_and_tables_are_never_cut() -> None:
    long_code = "```\n" + "\n".join(f"line {i} of code" for i in range(300)) + "\n```"
    table = "\n".join(f"| r{i} | v{i} |" for i in range(200))
    text = f"# T\n\n{long_code}\n\n{table}\n\nafter"
    slices = pack(markdown_blocks(text), target=50, overlap=10)
    code = [s for s in slices if s.kind is SliceKind.CODE]
    tables = [s for s in slices if s.kind is SliceKind.TABLE]
    assert len(code) == 1 and code[0].text.count("line ") == 300
    assert len(tables) == 1 and tables[0].text.count("| r") == 200


def test_prose_is_packed_with_overlap() -> None:
    paragraphs = [f"Paragraph {i} " + "word " * 40 for i in range(20)]
    slices = pack(text_blocks("\n\n".join(paragraphs)), target=100, overlap=45)
    assert len(slices) > 5
    assert all(token_count(s.text) <= 100 for s in slices)
    # Consecutive slices share the paragraph on their boundary.
    for a, b in itertools.pairwise(slices):
        last_para = a.text.split("\n\n")[-1]
        assert b.text.startswith(last_para)
    covered = "\n\n".join(s.text for s in slices)
    assert all(p.strip() in covered for p in paragraphs)


def test_overlong_sentence_is_split_at_words() -> None:
    slices = pack(text_blocks("word " * 1000), target=100, overlap=0)
    assert len(slices) == 10 and all(token_count(s.text) == 100 for s in slices)


def test_chinese_counts_characters() -> None:
    assert token_count("安装支架") == 4
    assert token_count("M8 bolt 扭矩") == 4
