"""This controller's wiring and limits: the pins, the key map, the drawing colours and the
current cap the firmware enforces whatever the host asks. hardware/README.md documents the
pins; a test keeps the two tables equal.
"""

LED_PINS = (2, 3, 4, 5)  # GP2-GP5: strip 0-3 data, through the 74AHCT125
ROW_PINS = (6, 7, 8, 9)  # key matrix rows: driven low one at a time
COL_PINS = (10, 11, 12, 13, 14, 15)  # key matrix columns: inputs with pull-ups
#: Key names by row then column ("": no key there); the host maps them to actions.
#: hardware/keycaps.svg is drawn from this map (hardware/keycaps.py); a test keeps them equal.
KEYMAP = (
    ("A", "2", "3", "4", "5", "6"),
    ("7", "8", "9", "T", "J", "Q"),
    ("K", "C", "D", "H", "S", "go"),
    ("ok", "undo", "menu", "peg", "muggins", ""),
)
#: A serial card reader (one card a line, 9600 baud) on UART0: RX on GP1, TX on GP0. None: no
#: reader (an unconnected RX pin would read noise as cards).
CARD_UART = None
CARD_RX_PIN = 1
CARD_TX_PIN = 0
DEBOUNCE_MS = 20  # a key must read the same this long to count
HOLD_MS = 800  # held this long (from its KD): KH
REPEAT_MS = 400  # still held: KH again, this long after the last
SCAN_MS = 5  # one matrix scan
MAX_LEDS = 512  # per strip
CURRENT_CAP_MA = 4000  # the firmware's own cap: the host can ask for less, never more
MA_PER_CHANNEL = 20  # WS2812: each channel draws up to 20 mA at 255
WDT_MS = 5000  # the watchdog resets the Pico if the loop stalls this long

REAR_PERMILLE = 200  # the rear peg at 0.2 of the track colour
MARK_COLOUR = (40, 40, 40)
FLASH_COLOUR = (255, 255, 255)
ALERT_COLOUR = (255, 0, 0)
