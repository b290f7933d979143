"""A card reader on the controller's UART: one card a line ("5H", "10d", "Q\u2660"), sent to
the host as CARD events. The host checks the card (a wrong one becomes a rejected action
the OLED shows); here a line only has to fit in a protocol word.
"""

MAX_CARD = 16  # bytes: no card is longer; a longer line is noise and is dropped


class CardLines:
    """Bytes from the reader -> card texts, one per non-empty line."""

    def __init__(self):
        self.buf = bytearray()
        self.dropping = False

    def feed(self, data):
        cards = []
        for byte in data:
            if byte in (10, 13):
                if self.buf and not self.dropping:
                    cards.append(_word(bytes(self.buf)))
                self.buf, self.dropping = bytearray(), False
            elif not self.dropping:
                self.buf.append(byte)
                if len(self.buf) > MAX_CARD:
                    self.buf, self.dropping = bytearray(), True
        return [card for card in cards if card]


def _word(line):
    """The line as one protocol word: no spaces, no '*', valid UTF-8 (else '?')."""
    try:
        text = line.decode()
    except UnicodeError:
        return "?"
    return "".join(c for c in text if c not in " *\t") or None
