"""Speech never in the way: input -> screen with speech on and off, and how soon a score's
call-out is heard after the key press that made it.

Targets (issue 23): input -> screen p99 with speech on stays where it is with speech off (the
presses of ``bench_table.py``: whole random games on the mock backend, every score said by the
real espeak-ng, a new score cutting short the last); a score's call-out starts within 150 ms of
its key press, measured to the first audio sample handed to the sink (espeak-ng's sound into a
WAV file, and into aplay on ALSA's ``null`` device).

    python benchmarks/bench_speech.py [--games 5] [--callouts 40]

Needs espeak-ng (and aplay for the ALSA figure): ``apt install espeak-ng alsa-utils``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_table import _presses, _replayable  # noqa: E402  (the table benchmark's presses)

from cribpi.app import TableApp, TableSettings, TableUI  # noqa: E402
from cribpi.app.speaking import SpeechSettings, attach_speaker  # noqa: E402
from cribpi.config import SpeechConfig  # noqa: E402
from cribpi.hal.mock import open_mock  # noqa: E402
from cribpi.hal.speaker import Voice  # noqa: E402
from cribpi.hal.speaker.espeak import AlsaSink, EspeakSpeaker, WavSink  # noqa: E402

TARGET_MS = 150.0
CONFIG = SpeechConfig(enabled=True, voice=Voice())  # every score and alert, at the table's speed


def _p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def input_to_screen(seeds: range, speaker: Callable[[], EspeakSpeaker] | None, pace: float = 0.0) -> list[float]:
    """Milliseconds from each press to the LED frame and OLED image, over the whole games of ``seeds``
    (as bench_table.py), with the table speaking through ``speaker()`` when given; ``pace``
    seconds between presses (0: back to back, every score cutting the last short at once)."""
    samples: list[float] = []
    for seed in seeds:
        parts = open_mock()
        ui = TableUI(TableSettings(), rng=random.Random(seed))
        app = TableApp(parts, ui)
        stop = attach_speaker(app, speaker() if speaker else None, CONFIG)
        app.start()
        for action in _presses(ui, _replayable(ui, seed)):
            start = time.perf_counter()
            app.queue(action)
            app.pump()
            samples.append((time.perf_counter() - start) * 1000)
            if pace:
                time.sleep(pace)
        stop()
        app.close()
    return samples


def callout_start(count: int, sink: str, folder: Path) -> list[float]:
    """Milliseconds from a scoring key press to the first sample of its call-out at the sink,
    for ``count`` scores of random games (each heard alone: the last is hushed before the next)."""
    made = {"file": lambda fmt: WavSink(fmt, folder / "said.wav"), "alsa": lambda fmt: AlsaSink(fmt, "null")}[sink]
    samples: list[float] = []
    seed = 100
    while len(samples) < count:
        parts = open_mock()
        ui = TableUI(TableSettings(), rng=random.Random(seed))
        app = TableApp(parts, ui)
        speaker = EspeakSpeaker(sink=made, clock=time.perf_counter)
        stop = attach_speaker(app, speaker, CONFIG)
        app.start()
        worker = app.listeners[-1].worker  # type: ignore[attr-defined]
        worker.wait_idle(5)  # its first check of the part done
        for action in _presses(ui, _replayable(ui, seed)):
            speaker.first_sample = None
            start = time.perf_counter()
            app.queue(action)
            app.pump()
            if not worker.busy:
                continue  # nothing to say for this key
            end = time.monotonic() + 2
            while speaker.first_sample is None and time.monotonic() < end:
                time.sleep(0.0005)
            if speaker.first_sample is None:
                raise SystemExit(f"no sound within 2 s of a score: {worker.problem}")
            samples.append((speaker.first_sample - start) * 1000)
            worker.hush()
            worker.wait_idle(5)
            if len(samples) >= count:
                break
        stop()
        app.close()
        seed += 1
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5, help="whole games per run of input -> screen")
    parser.add_argument("--callouts", type=int, default=40, help="scores timed to their first sample, per sink")
    parser.add_argument("--pace-ms", type=float, default=0.0,
                        help="time between presses (0, the default: back to back, as bench_table.py; 300 is a brisk player)")
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        raise SystemExit("espeak-ng is not installed (apt install espeak-ng)")
    print(f"speech: {SpeechSettings(voice=CONFIG.voice).voice}")
    off: list[float] = []
    on: list[float] = []
    pace = args.pace_ms / 1000
    for game in range(args.games):  # a game each in turn, so a busy moment of the machine falls on both
        off += input_to_screen(range(game, game + 1), None, pace)
        on += input_to_screen(range(game, game + 1), lambda: EspeakSpeaker(sink=lambda fmt: AlsaSink(fmt, "null")), pace)
    paced = f", {args.pace_ms:.0f} ms between presses" if pace else ", presses back to back"
    print(f"input -> LED frame + OLED image (mock backend{paced}), {len(off)} presses each:")
    for label, samples in (("speech off", off), ("speech on (espeak-ng, aplay -D null)", on)):
        print(f"  {label:<38} median {statistics.median(samples):.2f} ms   p99 {_p(samples, 0.99):.2f} ms"
              f"   max {max(samples):.2f} ms")
    print(f"  p99 on / p99 off: {_p(on, 0.99) / _p(off, 0.99):.2f}")
    with tempfile.TemporaryDirectory() as folder:
        sinks = ["file"] + (["alsa"] if shutil.which("aplay") else [])
        for sink in sinks:
            samples = callout_start(args.callouts, sink, Path(folder))
            where = "a WAV file" if sink == "file" else "aplay -D null"
            print(f"key press -> first sample of its call-out at the sink ({where}), {len(samples)} scores:")
            print(f"  median {statistics.median(samples):.1f} ms   p99 {_p(samples, 0.99):.1f} ms   max {max(samples):.1f} ms"
                  f"   (target <= {TARGET_MS:.0f} ms: {'met' if max(samples) <= TARGET_MS else 'NOT met'})")


if __name__ == "__main__":
    main()
