"""A card reader on the controller's UART: one card a line ("5H", "10d", "Q\u2660"), sent to
the host as CARD events. The host checks the card (a wrong one becomes a rejected action
the OLED shows); here a line only has to become one word of printable ASCII.
"""

MAX_CARD = 16  # bytes in a reader's line (its CR and LF not counted): no card is longer
NOT_A_CARD = "?"  # the word for a line that cannot be a card (too long, or not ASCII)
#: The suit symbols a reader may send in UTF-8 (after E2 99), black and white, as letters.
SUITS = {0xA0: "S", 0xA3: "C", 0xA5: "H", 0xA6: "D", 0xA4: "S", 0xA7: "C", 0xA1: "H", 0xA2: "D"}


class CardLines:
    """Bytes from the reader -> card words, one per line that is not empty."""

    def __init__(self):
        self.buf = bytearray()
        self.long = False

    def feed(self, data):
        cards = []
        for byte in data:
            if byte in (10, 13):
                if self.long:
                    cards.append(NOT_A_CARD)
                elif self.buf:
                    cards.append(word(bytes(self.buf)))
                self.buf, self.long = bytearray(), False
            elif not self.long:
                self.buf.append(byte)
                if len(self.buf) > MAX_CARD:
                    self.buf, self.long = bytearray(), True
        return [card for card in cards if card]


def word(line):
    """A reader's line as one protocol word: spaces, tabs and '*' removed, a UTF-8 suit
    symbol as its letter; NOT_A_CARD if any other byte is not printable ASCII; None if
    nothing is left."""
    out = []
    i = 0
    while i < len(line):
        byte = line[i]
        if byte == 0xE2 and line[i + 1:i + 2] == b"\x99" and line[i + 2:i + 3] and line[i + 2] in SUITS:
            out.append(SUITS[line[i + 2]])
            i += 3
            continue
        if byte not in (9, 32, 42):
            if not 32 < byte <= 126:
                return NOT_A_CARD
            out.append(chr(byte))
        i += 1
    return "".join(out) or None
