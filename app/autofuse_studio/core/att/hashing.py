"""Payload hashes of framed FINAL_TILING records: att_mix64_v1 and sha256."""

from __future__ import annotations

import hashlib

_MASK = (1 << 64) - 1
KNOWN_ALGORITHMS = ("att_mix64_v1", "sha256")


def att_mix64_v1(payload: bytes) -> str:
    """The producer's 64-bit mixing hash of a UTF-8 payload, as 16 lowercase hex digits."""
    state = 0x6D2B79F5
    for byte in payload:
        state ^= (byte + 0x9E3779B9 + (state << 6) + (state >> 2)) & _MASK
        state = ((state << 13) | (state >> 51)) & _MASK
    return f"{state:016x}"


def payload_hash(algorithm: str, payload: bytes) -> str | None:
    """Hash `payload` with a known algorithm; None when the algorithm is unknown."""
    if algorithm == "att_mix64_v1":
        return att_mix64_v1(payload)
    if algorithm == "sha256":
        return hashlib.sha256(payload).hexdigest()
    return None
