"""Small helpers for the words games put on screen (no game knowledge here)."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    """"1 sheep", "2 cards", "1 point": the number and the word that agrees with it
    (``many`` defaults to ``one`` + "s"; "sheep" gives its own)."""
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"
