"""How vectors are stored in the vec0 table: float32, int8 or bit, and how queries are encoded."""

from __future__ import annotations

import numpy as np

#: int8 quantisation scale for L2-normalised vectors. Components of a normalised 384-dimension
#: sentence vector rarely exceed 0.5 in magnitude, so mapping [-0.5, 0.5] onto [-127, 127] keeps
#: resolution where the values are; the rare larger components are clipped.
INT8_SCALE = 254.0


class VectorCodec:
    """Encodes numpy vectors into the blob format of one vec0 column type."""

    def __init__(self, vector_type: str, dimensions: int) -> None:
        if vector_type not in ("float32", "int8", "bit"):
            raise ValueError(f"unknown vector type {vector_type}")
        self.vector_type = vector_type
        self.dimensions = dimensions

    def encode(self, vector: np.ndarray) -> bytes:
        """The blob stored or matched for one vector."""
        if self.vector_type == "int8":
            return np.clip(np.round(vector * INT8_SCALE), -127, 127).astype(np.int8).tobytes()
        if self.vector_type == "bit":
            return np.packbits(vector > 0).tobytes()
        return np.asarray(vector, dtype=np.float32).tobytes()

    def sql_wrap(self, placeholder: str) -> str:
        """SQL that turns a bound blob into the column's vector type."""
        if self.vector_type == "int8":
            return f"vec_int8({placeholder})"
        if self.vector_type == "bit":
            return f"vec_bit({placeholder})"
        return placeholder

    @property
    def rescored(self) -> bool:
        """Whether the stored type is a first pass whose candidates are rescored in float32."""
        return self.vector_type != "float32"

    def similarity(self, distance: float) -> float:
        """Map the vec0 distance of a float32 vector to a cosine similarity clipped to 0..1."""
        # On unit vectors the L2 distance d satisfies d^2 = 2 - 2 cos.
        return max(0.0, 1.0 - distance * distance / 2.0)
