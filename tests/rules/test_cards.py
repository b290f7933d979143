"""Cards: parse/format pairs, value-type behaviour, and the error messages people see."""

from __future__ import annotations

import copy
import pickle

import pytest

from cribpi.exc import CardError, CribpiError, RulesError
from cribpi.rules import DECK, Card, Rank, Suit, format_cards, parse_cards


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("5H", Rank.FIVE, Suit.HEARTS),
        ("10h", Rank.TEN, Suit.HEARTS),
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("td", Rank.TEN, Suit.DIAMONDS),
        ("QS", Rank.QUEEN, Suit.SPADES),
        ("5♥", Rank.FIVE, Suit.HEARTS),
        ("a♠", Rank.ACE, Suit.SPADES),
        ("AC", Rank.ACE, Suit.CLUBS),
        ("KC", Rank.KING, Suit.CLUBS),
        ("j♦", Rank.JACK, Suit.DIAMONDS),
        (" 9c ", Rank.NINE, Suit.CLUBS),
    ],
)
def test_parse_accepts_the_documented_forms(token: str, rank: Rank, suit: Suit) -> None:
    card = Card.parse(token)
    assert (card.rank, card.suit) == (rank, suit)
    assert card is Card(rank, suit)


@pytest.mark.parametrize(
    ("token", "canonical"),
    [("5H", "5H"), ("10h", "TH"), ("TD", "TD"), ("qs", "QS"), ("5♥", "5H"), ("a♠", "AS")],
)
def test_str_is_canonical(token: str, canonical: str) -> None:
    assert str(Card.parse(token)) == canonical


def test_str_parses_back_for_every_card() -> None:
    for card in DECK:
        assert Card.parse(str(card)) is card


def test_repr_round_trips_through_eval() -> None:
    for card in DECK:
        assert eval(repr(card), {"Card": Card}) is card  # noqa: S307 - the point of the test


def test_pretty_form() -> None:
    assert Card.parse("5H").pretty == "5♥"
    assert Card.parse("TS").pretty == "10♠"
    assert Card.parse("10S").pretty == "10♠"


def test_card_values_in_the_count() -> None:
    values = {str(c)[0]: c.value for c in DECK}
    assert values == {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                      "T": 10, "J": 10, "Q": 10, "K": 10}


@pytest.mark.parametrize("attr", ["rank", "suit", "value", "index", "new_attribute"])
def test_cards_are_frozen(attr: str) -> None:
    card = Card.parse("5H")
    with pytest.raises(AttributeError):
        setattr(card, attr, 3)
    with pytest.raises(AttributeError):
        delattr(card, attr)
    assert card.rank == Rank.FIVE and card.value == 5


def test_cards_are_hashable_and_equal_by_identity_of_value() -> None:
    a, b = Card.parse("5H"), Card.parse("5♥")
    assert a == b and hash(a) == hash(b)
    assert len({a, b, Card.parse("5D")}) == 2
    assert {a: 1}[b] == 1
    assert a != Card.parse("5D")
    assert a != "5H"


def test_cards_are_ordered_by_rank_then_suit() -> None:
    assert Card.parse("AC") < Card.parse("AD") < Card.parse("2C") < Card.parse("KS")
    assert Card.parse("KS") > Card.parse("QS") >= Card.parse("QS")
    assert Card.parse("5H") <= Card.parse("5H")
    shuffled = [Card.parse(t) for t in ("KS", "2C", "TD", "AC", "TC")]
    assert [str(c) for c in sorted(shuffled)] == ["AC", "2C", "TC", "TD", "KS"]


def test_copy_and_pickle_keep_the_interned_card() -> None:
    card = Card.parse("JD")
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_full_deck_is_52_distinct_cards_in_index_order() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert len({str(c) for c in DECK}) == 52
    assert [c.index for c in DECK] == list(range(52))
    assert list(DECK) == sorted(DECK)
    assert {(c.rank, c.suit) for c in DECK} == {(r, s) for r in Rank for s in Suit}
    assert all(Card.from_index(c.index) is c for c in DECK)


@pytest.mark.parametrize("token", ["1H", "5X", "", "5HH", "H5", "11H", "0S", "5", "H", "  ", "10", "1♥"])
def test_bad_tokens_raise_card_error_naming_token_and_forms(token: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(token)
    err = info.value
    assert isinstance(err, ValueError)
    assert isinstance(err, RulesError) and isinstance(err, CribpiError)
    message = str(err)
    assert repr(token) in message
    for form in ("5H", "10h", "TD", "QS", "5♥"):
        assert form in message, f"accepted form {form} missing from {message!r}"


def test_non_string_token_raises_card_error() -> None:
    with pytest.raises(CardError):
        Card.parse(5)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (14, 0), (1, 4), (1, -1), ("5", 0)])
def test_constructor_rejects_out_of_range(rank: object, suit: object) -> None:
    with pytest.raises(CardError):
        Card(rank, suit)  # type: ignore[arg-type]


@pytest.mark.parametrize("index", [-1, 52])
def test_from_index_rejects_out_of_range(index: int) -> None:
    with pytest.raises(CardError, match=str(index)):
        Card.from_index(index)


def test_parse_and_format_several_cards() -> None:
    cards = parse_cards("5H, 10h TD  q♠")
    assert format_cards(cards) == "5H TH TD QS"
    assert parse_cards(["AC", "2c"]) == [Card.parse("AC"), Card.parse("2C")]
    assert parse_cards("") == []


def test_rank_and_suit_parse() -> None:
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("1") is Rank.ACE  # a bare rank, as `cribpi peg 1 2 3` takes it
    assert Suit.parse("♣") is Suit.CLUBS
    assert Suit.parse("s") is Suit.SPADES
    with pytest.raises(CardError, match="'X'"):
        Rank.parse("X")
    with pytest.raises(CardError, match="'Z'"):
        Suit.parse("Z")


@pytest.mark.parametrize("other", [5, "5H", None])
def test_ordering_against_a_non_card_is_a_type_error(other: object) -> None:
    card = Card.parse("5H")
    with pytest.raises(TypeError):
        card < other  # noqa: B015
    with pytest.raises(TypeError):
        sorted([card, other])  # type: ignore[type-var]


def test_emoji_style_suits_parse() -> None:
    # Phones and macOS send ♥ as U+2665 U+FE0F.
    assert str(Card.parse("5\u2665\ufe0f")) == "5H"


def test_each_card_has_its_own_bit() -> None:
    from cribpi.rules import DECK

    assert [card.bit for card in DECK] == [1 << i for i in range(52)]
