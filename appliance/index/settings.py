"""Settings of the knowledge index and its embedder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from appliance.errors import ConfigError


@dataclass(frozen=True)
class IndexSettings:
    """How the index stores vectors and ranks hits."""

    #: Database file name, relative to ``paths.data_dir``.
    db_file: str = "index.sqlite3"
    #: Manifest name of the embedding model.
    embedding_model: str = "all-minilm-l6-v2-int8"
    #: Vector storage: float32 (exact), int8 (4x smaller), or bit (binary + float rescoring).
    vector_type: Literal["float32", "int8", "bit"] = "float32"
    #: onnxruntime intra-op threads for the embedder.
    embed_threads: int = 2
    #: Threads of a separate session for query embeddings (0: queries use the passage session).
    embed_query_threads: int = 0
    #: Texts per embedding batch.
    embed_batch: int = 32
    #: Query embeddings kept in the LRU cache.
    query_cache_size: int = 256
    #: How the vector and keyword channels are fused.
    fusion: Literal["rrf", "weighted"] = "rrf"
    #: The k constant of reciprocal-rank fusion.
    rrf_k: int = 60
    #: Weight of the vector channel in weighted fusion (keyword weight is 1 - this).
    vector_weight: float = 0.5
    #: Weight of the recency term (0 disables it).
    recency_weight: float = 0.0
    #: Half-life of the recency term in days.
    recency_half_life_days: float = 30.0
    #: Hits with a fused score below this are dropped (scores are normalised to 0..1).
    min_score: float = 0.0
    #: Most hits returned.
    max_results: int = 8
    #: Candidates fetched from each channel before fusion.
    candidates: int = 50
    #: Memory (MB) for in-memory copies of searched namespaces' vectors, ranked exactly by numpy
    #: (1.54 MB per 1,000 slices at 384 dimensions); a namespace that does not fit is searched
    #: through sqlite-vec. 0 always uses sqlite-vec.
    vector_cache_mb: int = 512
    #: Memory (MB) for the keyword channel's in-memory BM25 shares of recently searched phrases
    #: (12 bytes per row a phrase matches); with them a search adds arrays instead of asking FTS5
    #: to score every row sharing a common word. Same ranking as FTS5. 0 always asks FTS5.
    keyword_cache_mb: int = 192
    #: While a query's common words are not in memory yet: rows FTS5 may score for its rarest
    #: words; the common words then only re-rank those rows (exact whenever the BM25 bound proves
    #: it). 0 scores every matching row.
    keyword_budget_rows: int = 4000
    #: A question that names a drawing (number, title, file name, or their English sense)
    #: searches that drawing's slices first (appliance.index.identity).
    focus_named: bool = True

    def validate(self) -> None:
        """Check ranges that the types alone cannot express."""
        if not 0.0 <= self.vector_weight <= 1.0:
            raise ConfigError("index.vector_weight: must be between 0 and 1")
        if not 0.0 <= self.min_score <= 1.0:
            raise ConfigError("index.min_score: must be between 0 and 1")
        if self.max_results < 1 or self.candidates < self.max_results:
            raise ConfigError("index.max_results: must be >= 1 and <= index.candidates")
        if self.embed_threads < 1 or self.embed_batch < 1 or self.embed_query_threads < 0:
            raise ConfigError(
                "index.embed_threads/embed_batch: must be >= 1 (embed_query_threads >= 0)"
            )
        if min(self.vector_cache_mb, self.keyword_cache_mb, self.keyword_budget_rows) < 0:
            raise ConfigError(
                "index.vector_cache_mb/keyword_cache_mb/keyword_budget_rows: must be >= 0"
            )
        if self.rrf_k < 1:
            raise ConfigError("index.rrf_k: must be >= 1")
        if self.recency_weight < 0 or self.recency_half_life_days <= 0:
            raise ConfigError("index.recency_weight: must be >= 0 with a positive half-life")
