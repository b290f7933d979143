"""Stand-in for ``micropython`` under CPython (the unix port has the real one).

``viper`` and ``native`` leave a function to run as Python, and the viper casts (``ptr8``,
``ptr16``, ``ptr32``, ``int``) it uses, in its body and in its annotations (which CPython
evaluates where viper reads them as types), hand back the object they get: a pointer in a
buffer indexes as the buffer does (``ptr8`` of a str gives its UTF-8 bytes, as viper reads
it). The firmware's viper code keeps to values that fit 32 bits (strip words, counts) and to
in-range indices, so viper's wrap-around and its unchecked stores never show; under CPython
an out-of-range index raises, as a test would want.
"""

import builtins

KBD_INTR = [3]


def const(value):
    return value


def kbd_intr(char):
    KBD_INTR[0] = char


def viper(function):
    return function


def native(function):
    return function


def _cast(value):
    return value


def _bytes(value):
    """ptr8 of a str reads its UTF-8 bytes on MicroPython; a buffer indexes as itself."""
    return value.encode() if isinstance(value, str) else value


for _name in ("ptr", "ptr16", "ptr32"):
    setattr(builtins, _name, _cast)
builtins.ptr8 = _bytes
