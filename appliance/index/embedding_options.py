"""How an embedding model of the manifest is used: its output size, pooling, sequence length and
the prefixes it expects, read from the manifest entry's ``options``.

The embedder (:mod:`appliance.index.embedder`) and the passage token counter
(:mod:`appliance.index.tokens`) both read them here.
"""

from __future__ import annotations

from dataclasses import dataclass

from appliance.errors import ModelError
from appliance.models.manifest import ModelSpec


@dataclass(frozen=True)
class EmbedderOptions:
    """How a model's output becomes a sentence vector."""

    #: Output dimensions.
    dimensions: int
    #: ``mean`` (masked mean over tokens) or ``cls`` (first token).
    pooling: str = "mean"
    #: L2-normalise the vectors (cosine similarity becomes a dot product).
    normalize: bool = True
    #: Longest token sequence fed to the model; longer texts are truncated.
    max_length: int = 256
    #: Prepended to queries.
    query_prefix: str = ""
    #: Prepended to passages.
    passage_prefix: str = ""

    @classmethod
    def from_spec(cls, spec: ModelSpec) -> EmbedderOptions:
        """Read the options from a manifest entry."""
        opts = spec.options
        try:
            return cls(
                dimensions=int(opts["dimensions"]),
                pooling=str(opts.get("pooling", "mean")),
                normalize=bool(opts.get("normalize", True)),
                max_length=int(opts.get("max_length", 256)),
                query_prefix=str(opts.get("query_prefix", "")),
                passage_prefix=str(opts.get("passage_prefix", "")),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ModelError(
                f"model {spec.name}: bad embedding options in the manifest ({err})",
                code="model_manifest",
            ) from None
