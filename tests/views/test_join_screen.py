"""The phones' join screen on the OLED: the QR code drawn on the image carries the table's
address (read back module by module from the pixels and matched against qrcode's own encoding
of the address at each error correction level and mask), the PIN is drawn in bold, the
address in short, and bad input is refused naming it."""

from __future__ import annotations

import doctest

import pytest
import qrcode
from PIL import Image
from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_L, ERROR_CORRECT_M, ERROR_CORRECT_Q
from qrcode.exceptions import DataOverflowError

import cribpi.views.join
from cribpi.exc import ViewError
from cribpi.views.fonts import BOLD, SMALL
from cribpi.views.model import JoinScreen
from cribpi.views.oled import draw_screen, render_screen
from cribpi.views.text import screen_text

LEVELS = {"L": ERROR_CORRECT_L, "M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q, "H": ERROR_CORRECT_H}
ADDRESS = "http://192.168.100.200:8080/"


def read_modules(image: Image.Image) -> tuple[list[list[bool]], int]:
    """The code's modules as the pixels show them (True: dark), and the pixels a module: the
    lit square at the left edge is the code with its quiet zone; its dark pixels' bounding box
    is the code itself (three finder patterns sit in its corners)."""
    px = image.load()
    top = next(y for y in range(image.height) if px[0, y])
    side = next(x for x in range(image.width) if not px[x, top])
    assert all(px[0, y] for y in range(top, top + side)), "the code's lit ground is not square"
    dark = [(x, y) for y in range(top, top + side) for x in range(side) if not px[x, y]]
    x0, y0 = min(x for x, _ in dark), min(y for _, y in dark)
    x1, y1 = max(x for x, _ in dark), max(y for _, y in dark)
    assert x1 - x0 == y1 - y0
    width = x1 - x0 + 1
    scale = next(s for s in (2, 1) if width % s == 0 and (width // s) in (21, 25))
    assert x0 % scale == 0 and x0 >= 2 * scale and x0 - 0 == top + side - 1 - y1, \
        "the quiet zone is too thin for a camera, or not even"
    count = width // scale
    modules = []
    for j in range(count):
        row = []
        for i in range(count):
            block = {px[x0 + i * scale + dx, y0 + j * scale + dy] for dx in range(scale) for dy in range(scale)}
            assert len(block) == 1, f"module ({i}, {j}) is not one colour: not drawn {scale} px a module"
            row.append(not block.pop())
        modules.append(row)
    return modules, scale


def decode(modules: list[list[bool]], text: str) -> tuple[int, str, int] | None:
    """(version, level, mask) at which qrcode's own encoding of ``text`` is exactly ``modules``."""
    version = (len(modules) - 17) // 4
    for name, level in LEVELS.items():
        for mask in range(8):
            code = qrcode.QRCode(version=version, error_correction=level, border=0, mask_pattern=mask)
            code.add_data(text)
            try:
                code.make(fit=False)
            except DataOverflowError:
                break
            if [[bool(m) for m in row] for row in code.get_matrix()] == modules:
                return version, name, mask
    return None


def find(image: Image.Image, text: str, font=BOLD) -> list[tuple[int, int]]:
    """Where ``text`` in ``font`` is drawn on ``image`` (its cell exactly: lit and unlit)."""
    stamp = Image.new("1", (font.text_width(text), font.height), 0)
    font.draw(stamp, (0, 0), text)
    want = stamp.tobytes()
    return [(x, y) for y in range(image.height - stamp.height + 1) for x in range(image.width - stamp.width + 1)
            if image.crop((x, y, x + stamp.width, y + stamp.height)).tobytes() == want]


def test_the_code_on_the_oled_carries_the_address_at_level_q():
    image = render_screen(JoinScreen(ADDRESS, "4821", ("Alice", "Bob")))
    modules, scale = read_modules(image)
    assert scale == 2 and len(modules) == 25  # version 2, 50 pixels of the 64
    found = decode(modules, "HTTP://192.168.100.200:8080/")
    assert found is not None and found[:2] == (2, "Q")
    assert decode(modules, "HTTP://192.168.100.201:8080/") is None  # another table's is not it
    h = qrcode.QRCode(version=2, error_correction=ERROR_CORRECT_H, border=0)
    h.add_data("HTTP://192.168.100.200:8080/")
    with pytest.raises(DataOverflowError):
        h.make(fit=False)  # Q is the highest level that fits version 2


def test_the_longest_lan_address_fits_and_a_path_in_small_letters_is_kept():
    modules, _ = read_modules(render_screen(JoinScreen("http://192.168.100.200:65535/", "0000")))
    assert decode(modules, "HTTP://192.168.100.200:65535/")[:2] == (2, "Q")
    modules, _ = read_modules(render_screen(JoinScreen("http://10.0.0.7:8080/t", "0000")))
    assert decode(modules, "http://10.0.0.7:8080/t") is not None  # a case-blind host only


def test_the_pin_and_the_short_address_are_drawn_beside_the_code():
    canvas = draw_screen(JoinScreen(ADDRESS, "4821", ("Alice", "Bob", "Carol")))
    image = canvas.image
    side = next(x for x in range(image.width) if not image.getpixel((x, 1)))  # the code's lit square
    spots = find(image, "4821")
    assert len(spots) == 1 and spots[0][0] > side
    assert find(image, "4822") == []
    assert find(image, "192.168.100.", SMALL) and find(image, "200:8080", SMALL)
    assert find(image, "Alice, Bob,", SMALL) and find(image, "Carol", SMALL)
    assert canvas.dropped == [] and canvas.shortened == []


def test_a_compact_display_draws_the_code_a_pixel_a_module():
    modules, scale = read_modules(render_screen(JoinScreen(ADDRESS, "4821"), (128, 32)))
    assert scale == 1 and decode(modules, "HTTP://192.168.100.200:8080/") is not None


def test_the_words_say_the_address_pin_and_seats():
    assert screen_text(JoinScreen(ADDRESS, "0042", ("Ann", "Bo"))) == (
        f"Phones: {ADDRESS} | PIN 0042\nseats: Ann, Bo")


@pytest.mark.parametrize("url, pin, says", [
    ("192.168.1.2:8080", "1234", "not an http:// or https:// address"),
    (ADDRESS, "123", "not 4 digits"),
    (ADDRESS, "12a4", "not 4 digits"),
    (ADDRESS, "١٢٣٤", "not 4 digits"),  # Arabic-Indic digits are digits to str.isdigit
])
def test_bad_join_input_is_refused_naming_it(url, pin, says):
    with pytest.raises(ViewError, match=says):
        JoinScreen(url, pin)


def test_an_address_too_long_for_version_2_is_refused_naming_it():
    url = "http://cribpi-table-seven.clubhouse.example.org:8080/"
    with pytest.raises(ViewError, match="clubhouse.*too long for a version 2 QR code"):
        render_screen(JoinScreen(url, "1234"))


def test_doctests():
    assert doctest.testmod(cribpi.views.join).failed == 0
