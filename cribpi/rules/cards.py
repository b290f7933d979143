"""Cards, ranks and suits: small frozen value types with paired parse/format.

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("a♠"))
'AS'
>>> Card.parse("QS").value
10
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from cribpi.exc import CardError

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing (3 ms) just to be False
if TYPE_CHECKING:
    from typing import Final

__all__ = ["Rank", "Suit", "Card", "DECK", "parse_cards", "format_cards", "CardError"]


class Rank(enum.IntEnum):
    """Card ranks, ace low."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def value_in_count(self) -> int:
        """Pip value: ace 1, two to ten face value, court cards 10."""
        return min(int(self), 10)

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self - 1]

    @classmethod
    def parse(cls, token: str) -> Rank:
        """Parse ``A``, ``2``..``10``, ``T``, ``J``, ``Q``, ``K`` (any case)."""
        rank = _RANK_BY_TOKEN.get(token.strip().upper())
        if rank is None:
            raise CardError(
                f"{token!r} is not a rank: use A, 2-9, 10 or T, J, Q or K"
            )
        return rank


class Suit(enum.IntEnum):
    """The four suits, in bridge order."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "CDHS"[self]

    @property
    def glyph(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, token: str) -> Suit:
        """Parse ``C``, ``D``, ``H``, ``S`` (any case) or a suit symbol."""
        suit = _SUIT_BY_TOKEN.get(token.strip().upper())
        if suit is None:
            raise CardError(f"{token!r} is not a suit: use C, D, H or S (or ♣ ♦ ♥ ♠)")
        return suit


_RANK_SYMBOLS: Final = "A23456789TJQK"
_RANK_BY_TOKEN: Final[dict[str, Rank]] = {s: Rank(i + 1) for i, s in enumerate(_RANK_SYMBOLS)}
_RANK_BY_TOKEN["10"] = Rank.TEN
_RANK_BY_TOKEN["1"] = Rank.ACE  # accepted as a rank alone (``cribpi peg 1 2 3``), never as a card
_SUIT_BY_TOKEN: Final[dict[str, Suit]] = {}
for _suit in Suit:
    for _alias in (_suit.symbol, "♣♦♥♠"[_suit], "♧♢♡♤"[_suit]):
        _SUIT_BY_TOKEN[_alias] = _suit

#: Where ``Card.show_code`` packs its fields, 3 bits each, so that five cards summed never carry
#: from one into the next: 13 rank counts, then 4 suit counts from ``SHOW_SUITS``, then 52
#: card counts from ``SHOW_BITS`` (a card given twice is a count of two there).
SHOW_SUITS: Final = 39
SHOW_BITS: Final = 51

_ACCEPTED: Final = "a rank (A, 2-9, 10 or T, J, Q, K) then a suit (C, D, H, S or ♣ ♦ ♥ ♠), e.g. 5H, 10h, TD, QS, 5♥"


class Card:
    """One of the 52 cards. Instances are interned, frozen, hashable and ordered.

    Ordering is by rank, then suit. ``Card(Rank.FIVE, Suit.HEARTS) is Card.parse("5H")``.
    """

    __slots__ = ("rank", "suit", "index", "value", "rank_bit", "bit", "show_code", "nobs_code", "_text")

    rank: Rank
    suit: Suit
    index: int  # 0..51, rank-major: (rank - 1) * 4 + suit
    value: int  # pip value in the count
    rank_bit: int  # 1 << 3 * (rank - 1): summing these over cards keys their rank multiset
    bit: int  # 1 << index: or-ing these over cards sets one bit per different card
    #: ``rank_bit``, a count for the suit and one for the card, packed (``SHOW_SUITS``,
    #: ``SHOW_BITS``): one sum over five cards gives the show its rank key, suit counts and
    #: card counts at once
    show_code: int
    nobs_code: int  # the show_code count of the jack of this card's suit: his nobs, as this starter
    _text: str

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        if not (isinstance(rank, int) and isinstance(suit, int) and 1 <= rank <= 13 and 0 <= suit <= 3):
            raise CardError(f"no card has rank {rank!r} and suit {suit!r}: ranks are 1-13, suits 0-3")
        return _BY_INDEX[(rank - 1) * 4 + suit]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        set_ = object.__setattr__
        set_(card, "rank", rank)
        set_(card, "suit", suit)
        set_(card, "index", (rank - 1) * 4 + suit)
        set_(card, "value", rank.value_in_count)
        set_(card, "rank_bit", 1 << 3 * (rank - 1))
        set_(card, "bit", 1 << (rank - 1) * 4 + suit)
        set_(card, "show_code", card.rank_bit | 1 << SHOW_SUITS + 3 * suit | 1 << SHOW_BITS + 3 * card.index)
        set_(card, "nobs_code", 1 << SHOW_BITS + 3 * ((Rank.JACK - 1) * 4 + suit))
        set_(card, "_text", rank.symbol + suit.symbol)
        return card

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse ``5H``, ``10h``, ``TD``, ``QS``, ``5♥`` or ``a♠``."""
        if not isinstance(token, str):
            raise CardError(f"{token!r} is not a card: expected {_ACCEPTED}")
        text = token.strip().replace("\ufe0f", "").replace("\ufe0e", "")  # emoji-style ♥️
        rank = _RANK_BY_TOKEN.get(text[:-1].upper()) if len(text) >= 2 else None
        suit = _SUIT_BY_TOKEN.get(text[-1:].upper())
        if rank is None or suit is None or text[:-1] == "1":
            raise CardError(f"{token!r} is not a card: expected {_ACCEPTED}")
        return _BY_INDEX[(rank - 1) * 4 + suit]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with :attr:`index` ``index`` (0..51)."""
        if not 0 <= index < 52:
            raise CardError(f"card index {index!r} is out of range: use 0-51")
        return _BY_INDEX[index]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Card is immutable (tried to set {name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Card is immutable (tried to delete {name})")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __hash__(self) -> int:
        return self.index

    # Equality is object identity, inherited from ``object`` so that it runs in C (``card in
    # hand`` is asked on every card laid): cards are interned, so equal cards are one object.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    @property
    def pretty(self) -> str:
        """``5♥``, ``10♠``: the form printed for people."""
        rank = "10" if self.rank == Rank.TEN else self.rank.symbol
        return rank + self.suit.glyph


_BY_INDEX: Final[tuple[Card, ...]] = tuple(
    Card._make(Rank(r), Suit(s)) for r in range(1, 14) for s in range(4)
)

#: The full 52-card deck, in index order (A♣ first, K♠ last).
DECK: Final[tuple[Card, ...]] = _BY_INDEX


def parse_cards(tokens: str | Iterable[str]) -> list[Card]:
    """Parse a whitespace/comma separated string (or an iterable) of card tokens."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    return [Card.parse(t) for t in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical text of several cards, space separated."""
    return " ".join(str(c) for c in cards)
