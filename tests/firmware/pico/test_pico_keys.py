"""Every mode on the reference build's keys, on the real rp2 port in an emulated RP2040: a
peg keyed on the matrix's pins (PEG, the player's suit, rank keys, OK) reaches the table
through the host's controller backend and comes back to the LED data pin as the host draws
it. (The whole games on the keys run against the unix port: tests/firmware/test_keys_play.py.)"""

from __future__ import annotations

from cribpi.app import TableSettings
from cribpi.game import Mode
from cribpi.hal.controller import open_controller
from cribpi.hal.layout import load_layout
from cribpi.views.leds import LedSettings, render_board
from tests.firmware import rig
from tests.firmware.keyplay import KeysOnController, Player
from tests.firmware.pico.conftest import TIMING

LAYOUT = load_layout(rig.ROOT / "hardware" / "layouts" / "two-track-serpentine.toml")


def test_a_peg_keyed_on_the_matrix_pins_is_pegged_and_drawn(pico):
    keys = KeysOnController(pico, open_controller(pico.port, timing=TIMING),
                            TableSettings(names=("Ann", "Bob"), mode=Mode.BOARD), patience_s=60)
    try:
        player = Player(keys)
        player.card("AC")  # the cut: Ann deals
        player.card("KD")
        player.dismiss()
        keys.tap("peg", "D", "T")
        assert keys.ui.screen().prompt == "Peg Bob (blue)" and keys.ui.screen().entry == "10"
        keys.tap("2", "ok")
        assert keys.ui.state.scores == (0, 12)
        board = keys.ui.board()
        pico.wait_for(lambda: keys.part.link.shown == board, what="the peg's board ACKed")
        settings = LedSettings(current_cap_ma=2000, game_counter_leds=LAYOUT.game_counters)
        frames = [LAYOUT.place(render_board(board, settings, step))[0] for step in range(8)]
        pico.wait_for(lambda: pico.rgb(0) in frames, what="Bob's peg on the data pin")
    finally:
        keys.close()
