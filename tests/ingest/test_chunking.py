"""Structure-aware chunking of Markdown and plain text, sized by the embedder's own tokenizer."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from appliance.document import SliceKind
from appliance.index.tokens import PassageTokens, passage_tokens
from appliance.ingest.chunking import pack, sentences
from appliance.ingest.markdown import markdown_blocks, text_blocks

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"

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


@pytest.fixture(scope="module")
def tokens() -> PassageTokens:
    return passage_tokens("all-minilm-l6-v2-int8", Path("/nonexistent"))


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


def test_small_atomic_blocks_stay_whole(tokens: PassageTokens) -> None:
    slices = pack(markdown_blocks(DOC), target=254, overlap=48, tokens=tokens)
    code = [s for s in slices if s.kind is SliceKind.CODE]
    tables = [s for s in slices if s.kind is SliceKind.TABLE]
    assert [c.text for c in code] == ["```python\ndef torque():\n    return 25\n```"]
    assert len(tables) == 1 and tables[0].text.endswith("| M8   | 25 N·m |")
    assert "part" not in tables[0].extra


def test_long_table_is_split_at_rows_with_its_header(tokens: PassageTokens) -> None:
    rows = "\n".join(f"| M{i} | {i * 5} N·m | steel bolt grade 8.8 |" for i in range(200))
    text = f"# T\n\n| size | torque | note |\n|---|---|---|\n{rows}\n\nafter"
    slices = pack(markdown_blocks(text), target=254, overlap=48, tokens=tokens)
    tables = [s for s in slices if s.kind is SliceKind.TABLE]
    assert len(tables) > 3
    assert all(tokens.seen(s.text) <= tokens.max_length for s in slices)
    for i, part in enumerate(tables, 1):
        assert part.text.startswith("| size | torque | note |\n|---|---|---|\n")
        assert part.extra["part"] == [i, len(tables)]
    body = [line for t in tables for line in t.text.split("\n")[2:]]
    assert body == rows.split("\n")  # every row once, in order, none cut
    # Each part's lines point at its own rows of the source.
    source = text.split("\n")
    for part in tables:
        assert source[part.line_start - 1] == part.text.split("\n")[2]
        assert source[part.line_end - 1] == part.text.split("\n")[-1]


def test_long_code_is_split_at_lines(tokens: PassageTokens) -> None:
    code = "```\n" + "\n".join(f"value_{i} = compute({i}, factor=0.{i})" for i in range(150))
    slices = pack(markdown_blocks(code + "\n```\n"), target=254, overlap=48, tokens=tokens)
    assert len(slices) > 2 and all(s.kind is SliceKind.CODE for s in slices)
    assert all(tokens.seen(s.text) <= tokens.max_length for s in slices)
    assert "\n".join(s.text for s in slices) == code + "\n```"


def _carried(a: str, b: str) -> str:
    """The longest start of ``b`` that ``a`` ends with."""
    return next((b[:k] for k in range(len(b), 0, -1) if a.endswith(b[:k])), "")


@pytest.mark.parametrize("sentence_words", [6, 40])
def test_prose_is_packed_with_overlap(tokens: PassageTokens, sentence_words: int) -> None:
    # Short sentences are carried whole; a sentence longer than the overlap by its last words.
    paragraphs = [
        " ".join(
            f"Clamp {i}.{j} takes torque {i * j} " + "newton metres " * (sentence_words // 2) + "."
            for j in range(4)
        )
        for i in range(20)
    ]
    slices = pack(text_blocks("\n\n".join(paragraphs)), target=100, overlap=30, tokens=tokens)
    assert len(slices) > 5
    assert all(tokens.count(s.text) <= 100 for s in slices)
    for a, b in itertools.pairwise(slices):
        carried = _carried(a.text, b.text)
        assert 0 < tokens.count(carried) <= 30, (a.text, b.text)
    covered = " ".join(s.text for s in slices)
    assert all(f"Clamp {i}.{j} " in covered for i in range(20) for j in range(4))


def test_no_overlap_across_sections(tokens: PassageTokens) -> None:
    text = "# A\n\n" + "Alpha words here. " * 10 + "\n\n# B\n\n" + "Beta words here. " * 10
    slices = pack(markdown_blocks(text), target=254, overlap=48, tokens=tokens)
    assert [s.section for s in slices] == ["A", "B"]
    assert "Alpha" not in slices[1].text


def test_sentences_keep_their_separators(tokens: PassageTokens) -> None:
    text = "Torque 25 N·m. Use grade 8.8 bolts!\nCheck e.g. twice.  安装支架。扭矩"
    parts = list(sentences(text))
    assert "".join(sep + s for sep, s in parts) == text
    one = pack(text_blocks(text), target=254, overlap=48, tokens=tokens)
    assert [s.text for s in one] == [text]  # a block that fits is its own text, unchanged


def test_overlong_sentence_is_cut_at_words(tokens: PassageTokens) -> None:
    words = [f"w{i}" for i in range(1000)]
    slices = pack(text_blocks(" ".join(words)), target=100, overlap=0, tokens=tokens)
    assert len(slices) > 5
    assert all(tokens.count(s.text) <= 100 for s in slices)
    assert " ".join(s.text for s in slices).split() == words


def test_chinese_without_spaces_is_cut_between_characters(tokens: PassageTokens) -> None:
    text = "安装支架的扭矩为二十五牛米" * 60
    slices = pack(text_blocks(text), target=100, overlap=20, tokens=tokens)
    assert len(slices) > 4 and all(tokens.count(s.text) <= 100 for s in slices)
    assert all(set(s.text) <= set(text) for s in slices)


def test_target_above_the_model_is_lowered(tokens: PassageTokens) -> None:
    text = " ".join(f"Sentence {i} about the adapter plate and its M8 thread." for i in range(300))
    slices = pack(text_blocks(text), target=5000, overlap=80, tokens=tokens)
    assert max(tokens.seen(s.text) for s in slices) <= tokens.max_length == 256
    assert max(tokens.seen(s.text) for s in slices) > 230  # packed close to the limit


def test_no_scifact_slice_is_over_the_limit(tokens: PassageTokens) -> None:
    corpus = SHARED / "retrieval" / "scifact_beir" / "corpus.jsonl"
    lines = corpus.open(encoding="utf-8").readlines()[:300]
    seen: list[int] = []
    for line in lines:
        doc = json.loads(line)
        text = (doc.get("title", "") + "\n\n" + doc["text"]).strip()
        slices = pack(text_blocks(text), target=254, overlap=48, tokens=tokens)
        seen.extend(tokens.seen(s.text) for s in slices)
        # Nothing of the abstract is lost.
        assert all(w in " ".join(s.text for s in slices) for w in doc["text"].split()[-5:])
    assert max(seen) <= 256
    whole = [tokens.seen(json.loads(line)["text"]) for line in lines]
    assert max(whole) > 256  # the corpus does hold abstracts the model could not see whole
