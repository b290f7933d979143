"""Stand-in for the rp2 port's ``rp2``: state machines that keep the last words put, and, when
``$CRIBPI_FW_PIXELS`` names a folder, write them to ``strip<N>`` there (hex words, one a
line) so a test in another process can read the frame back."""

import os


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1


class PIOASMError(Exception):
    pass


class _Program:
    """What the rp2 port's assembler does to a program function, and no more kindly: the
    function runs twice (labels, then instructions) with its module's globals replaced by the
    PIO vocabulary, so a name it takes from its module (a constant defined outside it) raises
    NameError here as it does on the Pico. Delays and side-set values are range-checked."""

    def __init__(self, options):
        self.options = options
        self.sideset = 1 if options.get("sideset_init") is not None else 0
        self.labels = {}
        self.words = []
        self.final = False

    def _emit(self, name, *args):
        self.words.append([name, args, 0, None])
        return self

    def side(self, value):
        if self.final:
            if not self.sideset:
                raise PIOASMError("no sideset")
            if not 0 <= value < (1 << self.sideset):
                raise PIOASMError("sideset too large")
            self.words[-1][3] = value
        return self

    def __getitem__(self, delay):
        if self.final:
            if not 0 <= delay <= (31 >> self.sideset):
                raise PIOASMError("delay too large")
            self.words[-1][2] = delay
        return self

    def label(self, name):
        if not self.final:
            if name in self.labels:
                raise PIOASMError("duplicate label {}".format(name))
            self.labels[name] = len(self.words)

    def jmp(self, *args):
        target = args[-1]
        if self.final and target not in self.labels:
            raise PIOASMError("unknown label {}".format(target))
        return self._emit("jmp", *args)

    def vocabulary(self):
        names = {"x": "x", "y": "y", "pins": "pins", "null": "null", "isr": "isr", "osr": "osr",
                 "not_x": "not_x", "x_dec": "x_dec", "not_y": "not_y", "y_dec": "y_dec",
                 "pin": "pin", "not_osre": "not_osre", "block": "block", "noblock": "noblock",
                 "label": self.label, "jmp": self.jmp, "side": self.side,
                 "wrap_target": lambda: None, "wrap": lambda: None}
        for op in ("nop", "out", "in_", "set", "mov", "pull", "push", "irq", "wait"):
            names[op] = (lambda op: lambda *args: self._emit(op, *args))(op)
        return names

    def run(self, fn):
        glob = fn.__globals__
        saved = glob.copy()
        try:
            for final in (False, True):
                self.final = final
                self.words = []
                glob.clear()
                glob.update(self.vocabulary())
                fn()
        finally:
            glob.clear()
            glob.update(saved)
        return self


def asm_pio(**options):
    def program(fn):
        return _Program(options).run(fn)

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


class DMA:
    """A DMA channel into a state machine's TX FIFO, done at once: the words go to the state
    machine's put() (so to the files above) when the channel is triggered."""

    def __init__(self):
        self.busy = False

    def pack_ctrl(self, **fields):
        return fields

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        self.read, self.write, self.count = read, write, count
        if trigger:
            self.active(1)

    def active(self, value=None):
        if value:
            self.write.put(self.read[:self.count])
        return self.busy
