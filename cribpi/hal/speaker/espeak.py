"""The reference speaker: Debian's ``espeak-ng`` makes the sound, ``aplay`` plays it on an ALSA
device (``default``: the Pi's audio out, a USB speaker, or an I2S amplifier made the default).

Each utterance is one ``espeak-ng --stdout`` process, its text on stdin (a player's name is
never taken for an option). Its WAV stream is read here and handed to a :class:`Sink` as it
comes, so the first sample leaves within milliseconds of the text, and the speaker knows the
moment (``first_sample``, for the benchmark). :meth:`EspeakSpeaker.stop` kills both processes:
the sound stops at once, not at the end of ALSA's buffer.

Sinks: :class:`AlsaSink` (``aplay -D DEVICE``; ``null`` throws the sound away) and
:class:`WavSink` (a WAV file, optionally paced in real time as a sound card plays it: the tests'
stand-in for a card).
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import threading
import time
import wave
from collections.abc import Callable
from pathlib import Path
from typing import IO, Protocol

from cribpi.hal.speaker.base import SpeakerError, Voice

__all__ = ["EspeakSpeaker", "AlsaSink", "WavSink", "Sink", "SinkFactory", "Format", "PROGRAM", "PLAYER",
           "espeak_command", "amplitude"]

PROGRAM = "espeak-ng"
PLAYER = "aplay"
CHUNK = 65536
NICE = 5  # how much lower than the table's the speech processes' priority is
INSTALL_HINT = "apt install espeak-ng"
PLAYER_HINT = "apt install alsa-utils"


class Format(tuple[int, int, int]):
    """(rate, channels, bytes a sample) of a WAV stream."""

    @property
    def rate(self) -> int:
        return self[0]

    @property
    def channels(self) -> int:
        return self[1]

    @property
    def width(self) -> int:
        return self[2]


class Sink(Protocol):
    """Where the samples go: ``write`` as they come, ``finish`` waits until they are played,
    ``abort`` (from any thread) drops what is left at once."""

    def write(self, samples: bytes) -> None: ...

    def finish(self) -> None: ...

    def abort(self) -> None: ...


SinkFactory = Callable[[Format], Sink]


def amplitude(volume: int) -> int:
    """espeak-ng's ``-a`` (0-200, 100 its default) for a volume in percent (50: its default)."""
    return volume * 2


def espeak_command(voice: Voice, program: str = PROGRAM, *, stdout: bool = True) -> list[str]:
    """The command that says stdin's text in ``voice`` (as WAV on stdout)."""
    return [program, *(["--stdout"] if stdout else []), "-v", voice.voice, "-s", str(voice.speed),
            "-a", str(amplitude(voice.volume))]


def _stderr(proc: subprocess.Popen[bytes]) -> str:
    try:
        assert proc.stderr is not None
        lines = proc.stderr.read().decode(errors="replace").strip().splitlines()
    except (OSError, ValueError):
        return ""
    return lines[-1].strip() if lines else ""  # the last line says it (ALSA's own come first)


def _spawn(command: list[str], what: str, hint: str, **kwargs: object) -> subprocess.Popen[bytes]:
    """``command`` started, at a lower priority than the table (``NICE``): on a busy machine the
    loop that shows the screens gets the CPU first, speech a moment later."""
    try:
        proc: subprocess.Popen[bytes] = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=subprocess.PIPE,
                                                         **kwargs)  # type: ignore[call-overload]
    except FileNotFoundError:
        raise SpeakerError(f"{what} is not installed ({hint})") from None
    except OSError as exc:
        raise SpeakerError(f"{what} cannot start: {exc}") from None
    try:
        os.setpriority(os.PRIO_PROCESS, proc.pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICE))
    except OSError:
        pass  # gone already, or not allowed: it runs at the table's priority
    return proc


class AlsaSink:
    """``aplay`` on an ALSA device, fed raw samples on its stdin."""

    def __init__(self, fmt: Format, device: str = "default", player: str = PLAYER) -> None:
        self.device = device
        self.aborted = False
        bits = fmt.width * 8
        self.proc = _spawn([player, "-q", "-D", device, "-t", "raw", "-f", f"S{bits}_LE", "-r", str(fmt.rate),
                            "-c", str(fmt.channels)], player, PLAYER_HINT, stdout=subprocess.DEVNULL)

    def _failed(self) -> SpeakerError:
        self.proc.kill()
        self.proc.wait()
        why = _stderr(self.proc) or f"exit status {self.proc.returncode}"
        return SpeakerError(f"ALSA device {self.device!r}: {why}")

    def write(self, samples: bytes) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(samples)
        except (BrokenPipeError, ValueError, OSError):
            if not self.aborted:
                raise self._failed() from None

    def finish(self) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        code = self.proc.wait()
        if code != 0 and not self.aborted:
            raise self._failed()

    def abort(self) -> None:
        self.aborted = True
        self.proc.kill()


class WavSink:
    """A WAV file at ``path``; with ``paced``, written no faster than it would be played (each
    write waits until the sound before it has been heard), as a sound card takes samples."""

    def __init__(self, fmt: Format, path: str | Path, *, paced: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.fmt, self.paced, self.clock = fmt, paced, clock
        self.file = wave.open(str(path), "wb")
        self.file.setnchannels(fmt.channels)
        self.file.setsampwidth(fmt.width)
        self.file.setframerate(fmt.rate)
        self.frames = 0
        self.start: float | None = None
        self._abort = threading.Event()

    def _heard(self) -> float:
        return self.frames / self.fmt.rate

    def write(self, samples: bytes) -> None:
        if self.start is None:
            self.start = self.clock()
        frame = self.fmt.width * self.fmt.channels
        step = (self.fmt.rate // 50) * frame if self.paced else len(samples) or 1  # 20 ms at a time
        for at in range(0, len(samples), step):
            if self._abort.is_set():
                return
            if self.paced:  # like a card's buffer of about 50 ms: wait until the sound before is nearly played
                self._abort.wait(max(0.0, self.start + self._heard() - 0.05 - self.clock()))
                if self._abort.is_set():
                    return
            piece = samples[at:at + step]
            self.file.writeframes(piece)
            self.frames += len(piece) // frame

    def finish(self) -> None:
        if self.paced and self.start is not None:
            self._abort.wait(max(0.0, self.start + self._heard() - self.clock()))
        self.file.close()

    def abort(self) -> None:
        self._abort.set()


def _read(stream: IO[bytes]) -> bytes:
    """What the pipe has now (at most CHUNK bytes), waiting only for the first of them."""
    read1 = getattr(stream, "read1", None)
    return read1(CHUNK) if read1 is not None else stream.read(CHUNK)


def read_header(stream: IO[bytes]) -> tuple[Format, bytes]:
    """The format of a WAV stream and the first samples read after its header (espeak-ng's
    header gives the data's length as unknown: the stream is read to its end)."""
    data = b""
    fmt: Format | None = None
    while True:
        more = _read(stream)
        if not more:
            raise SpeakerError("espeak-ng gave no sound" + (" (its WAV header was cut short)" if data else ""))
        data += more
        if len(data) < 12:
            continue
        if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
            raise SpeakerError("espeak-ng's output is not a WAV stream")
        at = 12
        while at + 8 <= len(data):
            chunk, size = data[at:at + 4], struct.unpack_from("<I", data, at + 4)[0]
            if chunk == b"fmt " and at + 8 + 16 <= len(data):
                _, channels, rate, _, _, bits = struct.unpack_from("<HHIIHH", data, at + 8)
                fmt = Format((rate, channels, bits // 8))
            if chunk == b"data":
                if fmt is None:
                    raise SpeakerError("espeak-ng's WAV stream has no format before its samples")
                return fmt, data[at + 8:]
            at += 8 + size
            if size > 1 << 20:
                raise SpeakerError("espeak-ng's WAV header is not one this speaker reads")


class EspeakSpeaker:
    """espeak-ng through a sink (by default ``aplay -D device``). ``first_sample`` is the clock
    when the last utterance's first sample was handed to the sink (None before any)."""

    def __init__(self, device: str = "default", *, program: str = PROGRAM, player: str = PLAYER,
                 sink: SinkFactory | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.device, self.program, self.player = device, program, player
        self.sink_factory: SinkFactory = sink or (lambda fmt: AlsaSink(fmt, device, player))
        self.clock = clock
        self.first_sample: float | None = None
        self.problem: str | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()  # the cancel event of the utterance being said
        self._proc: subprocess.Popen[bytes] | None = None
        self._sink: Sink | None = None
        self._closed = False

    def check(self) -> None:
        """espeak-ng and the player are installed, and the device takes a moment of silence."""
        if self._closed:
            raise SpeakerError("the speaker is closed")
        if shutil.which(self.program) is None:
            raise SpeakerError(f"{self.program} is not installed ({INSTALL_HINT})")
        sink = self.sink_factory(Format((22050, 1, 2)))
        sink.write(bytes(441 * 2))  # 20 ms of silence
        sink.finish()

    def speak(self, text: str, voice: Voice, cancel: threading.Event | None = None) -> bool:
        if self._closed:
            raise SpeakerError("the speaker is closed")
        stop = cancel or threading.Event()
        with self._lock:
            self._stop = stop
        if stop.is_set():
            return False
        proc = _spawn(espeak_command(voice, self.program), self.program, INSTALL_HINT, stdout=subprocess.PIPE)
        sink: Sink | None = None
        finished = False
        try:
            with self._lock:
                self._proc = proc
                if stop.is_set():  # cut short while it started
                    return False
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(text.encode("utf-8"))
                proc.stdin.close()
            except BrokenPipeError:
                pass  # it failed at once: its exit status and message say why, below
            try:
                fmt, samples = read_header(proc.stdout)
            except SpeakerError as exc:
                if stop.is_set():
                    return False
                proc.wait()
                raise SpeakerError(f"{self.program}: {_stderr(proc) or exc}") from None
            sink = self.sink_factory(fmt)
            with self._lock:
                self._sink = sink
                if stop.is_set():
                    sink.abort()
                    return False
            first = True
            while samples:
                if first:
                    self.first_sample, first = self.clock(), False
                sink.write(samples)
                if stop.is_set():
                    return False
                samples = _read(proc.stdout)
            if proc.wait() != 0 and not stop.is_set():
                raise SpeakerError(f"{self.program}: {_stderr(proc) or f'exit status {proc.returncode}'}")
            finished = True
            sink.finish()
            return not stop.is_set()
        finally:
            with self._lock:
                self._proc = self._sink = None
                self._stop = threading.Event()
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
            if sink is not None and not finished:  # cut short or failed: let go of the player too
                sink.abort()
                try:
                    sink.finish()
                except (SpeakerError, OSError):
                    pass

    def stop(self) -> None:
        with self._lock:
            self._stop.set()
            if self._proc is not None and self._proc.poll() is None:
                self._proc.kill()
            if self._sink is not None:
                self._sink.abort()

    def close(self) -> None:
        self._closed = True
        self.stop()
