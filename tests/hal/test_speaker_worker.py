"""The speaking thread on the mock speaker (and a real espeak-ng process, marked ``speaker``):
in order, a new batch cutting short the old, hush, and a failing speaker shown and retried."""

from __future__ import annotations

import threading
import time
import wave
from pathlib import Path

import pytest

from cribpi.hal.speaker import SpeechWorker, Voice
from cribpi.hal.speaker.doubles import MockSpeaker
from cribpi.hal.speaker.espeak import AlsaSink, EspeakSpeaker, WavSink
from speaker_rig import NO_DEVICE, need_aplay, need_espeak, wait_for

FAST = Voice(speed=450)
SLOW = Voice(speed=120)


@pytest.fixture
def mock() -> MockSpeaker:
    return MockSpeaker()


@pytest.fixture
def worker(mock: MockSpeaker) -> SpeechWorker:
    w = SpeechWorker(mock, first_retry=0.2, last_retry=0.4)
    w.start()
    yield w
    w.close()


def test_say_returns_at_once_and_speaks_in_order(worker: SpeechWorker, mock: MockSpeaker) -> None:
    worker.say(["fifteen two", "a pair is two"], FAST)
    returned = time.monotonic()
    assert worker.wait_idle(30)
    assert [(s.text, s.whole) for s in mock.said] == [("fifteen two", True), ("a pair is two", True)]
    # the caller (the table's loop) never waits: back before the first was said to its end (half
    # a second), by the clock the speaker stamps; no bound a busy machine's scheduler could break
    assert returned < mock.said[0].ended


def test_a_new_batch_cuts_short_the_one_being_said(worker: SpeechWorker, mock: MockSpeaker) -> None:
    worker.say(["Red's hand: fifteen two, fifteen four, and a pair is six", "Blue's crib: fifteen two"], SLOW)
    wait_for(mock.speaking.is_set)
    time.sleep(0.1)
    cut_at = time.monotonic()
    worker.say(["thirty-one for two"], FAST)
    wait_for(lambda: len(mock.said) == 2)
    # cut soon after, not at the end of its 8 s (the bound leaves room for a busy CI machine)
    assert mock.said[0].whole is False and mock.said[0].ended - cut_at < 2.0
    assert worker.wait_idle(30)
    assert [s.text for s in mock.said] == ["Red's hand: fifteen two, fifteen four, and a pair is six",
                                          "thirty-one for two"]  # the crib waiting behind it was dropped


def test_without_cut_a_batch_waits_its_turn(worker: SpeechWorker, mock: MockSpeaker) -> None:
    worker.say(["fifteen two"], FAST)
    worker.say(["a pair is two"], FAST, cut=False)
    assert worker.wait_idle(30)
    assert [(s.text, s.whole) for s in mock.said] == [("fifteen two", True), ("a pair is two", True)]


def test_hush_stops_speaking_and_forgets_what_waits(worker: SpeechWorker, mock: MockSpeaker) -> None:
    worker.say(["one for the go", "two for his heels"], SLOW)
    wait_for(mock.speaking.is_set)
    worker.hush()
    assert worker.wait_idle(30)
    assert [(s.text, s.whole) for s in mock.said] == [("one for the go", False)]
    worker.say(["fifteen two"], FAST)  # a hush while silent leaves the next alone
    assert worker.wait_idle(30) and mock.said[-1].whole is True


def test_a_cut_racing_the_start_of_speech_is_never_lost(mock: MockSpeaker) -> None:
    """Each batch cut the moment after it was given: none is said whole but the last."""
    worker = SpeechWorker(mock)
    worker.start()
    try:
        for n in range(30):
            worker.say([f"score {n} said at length, more words than it needs"], SLOW)
        worker.say(["fifteen two"], FAST)
        assert worker.wait_idle(30)
    finally:
        worker.close()
    assert [s.text for s in mock.said if s.whole] == ["fifteen two"]


def test_a_failing_speaker_is_a_problem_retried_until_it_comes_back(worker: SpeechWorker, mock: MockSpeaker) -> None:
    changes: list[str | None] = []
    worker.on_change = lambda: changes.append(worker.problem)
    mock.fail("unplugged (USB)")
    worker.say(["fifteen two"], FAST)
    wait_for(lambda: worker.problem is not None)
    assert worker.problem == "speaker: unplugged (USB)"
    tries = mock.attempts
    wait_for(lambda: mock.attempts >= tries + 2)  # retried by itself, nothing asked of it
    worker.say(["a pair is two"], FAST)  # said while failing: dropped, not said late
    assert worker.wait_idle(30)  # the thread has taken it while the speaker still fails
    assert worker.check() is False
    mock.fail(None)
    wait_for(lambda: worker.problem is None)
    assert worker.check() is True and worker.check() is False  # came back: once
    wait_for(lambda: len(changes) >= 2)  # the table is told just after the state changes, on the thread
    assert changes == ["speaker: unplugged (USB)", None]
    assert not any(s.text == "a pair is two" for s in mock.said)
    worker.say(["fifteen four"], FAST)
    assert worker.wait_idle(30) and mock.said[-1].text == "fifteen four"


def test_a_speaker_missing_from_the_start_is_a_problem_at_once(mock: MockSpeaker) -> None:
    mock.fail("espeak-ng is not installed (apt install espeak-ng)")
    worker = SpeechWorker(mock)
    worker.start()
    try:
        wait_for(lambda: worker.problem is not None)
        assert "not installed" in (worker.problem or "")
    finally:
        worker.close()


def test_close_stops_the_thread_and_the_speaker(mock: MockSpeaker) -> None:
    worker = SpeechWorker(mock)
    worker.start()
    worker.say(["a long count said slowly, word after word after word"], SLOW)
    wait_for(mock.speaking.is_set)
    seen: list[tuple[bool | None, bool]] = []  # as the worker closes the speaker: the text cut? its thread alive?
    closing = mock.close

    def close() -> None:
        seen.append((mock.said[0].whole, any(t.name == "speaker worker" and t.is_alive() for t in threading.enumerate())))
        closing()

    mock.close = close  # type: ignore[method-assign]
    worker.close()
    # the text (7 s of it) cut short and the thread ended before the speaker is closed: the worker
    # stopped them itself, and did not give up on its thread (close() waits for it 2 s at most)
    assert seen == [(False, False)]
    assert not any(t.name == "speaker worker" and t.is_alive() for t in threading.enumerate())


# --- a real espeak-ng process ------------------------------------------------------------


def numbered_sinks(folder: Path, made: list[WavSink] | None = None) -> object:
    """Each utterance into its own WAV file (said-0.wav, said-1.wav...), at a card's pace;
    each sink also put in ``made``, to see how much it has been given so far."""
    count = iter(range(100))

    def sink(fmt: object) -> WavSink:
        wav = WavSink(fmt, folder / f"said-{next(count)}.wav", paced=True)  # type: ignore[arg-type]
        if made is not None:
            made.append(wav)
        return wav

    return sink


def heard(sinks: list[WavSink], n: int) -> float:
    """Seconds of sound the ``n``th sink has taken so far (0 before it is made)."""
    return sinks[n].frames / sinks[n].fmt.rate if len(sinks) > n else 0.0


def seconds(path: Path) -> float:
    with wave.open(str(path)) as said:
        return said.getnframes() / said.getframerate()


@pytest.mark.speaker
def test_real_process_cut_short_by_the_next_score(tmp_path: Path) -> None:
    need_espeak()
    sinks: list[WavSink] = []
    speaker = EspeakSpeaker(sink=numbered_sinks(tmp_path, sinks))  # type: ignore[arg-type]
    worker = SpeechWorker(speaker)
    worker.start()
    try:
        worker.say(["Red's hand: fifteen two, fifteen four, fifteen six, and a double run of three is fourteen"], SLOW)
        wait_for(lambda: heard(sinks, 1) >= 0.5)  # half a second of it heard (not: half a second gone by)
        worker.say(["thirty-one for two"], FAST)
        assert worker.wait_idle(30)
    finally:
        worker.close()
    assert seconds(tmp_path / "said-0.wav") < 0.05  # the worker's check of the part: a moment of silence
    assert 0.5 <= seconds(tmp_path / "said-1.wav") < 3.0  # cut soon after 0.5 s, of about 8
    assert 0.3 < seconds(tmp_path / "said-2.wav") < 1.5  # the score, whole
    assert not (tmp_path / "said-3.wav").exists()


@pytest.mark.speaker
def test_real_process_on_a_missing_device_is_a_problem_and_comes_back(tmp_path: Path) -> None:
    need_espeak()
    need_aplay()
    speaker = EspeakSpeaker(NO_DEVICE)
    worker = SpeechWorker(speaker, first_retry=0.1, last_retry=0.2)
    worker.start()
    try:
        wait_for(lambda: worker.problem is not None)
        assert NO_DEVICE in (worker.problem or "")
        speaker.sink_factory = lambda fmt: AlsaSink(fmt, "null")  # the device is there again
        wait_for(lambda: worker.problem is None)
        assert worker.check() is True
    finally:
        worker.close()


def test_a_speaker_failing_while_it_speaks_stops_and_is_a_problem(worker: SpeechWorker, mock: MockSpeaker) -> None:
    worker.say(["a long count said slowly, word after word after word"], SLOW)
    wait_for(mock.speaking.is_set)
    mock.fail("unplugged (USB)")
    wait_for(lambda: worker.problem is not None)
    assert mock.said[0].whole is False and not mock.speaking.is_set()


def test_what_is_said_while_failing_is_dropped_when_said_not_when_the_thread_takes_it(mock: MockSpeaker) -> None:
    """The speaker mended and its retry due the moment after: a score said before, while it
    failed, is not said late by a thread that took it only then (on the worker's own clock,
    held still while it is said, so no retry comes before the test moves it on)."""
    now = [100.0]
    worker = SpeechWorker(mock, clock=lambda: now[0], first_retry=0.5, last_retry=0.5)
    mock.fail("unplugged (USB)")
    worker.start()
    try:
        wait_for(lambda: worker.problem is not None)
        worker.say(["fifteen two"], FAST)  # failing, and its retry not due for 0.5 s
        assert worker.dropped == 1 and not worker.busy  # dropped there and then
        mock.fail(None)
        now[0] += 1.0  # the retry is due
        wait_for(lambda: worker.problem is None)  # retried (by the thread's own check) and back
        assert worker.wait_idle(30)
        assert [s.text for s in mock.said] == []
        worker.say(["a pair is two"], FAST)  # back: said
        assert worker.wait_idle(30) and [s.text for s in mock.said] == ["a pair is two"]
        assert worker.dropped == 1
    finally:
        worker.close()


def test_what_waits_as_the_speaker_fails_is_dropped(mock: MockSpeaker) -> None:
    worker = SpeechWorker(mock, first_retry=30, last_retry=30)  # no retry within the test
    worker.start()
    try:
        worker.say(["a long count said slowly, word after word after word", "fifteen two"], SLOW)
        wait_for(mock.speaking.is_set)
        tries = mock.attempts
        mock.fail("unplugged (USB)")
        wait_for(lambda: worker.problem is not None)
        assert worker.wait_idle(30)
        assert [(s.text, s.whole) for s in mock.said] == [("a long count said slowly, word after word after word", False)]
        assert worker.dropped == 1 and mock.attempts == tries  # the second not even tried: failing, no retry due
    finally:
        worker.close()
