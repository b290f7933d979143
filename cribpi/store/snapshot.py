"""A table's state as compact JSON, so a journal can restore without replaying from the start.

Only the value types a :class:`~cribpi.game.State` is declared with can be written or read
back: the frozen dataclasses, the rules' frozen values (:mod:`cribpi.rules.values`) and the enums
its fields' annotations reach, cards, tuples, frozensets
and JSON scalars. A snapshot is a cache of what the journal's events give, never the record
itself: one that cannot be read, or that was written by another version of cribpi or for
another shape of the state (see :func:`snapshot_format`), is ignored and the journal is
replayed instead.

>>> from cribpi.game import Game, NewGame, Peg, Mode
>>> state = Game([NewGame(("Ann", "Ben"), mode=Mode.BOARD, first_dealer=0), Peg(0, 5)]).state
>>> decode_state(encode_state(state)) == state
True
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import typing
from typing import Any, Final

import cribpi
from cribpi.game import State
from cribpi.nesting import loads_json
from cribpi.rules import Card
from cribpi.rules.values import MISSING, is_value, value_fields

__all__ = ["SnapshotError", "encode_state", "decode_state", "snapshot_format"]

#: Bumped when the encoding below changes.
ENCODING: Final = 1
#: How deep a snapshot's JSON may nest (a match's state is about 16 deep); a deeper one is no
#: snapshot of ours, and is refused before json.loads recurses into it.
SNAPSHOT_DEPTH: Final = 64


class SnapshotError(ValueError):
    """A state that cannot be written as a snapshot, or a snapshot that cannot be read."""


def _fields(cls: type) -> tuple[tuple[str, object], ...] | None:
    """The ``(name, default)`` of each field of a dataclass or a rules value (the default is
    MISSING if it has none); None for any other class."""
    if is_value(cls):
        return value_fields(cls)
    if dataclasses.is_dataclass(cls):
        return tuple((f.name, MISSING if f.default is dataclasses.MISSING else f.default)
                     for f in dataclasses.fields(cls))
    return None


@functools.cache
def _types() -> dict[str, type]:
    """The dataclasses, values and enums a State's annotations reach, by name: all a snapshot
    may name."""
    found: dict[str, type] = {}
    todo: list[Any] = [State]
    while todo:
        hint = todo.pop()
        if not isinstance(hint, type) or not (_fields(hint) is not None or issubclass(hint, enum.Enum)):
            todo.extend(typing.get_args(hint))  # tuple[X, ...], X | None, frozenset[X]
        elif hint.__name__ in found:
            if found[hint.__name__] is not hint:
                raise SnapshotError(f"two types named {hint.__name__} in a State: snapshots need one")
        else:
            found[hint.__name__] = hint
            if _fields(hint) is not None:
                try:
                    todo.extend(typing.get_type_hints(hint).values())
                except NameError as exc:  # an annotation only a type checker can resolve
                    raise SnapshotError(f"the fields of {hint.__name__} cannot be resolved: {exc}") from None
    return found


@functools.cache
def snapshot_format() -> str:
    """The version of cribpi, the encoding and a digest of the state's shape (its types and
    their fields): a snapshot written under any other value is ignored. Raises SnapshotError
    if the shape cannot be worked out (then no snapshot is written or read)."""
    shape = []
    for name, cls in sorted(_types().items()):
        if issubclass(cls, enum.Enum):
            shape.append(f"{name}[{','.join(str(member.value) for member in cls)}]")
        else:
            shape.append(f"{name}({','.join(field for field, _ in _fields(cls) or ())})")
    digest = hashlib.sha256(";".join(shape).encode()).hexdigest()[:12]
    return f"{cribpi.__version__}/{ENCODING}/{digest}"


def encode_state(state: State) -> str:
    """The state as JSON text; raises SnapshotError for a value it does not know."""
    return json.dumps(_encode(state), ensure_ascii=False, separators=(",", ":"))


def decode_state(text: str) -> State:
    """The state a snapshot holds; raises SnapshotError if it is not one."""
    try:
        state = _decode(loads_json(text, SNAPSHOT_DEPTH))
    except SnapshotError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise SnapshotError(f"not a state snapshot: {exc!r}") from None
    if not isinstance(state, State):
        raise SnapshotError(f"a snapshot holds a State, not {type(state).__name__}")
    return state


# Every JSON list is tagged by its first item: ["t", ...] tuple, ["s", ...] frozenset,
# ["c", "5H"] card, ["e", "Phase", "play"] enum, ["d", "State", {field: value}] dataclass or value
# (fields at their default are left out).


def _encode(value: Any) -> Any:
    if isinstance(value, enum.Enum):  # before the scalars: these enums are str or int too
        return ["e", _known(type(value)), value.value]
    if value is None or isinstance(value, (bool, int, str, float)):
        return value
    if isinstance(value, Card):
        return ["c", str(value)]
    if isinstance(value, tuple):
        return ["t", *map(_encode, value)]
    if isinstance(value, frozenset):
        return ["s", *map(_encode, value)]
    shape = _fields(type(value))
    if shape is not None:
        fields = {}
        for name, default in shape:
            item = getattr(value, name)
            if default is MISSING or item != default:
                fields[name] = _encode(item)
        return ["d", _known(type(value)), fields]
    raise SnapshotError(f"a state snapshot cannot hold a {type(value).__name__} ({value!r})")


def _known(cls: type) -> str:
    if _types().get(cls.__name__) is not cls:
        raise SnapshotError(f"a state snapshot cannot hold a {cls.__name__}: no field of a State is one")
    return cls.__name__


def _decode(value: Any) -> Any:
    if not isinstance(value, list):
        if isinstance(value, dict):
            raise SnapshotError("an untagged object in a snapshot")
        return value
    tag, *items = value
    if tag == "t":
        return tuple(map(_decode, items))
    if tag == "s":
        return frozenset(map(_decode, items))
    if tag == "c":
        return Card.parse(items[0])
    if tag == "e":
        return _type(items[0], enum.Enum)(items[1])
    if tag == "d":
        cls = _type(items[0], object)
        return cls(**{name: _decode(item) for name, item in items[1].items()})
    raise SnapshotError(f"unknown tag {tag!r} in a snapshot")


def _type(name: str, base: type) -> Any:
    cls = _types().get(name)
    if cls is None or not issubclass(cls, base):
        raise SnapshotError(f"a snapshot names the unknown type {name!r}")
    return cls
