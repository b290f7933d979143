"""End to end: the real firmware/main.py under the MicroPython unix port behind a pty, driven
by the host's controller backend through pyserial, as on a Pi with a Pico on USB."""

import time

import pytest

import settings
from cribpi.hal.actions import Action, ActionQueue, Kind
from cribpi.hal.controller import LinkTiming, open_controller
from cribpi.hal.layout import load_layout
from cribpi.views.board import Animation, BoardModel, TrackModel
from cribpi.views.leds import LedSettings, render_board
from tests.firmware import rig

LAYOUT = load_layout(rig.ROOT / "hardware" / "layouts" / "two-track-serpentine.toml")
SETTINGS = LedSettings(game_counter_leds=LAYOUT.game_counters)
QUICK = LinkTiming(ack_timeout_s=0.1, retries=3, ping_s=0.5, backoff_s=0.05, backoff_max_s=0.3)
BOARD = BoardModel((TrackModel(12, 6, (255, 0, 0), 1), TrackModel(4, 0, (0, 64, 255))), brightness=1.0)


def leds_for(board, step=0):
    return LAYOUT.place(render_board(board, SETTINGS, step))[0]


@pytest.fixture
def pico(tmp_path):
    board = rig.Pico(tmp_path)
    yield board
    board.close()


@pytest.fixture
def part(pico):
    opened = open_controller(pico.port, timing=QUICK, cap_ma=SETTINGS.current_cap_ma)
    yield opened
    opened.close()


def connected(part, pico):
    return pico.wait_for(lambda: part.link.hello is not None and part.problem is None, what="the handshake")


def showing(pico, board, step=0):
    return pico.wait_for(lambda: pico.rgb() == leds_for(board, step), what=f"the frame of {board}")


def key(name):
    for r, row in enumerate(settings.KEYMAP):
        if name in row:
            return settings.ROW_PINS[r], settings.COL_PINS[row.index(name)]
    raise KeyError(name)


def tap(pico, part, name, hold=0.15):
    """Hold ``name`` down ``hold`` s and until the firmware's key-down event has come, then let
    it go until its key-up has come: on a busy machine the firmware may not scan the matrix for
    longer than a fixed gap, and two taps of undo would be one long hold."""
    link = part.link
    before = link._next_event
    pico.press(key(name))
    time.sleep(hold)
    pico.wait_for(lambda: link._next_event != before, what=f"{name}'s key-down")
    down = link._next_event
    pico.press()
    pico.wait_for(lambda: link._next_event != down, what=f"{name}'s key-up")
    time.sleep(0.02)


def test_the_handshake_reports_the_controller(part, pico):
    connected(part, pico)
    hello = part.link.hello
    assert (hello.protocol, hello.firmware, hello.tracks, hello.leds) == ("2.2", "2.2.0", 2, 126)
    assert "menu" in hello.keys and "A" in hello.keys


def test_another_major_version_is_refused_with_the_message_for_the_oled(tmp_path):
    old = rig.firmware_copy(tmp_path / "old", PROTOCOL="1.0", FIRMWARE="1.4.2")
    pico = rig.Pico(tmp_path, firmware=old)
    part = open_controller(pico.port, timing=QUICK)
    try:
        part.show(BOARD)
        pico.wait_for(lambda: part.problem and "firmware" in part.problem, what="the version problem")
        assert part.problem == "controller firmware 1.x, cribpi needs 2.x: run `cribpi flash`"
        time.sleep(0.3)
        assert part.link.shown is None and pico.rgb() != leds_for(BOARD)  # nothing was sent
    finally:
        part.close()
        pico.close()


def test_pegs_reach_the_firmwares_frame_buffer(part, pico):
    part.show(BOARD)
    showing(pico, BOARD)
    moved = BoardModel((TrackModel(17, 12, (255, 0, 0), 1), BOARD.tracks[1]), brightness=0.5)
    part.show(moved)
    showing(pico, moved)
    assert part.problem is None


def test_a_game_with_more_tracks_than_the_board_is_a_problem_until_it_fits(part, pico):
    three = BoardModel(BOARD.tracks + (TrackModel(9, 3, (0, 255, 0)),), brightness=1.0)
    part.show(three)
    pico.wait_for(lambda: part.link.shown is three, what="the three-track board")
    assert part.problem == "the LED board has 2 tracks, the game needs 3"
    part.show(BOARD)
    showing(pico, BOARD)  # drawn as soon as it is ACKed: perhaps before the host reads the ACK
    pico.wait_for(lambda: part.problem is None, what="the problem to clear")


def test_only_the_latest_board_is_sent(part, pico):
    part.show(BOARD)
    showing(pico, BOARD)
    first = part.link._seq
    boards = [BoardModel((TrackModel(n, n - 1, (255, 0, 0)), BOARD.tracks[1])) for n in range(2, 102)]
    for board in boards:
        part.show(board)
    showing(pico, boards[-1])
    sent = (part.link._seq - first) & 0xFF
    assert sent < 30, f"{sent} commands for 100 boards shown at once: a backlog was sent"


def test_keys_reach_the_app_as_a_card_and_held_undo_as_undo_long(part, pico):
    with ActionQueue() as actions:
        part.start(actions)
        connected(part, pico)
        tap(pico, part, "5")
        tap(pico, part, "H")
        tap(pico, part, "undo")
        tap(pico, part, "undo", hold=settings.HOLD_MS / 1000 + 0.2)
        got = []
        pico.wait_for(lambda: got.extend(actions.drain()) or len(got) >= 4, timeout=30, what="four actions")
        time.sleep(0.1)
        got += actions.drain()
    assert got == [Action.parse("rank 5"), Action.parse("suit H"), Action.parse("undo"), Action.parse("undo_long")]


def test_cards_from_a_reader_on_the_controller_reach_the_app(tmp_path):
    pico = rig.Pico(tmp_path, firmware=rig.firmware_copy(tmp_path / "fw", settings={"CARD_UART": 0}))
    part = open_controller(pico.port, timing=QUICK)
    try:
        with ActionQueue() as actions:
            part.start(actions)
            connected(part, pico)
            pico.feed_card("5H\r\n10d\nq\u2660\n".encode() + b"x" * 40 + b"\nZZ\n")
            got = []
            pico.wait_for(lambda: got.extend(actions.drain()) or len(got) >= 5, what="five cards")
    finally:
        part.close()
        pico.close()
    assert got[:3] == [Action.parse("card 5H"), Action.parse("card TD"), Action.parse("card QS")]
    assert got[3].kind is Kind.REJECTED and "'?'" in got[3].text  # 40 x's: not a card (CARD ?)
    assert got[4].kind is Kind.REJECTED and "ZZ" in got[4].text


def test_unplug_and_replug_resyncs_without_a_restart(part, pico):
    part.show(BOARD)
    showing(pico, BOARD)
    pid = pico.process.pid
    pico.unplug()
    pico.wait_for(lambda: part.problem == "controller lost: reconnecting", what="the lost problem")
    later = BoardModel((TrackModel(30, 12, (255, 0, 0), 1), TrackModel(9, 4, (0, 64, 255))), brightness=1.0)
    part.show(later)  # the app goes on while the controller is away
    waiting = BoardModel(BOARD.tracks, brightness=1.0, animation=Animation.WAITING)
    pico.wait_for(lambda: pico.rgb() in (leds_for(waiting, 0), leds_for(waiting, 2)),
                  timeout=rig_timeout(), what="the host-lost pattern")
    pico.plug()
    showing(pico, later)
    assert part.problem is None and part.link.connections == 2 and pico.process.pid == pid and pico.alive()


def rig_timeout():
    import protocol

    return protocol.HOST_TIMEOUT_MS / 1000 + 2


def test_ctrl_c_and_garbage_in_the_stream_get_err_and_the_board_goes_on(part, pico):
    part.show(BOARD)
    showing(pico, BOARD)
    pico.inject(b"\x03\x03\r\n\x00\xff\xfe garbage \x03\n" + b"z" * 500 + b"\n\x04\x1a\n")
    time.sleep(0.2)
    moved = BoardModel((TrackModel(20, 12, (255, 0, 0), 1), BOARD.tracks[1]), brightness=1.0)
    part.show(moved)
    showing(pico, moved)
    assert pico.alive() and part.problem is None


def test_the_firmware_feeds_the_watchdog_while_it_runs(tmp_path):
    import subprocess

    script = ("import asyncio, machine, main\n"
              "fw = main.Firmware()\n"
              "async def go():\n"
              "    try:\n"
              "        await asyncio.wait_for(fw.show(), 0.5)\n"
              "    except asyncio.TimeoutError:\n"
              "        pass\n"
              "asyncio.run(go())\n"
              "print(machine.WDT.feeds, fw.wdt.timeout)\n")
    done = subprocess.run([rig.micropython(), "-c", script], capture_output=True, text=True, timeout=30,
                          env={"MICROPYPATH": rig.mpy_path(rig.FIRMWARE, rig.STUBS)})
    assert done.returncode == 0, done.stdout + done.stderr
    feeds, timeout = map(int, done.stdout.split())
    assert feeds >= 5 and timeout == settings.WDT_MS
