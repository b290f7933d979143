"""Pure views: board model -> LED frame, screen model -> OLED image.

No hardware, no files, no clock: the hal shows what these return. Imports Pillow and
:mod:`cribpi.rules` only.
"""

from cribpi.views.leds import LedFrame, LedSettings, estimate_current_ma, render_board
from cribpi.views.oled import DEFAULT_SIZE, pages, render_screen, show_pages

__all__ = [
    "DEFAULT_SIZE", "LedFrame", "LedSettings", "estimate_current_ma", "pages", "render_board", "render_screen",
    "show_pages",
]
