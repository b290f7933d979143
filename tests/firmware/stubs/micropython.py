"""Stand-in for ``micropython`` under CPython (the unix port has the real one)."""

KBD_INTR = [3]


def const(value):
    return value


def kbd_intr(char):
    KBD_INTR[0] = char
