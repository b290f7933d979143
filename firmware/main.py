"""What the Pico runs at power-up: the program (program.py), imported and started from here
rather than written here. With the program in the file the Pico runs as its main.py, every
garbage collection took ~10 ms on the (emulated) Pico, imported from it ~5: something of the
file run as main.py stays on the heap for the collector to go through (not pinned down
further). Tests and tools reach the program's names through this module as before
(main.Firmware, main.run).
"""

import program
from program import *  # noqa: F401,F403

if __name__ == "__main__":  # the Pico runs main.py as __main__; tests import it
    program.start()
