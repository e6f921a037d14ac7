"""Sentence embeddings with onnxruntime + tokenizers, for any ONNX model the manifest describes.

The manifest's ``options`` say how to turn the model's output into one vector: pooling (``mean`` over
the attention mask, or ``cls``), whether to L2-normalise, the maximum sequence length, and the prefixes
some models expect on queries and passages (e5: ``"query: "`` / ``"passage: "``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

from appliance.errors import ModelError
from appliance.index.embedding_options import EmbedderOptions
from appliance.index.tokens import PassageTokens
from appliance.models.manifest import load_manifest
from appliance.models.store import locate

if TYPE_CHECKING:
    from appliance.index.settings import IndexSettings


def _session(model_path: Path, threads: int) -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    # Spinning worker threads burn a core while they wait; on two cores that slows the OCR
    # processes running beside an indexing job more than it speeds the embedder.
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(
        str(model_path), sess_options=so, providers=["CPUExecutionProvider"]
    )


class Embedder:
    """Turns texts into vectors; thread-safe; caches query vectors (LRU)."""

    def __init__(
        self,
        model_path: Path,
        tokenizer_path: Path,
        options: EmbedderOptions,
        *,
        name: str = "",
        threads: int = 2,
        batch_size: int = 32,
        batch_tokens: int = 2048,
        cache_size: int = 256,
        query_threads: int = 0,
    ) -> None:
        self.name = name or model_path.stem
        self.options = options
        #: Most texts in one batch.
        self.batch_size = batch_size
        #: Most padded tokens (texts x longest) in one batch, unless one text alone is longer.
        self.batch_tokens = batch_tokens
        try:
            self._session = _session(model_path, threads)
            # Queries are a few dozen tokens: a session of their own with fewer threads spends
            # less of each query waking a thread pool (0: queries share the passage session).
            self._query_session = (
                _session(model_path, query_threads)
                if query_threads and query_threads != threads
                else self._session
            )
            self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        except Exception as err:  # onnxruntime raises its own untyped exceptions
            raise ModelError(
                f"embedding model {self.name} cannot be loaded ({type(err).__name__})",
                code="model_load_failed",
            ) from err
        #: Counts passages in this model's tokens (what slices are sized by).
        self.tokens = PassageTokens(
            self._tokenizer, max_length=options.max_length, passage_prefix=options.passage_prefix
        )
        self._tokenizer.enable_truncation(max_length=options.max_length)
        self._tokenizer.enable_padding()
        self._input_names = {i.name for i in self._session.get_inputs()}
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        #: Query embeddings answered from the cache.
        self.cache_hits = 0

    @classmethod
    def from_manifest(
        cls,
        model_name: str,
        models_dir: Path,
        *,
        threads: int = 2,
        batch_size: int = 32,
        cache_size: int = 256,
        query_threads: int = 0,
    ) -> Embedder:
        """Load a manifest model after verifying every file's checksum."""
        spec = load_manifest().get(model_name)
        if spec.kind != "embedding":
            raise ModelError(f"model {model_name} is a {spec.kind} model, not an embedding model")
        return cls(
            locate(spec, "onnx", models_dir),
            locate(spec, "tokenizer", models_dir),
            EmbedderOptions.from_spec(spec),
            name=model_name,
            threads=threads,
            batch_size=batch_size,
            cache_size=cache_size,
            query_threads=query_threads,
        )

    @classmethod
    def from_settings(cls, settings: IndexSettings, models_dir: Path) -> Embedder:
        """The configured embedder (``[index]`` settings)."""
        return cls.from_manifest(
            settings.embedding_model,
            models_dir,
            threads=settings.embed_threads,
            batch_size=settings.embed_batch,
            cache_size=settings.query_cache_size,
            query_threads=settings.embed_query_threads,
        )

    @property
    def dimensions(self) -> int:
        """Length of every vector."""
        return self.options.dimensions

    def _run(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        ids, mask = self._encode(texts)
        return self._forward(ids, mask, query=query)

    def _encode(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Token ids and attention masks, right-padded to the longest text."""
        encodings = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        return ids, mask

    def _forward(self, ids: np.ndarray, mask: np.ndarray, *, query: bool = False) -> np.ndarray:
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        session = self._query_session if query else self._session
        hidden = session.run(None, feeds)[0]
        if self.options.pooling == "cls":
            vectors = hidden[:, 0, :]
        else:
            weights = mask[:, :, None].astype(np.float32)
            vectors = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        if self.options.normalize:
            vectors = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
        return np.asarray(vectors, dtype=np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for document slices, computed in batches (shape ``(len(texts), dimensions)``)."""
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        prefix = self.options.passage_prefix
        ids, mask = self._encode([prefix + t for t in texts])
        lengths = mask.sum(axis=1)
        # Sorted by token count, a batch is cut when its padded size (texts x longest) would pass
        # the token budget: a drawing's 27 short dimension slices padded to its one long title
        # block cost four times the CPU of the same slices batched apart from it.
        order = np.argsort(lengths, kind="stable")
        batch: list[int] = []
        for i in order:
            longest = int(lengths[i])  # ascending: the newest text is the batch's longest
            if batch and (
                len(batch) >= self.batch_size or (len(batch) + 1) * longest > self.batch_tokens
            ):
                self._embed_rows(batch, ids, mask, out)
                batch = []
            batch.append(int(i))
        self._embed_rows(batch, ids, mask, out)
        return out

    def _embed_rows(
        self, rows: list[int], ids: np.ndarray, mask: np.ndarray, out: np.ndarray
    ) -> None:
        width = int(mask[rows].sum(axis=1).max())  # right padding: columns past it are all pad
        out[rows] = self._forward(ids[rows, :width], mask[rows, :width])

    def embed_query(self, text: str) -> np.ndarray:
        """The vector of one query, from the LRU cache when it was asked recently."""
        with self._lock:
            cached = self._cache.get(text)
            if cached is not None:
                self._cache.move_to_end(text)
                self.cache_hits += 1
                return cached
        vector = self._run([self.options.query_prefix + text], query=True)[0]
        with self._lock:
            self._cache[text] = vector
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return vector
