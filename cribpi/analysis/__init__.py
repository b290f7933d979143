"""Discard analysis: the exact expected value of every way to lay away cards.

Pure and standard-library only (it stands on :mod:`cribpi.rules` and nothing else), so the
game, the CLI and a Pi Zero 2 can all call it.

>>> from cribpi.rules import parse_cards
>>> options = analyse_discards(parse_cards("5H 5C 5S JD 9C KD"), dealer=False)
>>> len(options), " ".join(map(str, options[0].discard))
(15, '9C KD')
"""

from cribpi.analysis.discards import (
    DiscardOption,
    DiscardReview,
    analyse_discards,
    crib_unknowns,
    review_discard,
)

__all__ = ["DiscardOption", "DiscardReview", "analyse_discards", "crib_unknowns", "review_discard"]
