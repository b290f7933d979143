"""Rules of docs/protocol.md that its examples cannot show on the wire: each track's flash
runs on its own clock, the animation on its own; events wait for the handshake; a number is
read by hand in one form only (never by int(), which takes 0x5, +5 and 5_5)."""

import pytest

import draw as fw_draw
import layout as fw_layout
import link as fw_link
import protocol as fw


def line(seq, body):
    return fw.frame(seq, body).rstrip(b"\n")


def greeted():
    controller = fw_link.Controller(fw_layout, 0)
    controller.handle(line(1, "HELLO " + fw.PROTOCOL), 0)
    return controller


def test_a_peg_moving_on_one_track_does_not_restart_another_tracks_flash():
    c = greeted()
    assert c.handle(line(2, "T 0 12 6 6"), 0) == fw.frame(2, "ACK")
    assert c.steps(0 + fw.STEP_MS * 2)[1] == [2, fw.FLASH_STEPS]
    assert c.handle(line(3, "T 1 9 4 5"), fw.STEP_MS * 2) == fw.frame(3, "ACK")
    assert c.steps(fw.STEP_MS * 3)[1] == [3, 1]  # track 0 goes on where it was
    assert c.handle(line(4, "C 1 00FF00"), fw.STEP_MS * 4) == fw.frame(4, "ACK")
    assert c.steps(fw.STEP_MS * 9)[1] == [fw.FLASH_STEPS, fw.FLASH_STEPS]  # both over: a colour restarts nothing
    c.handle(line(5, "T 0 12 6 6"), fw.STEP_MS * 9)  # the same flash again: not a new one
    assert c.steps(fw.STEP_MS * 9)[1] == [fw.FLASH_STEPS, fw.FLASH_STEPS]
    c.handle(line(6, "F 0 3"), fw.STEP_MS * 10)  # another flash: it starts
    assert c.steps(fw.STEP_MS * 10)[1] == [0, fw.FLASH_STEPS]


def test_the_frame_blinks_only_the_track_whose_flash_is_new():
    c = greeted()
    c.handle(line(2, "T 0 12 6 6"), 0)
    c.handle(line(3, "T 1 9 4 5"), 1000)
    step, flashes = c.steps(1000)
    strips = fw_draw.new_strips(fw_layout)
    fw_draw.draw(c.board, fw_layout, strips, step, None, flashes)
    hole = lambda t, h: fw_draw.rgb(strips[0][fw_layout.HOLES[t][h - 1] & 0xFFF])  # noqa: E731
    assert hole(1, 5) != (0, 0, 0)  # track 1's new flash is lit at its step 0
    assert hole(0, 7) == (0, 0, 0)  # track 0's flash of a second ago is over, not lit again


def test_the_animation_runs_from_when_it_changed():
    c = greeted()
    c.handle(line(2, "A alert 0 -"), 400)
    assert c.steps(1000)[0] == 3
    c.handle(line(3, "T 1 5 0 0"), 1000)
    assert c.steps(1000)[0] == 3  # a peg does not restart it
    c.handle(line(4, "A alert 0 -"), 1200)  # nor does the same animation again
    assert c.steps(1200)[0] == 4


def test_events_wait_for_the_handshake_and_count_from_00_after_each():
    c = fw_link.Controller(fw_layout, 0)
    assert c.event("KD", "5") is None
    c.handle(line(1, "HELLO 3.0"), 0)  # refused: still nobody to tell
    assert c.event("KD", "5") is None
    c.handle(line(2, "HELLO " + fw.PROTOCOL), 0)
    assert c.event("KD", "5") == fw.frame(0, "KD 5") and c.event("KU", "5") == fw.frame(1, "KU 5")
    c.handle(line(9, "HELLO " + fw.PROTOCOL), 0)
    assert c.event("KD", "A") == fw.frame(0, "KD A")


@pytest.mark.parametrize("word", ["0x5", "+5", "5_5", "05", "-5", " 5", "5 ", "\u0665", "", "5.0", "1e2"])
def test_a_number_has_one_form(word):
    with pytest.raises(fw.ProtocolError) as info:
        fw.number(word, 0, 121, "front")
    assert info.value.code == "ARG" and info.value.reason == "front %s is not a number" % word


@pytest.mark.parametrize("word", ["0x5", "+5", "5_5", "05", "a", "-1", "1" * 32, ""])
def test_a_bitmap_has_one_form(word):
    with pytest.raises(fw.ProtocolError) as info:
        fw.holes_from_hex(word, 121, "marks")
    assert info.value.reason == "marks %s is not a hole bitmap" % fw.shown(word)


def test_a_long_value_is_quoted_whole_up_to_20_bytes_then_cut_visibly():
    assert fw.shown("1" * 20) == "1" * 20 and fw.shown("1" * 21) == "1" * 20 + "..."
    with pytest.raises(fw.ProtocolError) as info:
        fw.number("1000000000", 0, 100000, "current cap")
    assert info.value.reason == "current cap 1000000000 is not 0-100000"


def test_bitmaps_read_every_hole_up_to_121():
    every = "1" + "F" * 30
    assert fw.holes_from_hex(every, 121, "marks") == tuple(range(1, 122))
    assert fw.holes_from_hex("5", 121, "marks") == (1, 3) and fw.holes_from_hex("0", 121, "marks") == ()
    with pytest.raises(fw.ProtocolError) as info:
        fw.holes_from_hex("2" + "0" * 30, 121, "marks")
    assert info.value.reason == "marks hole 122 is not 1-121"


def test_the_hello_reply_with_every_key_name_fits_in_a_line():
    reply = fw_link.Controller(fw_layout, 0).handle(line(1, "HELLO " + fw.PROTOCOL), 0)
    assert len(reply) <= fw.MAX_LINE, "the key map's names make HELLO's reply longer than a line"
