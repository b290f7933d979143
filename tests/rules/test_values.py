"""The rules' frozen values behave as the frozen, slotted dataclasses they replaced: each
behaviour is checked against a real dataclass with the same fields."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribpi.exc import RulesError
from cribpi.rules import ACC, HOYLE, GameResult, ResultKind, Rules, ScoreItem, parse_cards
from cribpi.rules.values import MISSING, FrozenError, frozen, is_value, replace, value_fields


@frozen
class Pair:
    """A value for these tests."""

    left: int
    right: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class PairDataclass:
    left: int
    right: tuple[int, ...] = ()


@frozen
class Checked:
    """A value whose __post_init__ refuses a negative number and normalises a string."""

    number: int
    word: str = "x"

    def __post_init__(self) -> None:
        if self.number < 0:
            raise ValueError(f"number {self.number} must be 0 or more")
        object.__setattr__(self, "word", self.word.lower())


pairs = st.builds(lambda a, b: (a, tuple(b)), st.integers(-3, 3), st.lists(st.integers(0, 2), max_size=2))


@given(pairs, pairs)
def test_equality_hash_and_repr_are_those_of_the_dataclass(one: tuple[int, tuple[int, ...]], two: tuple[int, tuple[int, ...]]) -> None:
    a, b = Pair(*one), Pair(*two)
    da, db = PairDataclass(*one), PairDataclass(*two)
    assert (a == b) == (da == db) and (a != b) == (da != db)
    assert hash(a) == hash(da)  # both hash the tuple of fields
    assert repr(a) == repr(da).replace("PairDataclass", "Pair")
    assert (a == da) is False and a.__eq__(da) is NotImplemented  # type: ignore[comparison-overlap]  # another class is never equal


def test_defaults_keywords_and_positional_arguments() -> None:
    assert Pair(1) == Pair(1, ()) == Pair(left=1) == Pair(right=(), left=1)
    with pytest.raises(TypeError):
        Pair()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Pair(1, (), 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Pair(1, middle=2)  # type: ignore[call-arg]


def test_values_are_frozen_and_slotted() -> None:
    value = Pair(1)
    with pytest.raises(FrozenError, match="cannot assign to field 'left' of a frozen Pair"):
        value.left = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        value.other = 2  # type: ignore[attr-defined]
    with pytest.raises(FrozenError):
        del value.left
    assert not hasattr(value, "__dict__") and getattr(Pair, "__slots__") == ("left", "right")
    assert value == Pair(1)


def test_post_init_checks_every_construction_and_replace() -> None:
    assert Checked(3, "ABC").word == "abc"
    with pytest.raises(ValueError, match="number -1"):
        Checked(-1)
    assert replace(Checked(3), word="Q") == Checked(3, "q")
    with pytest.raises(ValueError, match="number -2"):
        replace(Checked(3), number=-2)
    with pytest.raises(TypeError, match="Checked has no field 'colour': use number, word"):
        replace(Checked(3), colour="red")


@pytest.mark.parametrize("value", [Pair(2, (1,)), ACC, HOYLE.replace(game_length=61), GameResult(ResultKind.SKUNK, 3, 32),
                                   ScoreItem("pair", tuple(parse_cards("5H 5S")), 2)])
def test_copy_deepcopy_and_pickle_give_an_equal_value(value: object) -> None:
    for made in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert made == value and type(made) is type(value) and hash(made) == hash(value)


def test_fields_defaults_and_pattern_matching() -> None:
    assert value_fields(Pair) == (("left", MISSING), ("right", ()))
    assert value_fields(Pair(5)) == value_fields(Pair)
    assert is_value(Pair) and is_value(ACC) and not is_value(PairDataclass) and not is_value(3)
    match Pair(1, (2,)):
        case Pair(left, right):
            assert (left, right) == (1, (2,))
        case _:
            pytest.fail("a frozen value matches by position")


def test_a_field_without_default_may_not_follow_a_default() -> None:
    with pytest.raises(TypeError, match="field 'b' without a default follows one with a default"):
        @frozen
        class Bad:
            a: int = 1
            b: int  # type: ignore[misc]


def test_the_rules_values_keep_their_checks() -> None:
    assert Rules() == ACC.replace(name="acc") and Rules().muggins is ACC.muggins
    coerced = Rules(result_scheme="hoyle")  # type: ignore[arg-type]  # a config's string becomes the enum
    assert coerced.result_scheme is HOYLE.result_scheme
    with pytest.raises(RulesError, match="game_length"):
        Rules(game_length=100)
    with pytest.raises(RulesError, match="partnerships"):
        ACC.replace(partnerships=True)
    assert {ACC, ACC.replace(), HOYLE} == {ACC, HOYLE}
