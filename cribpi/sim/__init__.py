"""``cribpi sim``: the whole table in a terminal, on the sim backend.

The LED tracks are drawn as coloured dots, the OLED from its real image, and keys map to the
logical actions (legend on screen); the screen fits the terminal (:mod:`cribpi.sim.layout`)
and is redrawn in place with curses (:mod:`cribpi.sim.terminal`). The game is journalled like
on the Pi, so quitting and starting again resumes it.
"""

from cribpi.sim.keys import LEGEND, KeyMapper
from cribpi.sim.parts import has_sim_keys, sim_parts
from cribpi.sim.terminal import Terminal

__all__ = ["KeyMapper", "LEGEND", "Terminal", "has_sim_keys", "sim_parts"]
