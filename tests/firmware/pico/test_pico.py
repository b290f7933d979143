"""The firmware on the real MicroPython rp2 port (v1.28.0, RPI_PICO) in an emulated RP2040,
driven end to end by the host's controller backend over the emulated USB CDC serial: the
handshake, the frames on each LED data pin decoded bit by bit and compared LED for LED with
the host's render_board, keys pressed on the matrix's pins, the watchdog, the host going away
and the USB cable pulled. Waits are in emulated time wherever the firmware's timing matters."""

from __future__ import annotations

import re

import pytest

from cribpi.hal.actions import Action, ActionQueue, Kind
from cribpi.hal.controller import open_controller
from cribpi.hal.controller.flash import layout_module
from cribpi.hal.layout import load_layout
from cribpi.views.board import Animation, BoardModel, TrackModel, mark_holes
from cribpi.views.leds import LedSettings, render_board
from tests.firmware import rig
from tests.firmware.pico.conftest import TIMING
from tests.firmware.pico.emulated import EmulatedPico, precompiled

LAYOUTS = rig.ROOT / "hardware" / "layouts"
RED, BLUE, GREEN, YELLOW = (255, 0, 0), (0, 64, 255), (0, 255, 0), (255, 160, 0)
TRACKS = (TrackModel(12, 6, RED, 1), TrackModel(4, 0, BLUE), TrackModel(61, 55, GREEN, 2), TrackModel(119, 100, YELLOW))


def protocol_constant(name: str) -> int:
    import protocol

    return int(getattr(protocol, name))


def first_time(chunks: list[tuple[float, bytes]], needle: bytes) -> float:
    """The emulated time (µs) of the chunk with which ``needle`` had come through."""
    seen = b""
    for us, data in chunks:
        seen += data
        if needle in seen:
            return us
    raise AssertionError(f"{needle!r} never came")


def frames_for(layout, board: BoardModel, cap_ma: float, steps=(0,)) -> list[dict[int, list]]:
    settings = LedSettings(current_cap_ma=cap_ma, game_counter_leds=layout.game_counters)
    return [layout.place(render_board(board, settings, step)) for step in steps]


def shown(pico: EmulatedPico, strips: int) -> dict[int, list]:
    return {strip: pico.rgb(strip) for strip in range(strips)}


def showing(pico: EmulatedPico, layout, board: BoardModel, cap_ma: float = 2000, steps=(0,)) -> None:
    wanted = frames_for(layout, board, cap_ma, steps)
    strips = len(wanted[0])
    pico.wait_for(lambda: shown(pico, strips) in wanted, what=f"the frame of {board}")


def connected(pico: EmulatedPico, part) -> None:
    pico.wait_for(lambda: part.link.hello is not None and part.problem is None, what="the handshake")


@pytest.fixture
def part(pico):
    opened = open_controller(pico.port, timing=TIMING)
    yield opened
    opened.close()


TWO = load_layout(LAYOUTS / "two-track-serpentine.toml")


def test_the_pico_boots_and_answers_hello(boot):
    import protocol

    # The firmware's .py files, compiled on the chip at boot, as on a maker's Pico; the boot
    # to HELLO counts from power-up (emulated time 0 after the power cycle: conftest.py).
    pico = boot(as_flashed=True)
    part = open_controller(pico.port, timing=TIMING)
    try:
        connected(pico, part)
    finally:
        part.close()
    hello = part.link.hello
    assert (hello.protocol, hello.firmware, hello.tracks) == (protocol.PROTOCOL, protocol.FIRMWARE, 2)
    assert "menu" in hello.keys and "A" in hello.keys
    assert b"Traceback" not in pico.serial_out and not pico.resets()
    # Booted and answered well within the watchdog's time, in emulated time: from the HELLO
    # that was answered going in (at power-up if the host was that quick) to the reply, however
    # late the host's thread got round to sending it.
    replied = first_time(pico.serial_times, b" HELLO ")
    sent = max(us for us, data in pico.serial_in_times if us <= replied and b"HELLO" in data)
    assert (replied - sent) / 1000 < 5000


def test_another_major_version_is_refused(boot):
    pico = boot(PROTOCOL="1.0", FIRMWARE="1.4.2")
    part = open_controller(pico.port, timing=TIMING)
    try:
        board = BoardModel(TRACKS[:2], brightness=1.0)
        part.show(board)
        pico.wait_for(lambda: part.problem and "firmware" in part.problem, what="the version problem")
        assert part.problem == "controller firmware 1.x, cribpi needs 2.x: run `cribpi flash`"
        pico.sleep(300)
        assert part.link.shown is None and pico.rgb(0) != frames_for(TWO, board, 2000)[0][0]
    finally:
        part.close()


@pytest.mark.parametrize("tracks", [2, 3, 4])
def test_pegs_drive_every_data_pin_as_the_host_renders_them(boot, tracks):
    name = {2: "two", 3: "three", 4: "four"}[tracks]
    layout = load_layout(LAYOUTS / f"{name}-track-serpentine.toml")
    pico = boot(layout_module(layout))
    cap = 300  # mA: low enough that the cap scales these frames down
    part = open_controller(pico.port, timing=TIMING, cap_ma=cap)
    try:
        board = BoardModel(TRACKS[:tracks], brightness=1.0, marks=mark_holes(121))
        assert frames_for(layout, board, cap) != frames_for(layout, board, 4000)  # the cap is in play
        part.show(board)
        showing(pico, layout, board, cap)
        moved = BoardModel((TrackModel(17, 12, RED, 1),) + TRACKS[1:tracks], brightness=0.5, marks=mark_holes(121))
        part.show(moved)
        showing(pico, layout, moved, cap)
        frame = pico.frame(0)
        leds = len(frame["pixels"])
        wire_us = frame["end_us"] - frame["start_us"]
        assert 29 * leds <= wire_us <= 31 * leds, f"{wire_us} us for {leds} LEDs: not 30 us an LED"
        assert part.problem is None and not pico.resets()
    finally:
        part.close()


def test_a_scored_run_flashes_on_the_pin_as_on_the_host(pico, part):
    connected(pico, part)
    board = BoardModel(TRACKS[:2], brightness=1.0, flash=((7, 8, 9, 10, 11, 12),))
    steps = tuple(range(protocol_constant("FLASH_STEPS") + 1))
    wanted = {tuple(frame[0]) for frame in frames_for(TWO, board, 2000, steps)}
    flash_us = protocol_constant("FLASH_STEPS") * protocol_constant("STEP_MS") * 1000
    since = pico.now_ms() * 1000
    part.show(board)

    def the_flash():
        # The frames of the flash's time in emulated µs, from the first that shows the board,
        # once it is over: the window does not depend on when this side looks.
        frames = pico.request("history", pin=pico.led_pins[0], since_us=since)["frames"]
        start = next((f["start_us"] for f in frames if tuple(tuple(p) for p in f["pixels"]) in wanted), None)
        if start is None or pico.now_ms() * 1000 < start + flash_us:
            return None
        return [tuple(tuple(p) for p in f["pixels"]) for f in frames if start <= f["start_us"] < start + flash_us]

    seen = set(pico.wait_for(the_flash, what="the flash's frames"))
    assert seen <= wanted and len(seen) >= 2  # it blinks, and only as the host draws it


def tap(pico: EmulatedPico, name: str, hold_ms: float = 60) -> None:
    pico.tap(rig.key_pins(name), hold_ms=hold_ms, after_ms=40)


def test_keys_on_the_matrix_pins_reach_the_table(pico, part):
    import settings

    with ActionQueue() as actions:
        part.start(actions)
        connected(pico, part)
        # A bounce, a quarter of the debounce time on the emulated clock: nothing.
        bounce = pico.press(rig.key_pins("9"), ms=settings.DEBOUNCE_MS / 4)
        pico.sleep_until(bounce["until_us"] / 1000 + 60)
        tap(pico, "5")
        tap(pico, "H")
        tap(pico, "undo")
        tap(pico, "undo", hold_ms=settings.HOLD_MS + 100)
        got: list[Action] = []
        pico.wait_for(lambda: got.extend(actions.drain()) or len(got) >= 4, what="four actions")
        pico.sleep(100)
        got += actions.drain()
    assert got == [Action.parse("rank 5"), Action.parse("suit H"), Action.parse("undo"), Action.parse("undo_long")]


def keys_reported(boot, firmware, name: str) -> list[bytes]:
    """The key events the firmware sends for one tap of ``name`` (60 ms down, on the emulated
    clock) once the host has greeted it, up to 200 ms (emulated) after the key came up (the
    modules compiled by mpy-cross)."""
    pico = boot(firmware=precompiled(firmware, firmware.parent / f"{firmware.name}-mpy"))
    part = open_controller(pico.port, timing=TIMING)
    try:
        connected(pico, part)
        greeted = len(pico.serial_out)
        pressed = pico.press(rig.key_pins(name), ms=60)
        pico.sleep_until(pressed["until_us"] / 1000 + 200)
        return re.findall(rb"^[0-9A-F]{2} (K[DUH] \S+)\*", bytes(pico.serial_out[greeted:]), re.M)
    finally:
        part.close()


@pytest.mark.parametrize("pull_up", [True, False], ids=["firmware", "firmware-without-pull-up"])
def test_the_columns_read_high_only_through_the_picos_own_pull_ups(boot, tmp_path, pull_up):
    # The board has no resistors on the columns: the emulator reads a column high only while
    # its pad's pull-up is on, so a firmware that leaves it off reads every key down.
    firmware = rig.firmware_copy(tmp_path / "fw")
    if not pull_up:
        keys = firmware / "keys.py"
        source = keys.read_text()
        assert source.count("machine.Pin.IN, machine.Pin.PULL_UP)") == 1
        keys.write_text(source.replace("machine.Pin.IN, machine.Pin.PULL_UP)", "machine.Pin.IN)"))
    reported = keys_reported(boot, firmware, "5")
    if pull_up:
        assert reported == [b"KD 5", b"KU 5"]
    else:
        assert reported != [b"KD 5", b"KU 5"], "the harness read the columns high without the pull-ups"


def test_the_watchdog_resets_a_hung_firmware_and_the_host_resyncs(pico, part):
    import settings

    board = BoardModel(TRACKS[:2], brightness=1.0)
    part.show(board)
    showing(pico, TWO, board)
    hung = pico.hang()  # the emulated time the CPU stopped
    pico.wait_for(lambda: pico.resets(), what="the watchdog's reset")
    reset = pico.resets()[0]
    assert reset["reason"] == "watchdog"
    assert settings.WDT_MS - 100 <= reset["us"] / 1000 - hung <= settings.WDT_MS + 300  # fed every 50 ms till the hang
    later = BoardModel((TrackModel(30, 12, RED, 1), TRACKS[1]), brightness=1.0)
    part.show(later)
    showing(pico, TWO, later)  # the host saw the controller again, said HELLO, sent the board
    assert part.problem is None and part.link.connections >= 2


def test_the_host_lost_and_back(pico, part):
    board = BoardModel(TRACKS[:2], brightness=1.0)
    part.show(board)
    showing(pico, TWO, board)
    pico.unplug_host()  # the host stops talking; the USB stays connected
    pico.wait_for(lambda: part.problem == "controller lost: reconnecting", what="the lost problem")
    waiting = BoardModel(TRACKS[:2], brightness=1.0, animation=Animation.WAITING)
    showing(pico, TWO, waiting, steps=tuple(range(8)))
    later = BoardModel((TrackModel(30, 12, RED, 1), TRACKS[1]), brightness=1.0)
    part.show(later)
    pico.plug_host()
    showing(pico, TWO, later)
    assert part.problem is None and part.link.connections == 2 and not pico.resets()


def test_unplug_and_replug_of_the_usb(pico, part):
    board = BoardModel(TRACKS[:2], brightness=1.0)
    part.show(board)
    showing(pico, TWO, board)
    pico.unplug()
    pico.wait_for(lambda: part.problem == "controller lost: reconnecting", what="the lost problem")
    later = BoardModel((TrackModel(30, 12, RED, 1), TRACKS[1]), brightness=1.0)
    part.show(later)
    pico.sleep(500)
    pico.plug()
    pico.wait_for(lambda: pico.state()["usb"], what="the new enumeration")
    showing(pico, TWO, later)
    assert part.problem is None and part.link.connections == 2 and not pico.resets()


def test_ctrl_c_and_garbage_on_the_real_usb_are_data(pico, part):
    # On the rp2 port the USB CDC driver itself watches for the interrupt character; the
    # firmware turns that off (micropython.kbd_intr(-1)), and this is where it shows.
    board = BoardModel(TRACKS[:2], brightness=1.0)
    part.show(board)
    showing(pico, TWO, board)
    pico.write(b"\x03\x03\r\n\x00\xff\xfe garbage \x03\n" + b"z" * 500 + b"\n\x04\x1a\n")
    pico.sleep(200)
    moved = BoardModel((TrackModel(20, 12, RED, 1), TRACKS[1]), brightness=1.0)
    part.show(moved)
    showing(pico, TWO, moved)
    assert b"Traceback" not in pico.serial_out and b">>>" not in pico.serial_out
    assert part.problem is None and not pico.resets()


def test_cards_from_a_reader_on_the_real_uart_reach_the_table(boot):
    import settings as firmware_settings

    pico = boot(settings={"CARD_UART": 0})
    part = open_controller(pico.port, timing=TIMING)
    try:
        with ActionQueue() as actions:
            part.start(actions)
            connected(pico, part)
            pico.feed_card("5H\r\n10d\nq\u2660\n".encode() + b"x" * 40 + b"\nZZ\n")
            got: list[Action] = []
            pico.wait_for(lambda: got.extend(actions.drain()) or len(got) >= 5, what="five cards")
    finally:
        part.close()
    assert (firmware_settings.CARD_TX_PIN, firmware_settings.CARD_RX_PIN) == (0, 1)  # UART0's pins on the Pico
    assert got[:3] == [Action.parse("card 5H"), Action.parse("card TD"), Action.parse("card QS")]
    assert got[3].kind is Kind.REJECTED and "'?'" in got[3].text  # 40 x's: not a card (CARD ?)
    assert got[4].kind is Kind.REJECTED and "ZZ" in got[4].text
