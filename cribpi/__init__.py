"""cribpi: a cribbage board companion.

The pure core lives in :mod:`cribpi.rules` (cards, scoring, presets).
"""

__version__ = "0.1.0"
