"""Frozen value classes for the rules, without importing :mod:`dataclasses`.

``import dataclasses`` imports :mod:`inspect`, and the two took about 11 ms of the 17 ms that
``import cribpi.rules`` cost: more than every rule of cribbage together. :func:`frozen` gives
the rules' value types what ``@dataclass(frozen=True, slots=True)`` gave them, and no more:

- ``__slots__``, one per field, and an ``__init__`` taking the fields in order, with defaults;
- ``__post_init__`` run at the end of ``__init__`` when the class has one;
- ``__eq__`` and ``__hash__`` over the fields, for instances of the same class only;
- a ``__repr__`` like a dataclass's (``Name(field=value, ...)``);
- assigning or deleting an attribute raises :class:`FrozenError` (an AttributeError);
- ``copy``, ``deepcopy`` and ``pickle`` rebuild through ``__init__``;
- :func:`replace`, a copy with some fields changed (checked again by ``__post_init__``).

Methods of such a class may not use ``super()`` (the class is rebuilt with slots, and the old
class would be the one they see).

Type checkers see dataclass semantics (``dataclass_transform``); :func:`value_fields` gives the
fields and their defaults, as the journal's snapshot codec needs.

>>> @frozen
... class Point:
...     x: int
...     y: int = 0
>>> Point(1), Point(1) == Point(1, 0), replace(Point(1), y=2)
(Point(x=1, y=0), True, Point(x=1, y=2))
>>> Point(1).x = 5
Traceback (most recent call last):
cribpi.rules.values.FrozenError: cannot assign to field 'x' of a frozen Point
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING would import typing just to be False
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform

    T = TypeVar("T")
else:
    def dataclass_transform(**_: object) -> object:
        return lambda decorated: decorated

__all__ = ["FrozenError", "MISSING", "frozen", "is_value", "replace", "value_fields"]

#: The default of a field that has none.
MISSING = type("Missing", (), {"__repr__": lambda self: "MISSING", "__slots__": ()})()


class FrozenError(AttributeError):
    """An attempt to change a frozen value."""


def _setattr(self: object, name: str, value: object) -> None:
    raise FrozenError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _delattr(self: object, name: str) -> None:
    raise FrozenError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")


def _repr(self: Any) -> str:
    fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__value_fields__)
    return f"{type(self).__name__}({fields})"


def _reduce(self: Any) -> tuple[type, tuple[object, ...]]:
    return type(self), tuple(getattr(self, name) for name in self.__value_fields__)


def _methods(cls_name: str, names: tuple[str, ...], defaults: dict[str, object], post_init: bool) -> dict[str, Any]:
    """``__init__``, ``__eq__`` and ``__hash__`` written out for these fields, as dataclasses does."""
    params = ", ".join(f"{name}=_d_{name}" if name in defaults else name for name in names)
    body = "".join(f"    _set(self, {name!r}, {name})\n" for name in names) or "    pass\n"
    if post_init:
        body += "    self.__post_init__()\n"
    fields = "".join(f"self.{name}, " for name in names)
    other = "".join(f"other.{name}, " for name in names)
    source = (
        f"def __init__(self, {params}):\n{body}"
        f"def __eq__(self, other):\n"
        f"    if other.__class__ is not self.__class__:\n        return NotImplemented\n"
        f"    return ({fields}) == ({other})\n"
        f"def __hash__(self):\n    return hash(({fields}))\n"
    )
    scope: dict[str, Any] = {"_set": object.__setattr__, **{f"_d_{n}": v for n, v in defaults.items()}}
    exec(compile(source, f"<frozen value {cls_name}>", "exec"), scope)  # noqa: S102  (our own text)
    for name in ("__init__", "__eq__", "__hash__"):
        scope[name].__qualname__ = f"{cls_name}.{name}"
    return {name: scope[name] for name in ("__init__", "__eq__", "__hash__")}


@dataclass_transform(frozen_default=True)
def frozen(cls: type[T]) -> type[T]:
    """Make ``cls`` a frozen value with slots, its fields being its annotations, in order.

    A field without a default may not follow one with a default. The class is rebuilt with
    ``__slots__`` (as ``dataclass(slots=True)`` does), so the defaults live in ``__init__``.
    """
    if type(cls) is not type:
        raise TypeError(f"{cls.__name__}: a frozen value cannot have a metaclass of its own")
    body = dict(cls.__dict__)
    names = tuple(body.get("__annotations__", {}))
    defaults = {name: body.pop(name) for name in names if name in body}
    seen_default = False
    for name in names:
        if name in defaults:
            seen_default = True
        elif seen_default:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
    for name in ("__dict__", "__weakref__"):
        body.pop(name, None)
    body.update(_methods(cls.__name__, names, defaults, "__post_init__" in body))
    body.update(
        __slots__=names, __value_fields__=names, __value_defaults__=defaults, __match_args__=names,
        __setattr__=_setattr, __delattr__=_delattr, __repr__=_repr, __reduce__=_reduce,
    )
    made: type[T] = type(cls.__name__, cls.__bases__, body)
    made.__qualname__ = cls.__qualname__
    return made


def is_value(obj: object) -> bool:
    """Whether ``obj`` is a class made by :func:`frozen`, or an instance of one."""
    return hasattr(obj, "__value_fields__")


def value_fields(cls_or_value: object) -> tuple[tuple[str, object], ...]:
    """The ``(name, default)`` of each field in order; the default is :data:`MISSING` if none."""
    names: tuple[str, ...] = getattr(cls_or_value, "__value_fields__")
    defaults: dict[str, object] = getattr(cls_or_value, "__value_defaults__")
    return tuple((name, defaults.get(name, MISSING)) for name in names)


def replace(value: T, **changes: object) -> T:
    """A copy of a frozen value with some fields changed, made through ``__init__`` (so
    ``__post_init__`` checks it as it checked the original)."""
    names: tuple[str, ...] = getattr(value, "__value_fields__")
    unknown = sorted(set(changes) - set(names))
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {unknown[0]!r}: use {', '.join(names)}")
    return type(value)(**{name: changes.get(name, getattr(value, name)) for name in names})
