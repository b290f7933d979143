"""One scoring combination, shared by the show and the play.

>>> item = ScoreItem("pair", parse_cards("5H 5S"), 2)
>>> str(item)
'pair 5H 5S = 2'
>>> item.as_dict()
{'kind': 'pair', 'cards': ['5H', '5S'], 'points': 2}
"""

from __future__ import annotations

from cribpi.rules.cards import Card, parse_cards  # noqa: F401  (doctest)
from cribpi.rules.values import frozen

__all__ = ["ScoreItem"]


@frozen
class ScoreItem:
    """One scoring combination: its kind, the cards that make it, and its points."""

    kind: str  # fifteen, pair, pair royal, double pair royal, run, flush, nobs, ...
    cards: tuple[Card, ...]
    points: int

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(str(c) for c in self.cards)} = {self.points}"
