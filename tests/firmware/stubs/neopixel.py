"""The firmware must not use ``neopixel``: on the rp2 port it turns interrupts off for the
whole frame. Importing this stand-in fails, so a test catches any firmware module that does."""

raise ImportError("the firmware must not import neopixel (it disables interrupts for a whole frame)")
