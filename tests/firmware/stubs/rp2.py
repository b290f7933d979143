"""Stand-in for the rp2 port's ``rp2``: state machines that keep the last words put, and, when
``$CRIBPI_FW_PIXELS`` names a folder, write them to ``strip<N>`` there (hex words, one a
line) so a test in another process can read the frame back."""

import os


class PIO:
    OUT_LOW = 0
    SHIFT_LEFT = 0


def asm_pio(**options):
    def program(fn):
        return ("pio program", fn.__name__, options)

    return program


MACHINES = {}


class StateMachine:
    def __init__(self, number, program, freq=0, sideset_base=None):
        self.number = number
        self.program = program
        self.freq = freq
        self.pin = sideset_base
        self.words = []
        self.running = 0
        MACHINES[number] = self

    def active(self, on):
        self.running = on

    def put(self, words):
        self.words = list(words)
        folder = os.getenv("CRIBPI_FW_PIXELS")
        if folder:
            name = "%s/strip%d" % (folder, self.number)
            with open(name + ".tmp", "w") as fh:
                fh.write("\n".join("%08X" % w for w in self.words))
            os.rename(name + ".tmp", name)
