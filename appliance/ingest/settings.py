"""Settings of chunking and file ingestion."""

from __future__ import annotations

from dataclasses import dataclass

from appliance.errors import ConfigError


@dataclass(frozen=True)
class IngestSettings:
    """How documents are cut into slices and which files are accepted."""

    #: Largest slice, in the embedding model's own tokens (wordpieces for MiniLM), not counting
    #: its special tokens; a value above what the model reads is lowered to it (254 for a
    #: max_length of 256), so the vector channel sees every slice whole.
    chunk_tokens: int = 254
    #: Tokens of whole sentences repeated from the end of one prose slice at the start of the next
    #: (at most half a slice).
    overlap_tokens: int = 48
    #: Largest file accepted, in megabytes.
    max_file_mb: int = 256
    #: Debounce of the inbox watcher, in seconds.
    debounce_s: float = 1.5

    def validate(self) -> None:
        """Check that the sizes are consistent."""
        if self.chunk_tokens < 16:
            raise ConfigError("ingest.chunk_tokens: must be >= 16")
        if not 0 <= self.overlap_tokens < self.chunk_tokens:
            raise ConfigError("ingest.overlap_tokens: must be >= 0 and < ingest.chunk_tokens")
        if self.max_file_mb < 1:
            raise ConfigError("ingest.max_file_mb: must be >= 1")
