"""Counting text in the embedding model's own tokens, so a slice is sized to what the model sees.

A sentence-embedding model reads at most ``max_length`` tokens, special tokens ([CLS], [SEP]) and
the passage prefix included, and silently drops the rest. Whitespace words are a poor proxy for
wordpieces (a SciFact abstract of 250 words is about 330 wordpieces; a drawing's identifiers and
numbers split into several each), so chunking counts with the model's tokenizer instead. Loading
the tokenizer alone costs a few milliseconds and no ONNX session, so ingestion can size slices
without the model.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from tokenizers import Tokenizer

from appliance.errors import ModelError
from appliance.index.embedding_options import EmbedderOptions
from appliance.models.manifest import load_manifest
from appliance.models.store import locate


class PassageTokens:
    """Counts a passage's tokens as the embedding model reads it; knows how many fit."""

    def __init__(self, tokenizer: Tokenizer, *, max_length: int, passage_prefix: str = "") -> None:
        # A private copy without truncation or padding: a count must see the whole text.
        self._tokenizer = Tokenizer.from_str(tokenizer.to_str())
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        #: Longest token sequence the model reads, special tokens included.
        self.max_length = max_length
        #: Tokens the model adds around every passage ([CLS] and [SEP] for BERT-like models).
        self.special = self._tokenizer.num_special_tokens_to_add(False)
        #: Tokens of the passage prefix (e5's "passage: "), present in every passage.
        self.prefix = self.count(passage_prefix) if passage_prefix else 0
        if self.limit < 8:
            raise ModelError(
                f"embedding max_length {max_length} leaves no room for text", code="model_manifest"
            )

    @property
    def limit(self) -> int:
        """Most content tokens of one passage the model reads whole."""
        return self.max_length - self.special - self.prefix

    def count(self, text: str) -> int:
        """Content tokens of a text (no special tokens, no prefix)."""
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)

    def counts(self, texts: Sequence[str]) -> list[int]:
        """Content tokens of each text, tokenized in one batch."""
        if not texts:
            return []
        encodings = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [len(e.ids) for e in encodings]

    def split(self, text: str, limit: int) -> list[str]:
        """The text cut into consecutive pieces of at most ``limit`` content tokens each.

        Cuts fall at the last space before the limit, else between two words of the
        pre-tokenizer (a CJK character, a punctuation mark), else inside a word; whitespace at a
        cut is dropped. Joining the pieces with a space gives the text back up to that whitespace.
        """
        encoding = self._tokenizer.encode(text, add_special_tokens=False)
        offsets, words = encoding.offsets, encoding.word_ids
        n = len(offsets)
        if n <= limit:
            return [text] if text.strip() else []
        pieces: list[str] = []
        start = 0
        while start < n:
            end = min(start + limit, n)
            if end < n:
                end = _best_cut(text, offsets, words, start, end)
            piece = text[offsets[start][0] : offsets[end - 1][1]].strip()
            # A cut inside a word can make the rest of the word tokenize differently: shrink the
            # piece until it fits (never below one token).
            while end - start > 1 and self.count(piece) > limit:
                end -= 1
                piece = text[offsets[start][0] : offsets[end - 1][1]].strip()
            if piece:
                pieces.append(piece)
            start = end
        return pieces

    def tail(self, text: str, limit: int) -> str:
        """The end of a text, at most ``limit`` content tokens long, starting at a word boundary
        ("" when none fits)."""
        encoding = self._tokenizer.encode(text, add_special_tokens=False)
        offsets = encoding.offsets
        n = len(offsets)
        if n <= limit:
            return text
        for j in range(n - limit, n):
            if text[offsets[j - 1][1] : offsets[j][0]].isspace():
                return text[offsets[j][0] :]
        return ""

    def seen(self, text: str) -> int:
        """Tokens the model is fed for this passage before truncation: content, prefix and special
        tokens (compare with :attr:`max_length`)."""
        return self.count(text) + self.prefix + self.special

    @classmethod
    def of_file(
        cls, tokenizer_path: Path, *, max_length: int, passage_prefix: str = ""
    ) -> PassageTokens:
        """From a ``tokenizer.json``."""
        try:
            tokenizer = Tokenizer.from_file(str(tokenizer_path))
        except Exception as err:  # tokenizers raises untyped exceptions
            raise ModelError(
                f"tokenizer {tokenizer_path.name} cannot be loaded ({type(err).__name__})",
                code="model_load_failed",
            ) from err
        return cls(tokenizer, max_length=max_length, passage_prefix=passage_prefix)


def _best_cut(
    text: str,
    offsets: Sequence[tuple[int, int]],
    words: Sequence[int | None],
    start: int,
    end: int,
) -> int:
    """The token index to cut before, at most ``end``: after a space, else between words."""
    for j in range(end, start, -1):
        if (
            text[offsets[j - 1][1] : offsets[j][0]].strip() == ""
            and offsets[j][0] > offsets[j - 1][1]
        ):
            return j
    for j in range(end, start, -1):
        if words[j] != words[j - 1]:
            return j
    return end


@functools.lru_cache(maxsize=4)
def passage_tokens(model_name: str, models_dir: Path) -> PassageTokens:
    """The token counter of a manifest embedding model (tokenizer verified by checksum), loaded
    once per process."""
    spec = load_manifest().get(model_name)
    if spec.kind != "embedding":
        raise ModelError(f"model {model_name} is a {spec.kind} model, not an embedding model")
    options = EmbedderOptions.from_spec(spec)
    return PassageTokens.of_file(
        locate(spec, "tokenizer", models_dir),
        max_length=options.max_length,
        passage_prefix=options.passage_prefix,
    )
