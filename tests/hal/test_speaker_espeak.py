"""The table's call-outs through the real espeak-ng (marked ``speaker``): each kind rendered to
WAV and checked to be speech of a sane length, and the phonemes espeak-ng makes of a set of
scores held against the ones kept here, so a changed word (ours or the screens') is caught."""

from __future__ import annotations

import array
import random
import subprocess
import wave
from pathlib import Path

import pytest

from cribpi.app import TableSettings, TableUI
from cribpi.app.speaking import Callout, callouts
from cribpi.game import Alert, AlertKind, Pegged, Reason, Where
from cribpi.hal import Action
from cribpi.hal.speaker import Voice
from cribpi.hal.speaker.doubles import speaking_time
from cribpi.hal.speaker.espeak import PROGRAM, EspeakSpeaker, WavSink, espeak_command
from speaker_rig import need_espeak
from tests.app.table_keys import game_actions

pytestmark = pytest.mark.speaker

VOICE = Voice()


def whole_game(seed: int) -> tuple[TableUI, list[Callout]]:
    """Every call-out of a whole count-mode game, as the listener makes them."""
    ui = TableUI(TableSettings(), rng=random.Random(seed))
    said: list[Callout] = []
    def handle(action: Action) -> None:
        before, seen = ui.state, len(ui.session.game.journal)
        effects = ui.handle(action)
        said.extend(callouts(ui.state, effects, before, ui.session.game.journal[seen:]))

    for action in game_actions(seed):
        while action.kind.value == "ok" and ui.screens:  # OK pages through what the screens show first
            handle(action)
        handle(action)
    assert ui.state.winner is not None
    return ui, said


def alert_callouts(ui: TableUI) -> list[Callout]:
    """An alert of each kind the issue names, and a muggins taken, on a table's state."""
    state = ui.state
    effects = [
        Alert(AlertKind.OVERCLAIM, "", seat=0, where=Where.HAND, points=4, claimed=6, other=1),
        Alert(AlertKind.MUGGINS, "", seat=1, where=Where.HAND, points=6, claimed=4),
        Alert(AlertKind.UNDERCLAIM, "", seat=1, where=Where.CRIB, points=6, claimed=4),
        Pegged(seat=0, team=0, points=2, reason=Reason.MUGGINS, items=(), score=40, note="muggins for 2"),
    ]
    return callouts(state, effects)


def samples(path: Path) -> tuple[array.array[int], int]:
    with wave.open(str(path)) as said:
        assert said.getsampwidth() == 2 and said.getnchannels() == 1
        data = array.array("h", said.readframes(said.getnframes()))
        return data, said.getframerate()


def check_speech(path: Path, text: str) -> None:
    """Sound of a sane length for ``text``, loud enough, with the pauses speech has."""
    data, rate = samples(path)
    seconds = len(data) / rate
    assert 0.3 <= seconds <= speaking_time(text, VOICE) * 1.2, (text, seconds)
    frame = rate // 50  # 20 ms
    loud = [max(abs(s) for s in data[i:i + frame]) > 1000 for i in range(0, len(data) - frame, frame)]
    voiced = sum(loud) / len(loud)
    assert 0.3 <= voiced <= 0.97, (text, voiced)  # mostly sound, never a solid tone or silence


def test_each_kind_of_callout_renders_to_speech(tmp_path: Path) -> None:
    need_espeak()
    ui, said = whole_game(seed=7)
    said += alert_callouts(ui)
    kinds = {c.kind for c in said}
    assert kinds == {"score", "show", "alert", "end"}, kinds
    chosen: dict[str, Callout] = {}
    for callout in said:  # one of each kind, and each different opening of a score or show
        key = callout.kind + ":" + callout.text.split(" is ")[0].split(":")[-1].strip().split(",")[0]
        chosen.setdefault(key, callout)
    for n, callout in enumerate(chosen.values()):
        path = tmp_path / f"{n}.wav"
        speaker = EspeakSpeaker(sink=lambda fmt: WavSink(fmt, path))
        assert speaker.speak(callout.text, VOICE) is True
        check_speech(path, callout.text)


#: espeak-ng 1.51 (Debian bookworm) -x -q -v en, lines joined with |. A different espeak-ng
#: may say a word otherwise: check the new phonemes by ear before taking them.
PHONEMES = {
    "fifteen two": "f'Ifti:n t'u:",
    "thirty-one is two": "T'3:tiw'0n Iz t'u:",
    "a pair royal is six, and one for last is seven": "a# p'e@ r'OI@L Iz s'Iks|and w'0n fO@ l'aast Iz s'Ev@n",
    "Blue: one for the go is one": "bl'u:|w'0n f3D@ g'oU Iz w,0n",
    "Red's hand: fifteen two, fifteen four, and a pair is six":
        "r'Edz h'and|f'Ifti:n t'u:|f'Ifti:n f'o@|and a# p'e@r- Iz s'Iks",
    "Red: two for his heels is two": "r'Ed|t'u: fO@ hIz h'i:lz Iz t'u:",
    "Blue's crib: fifteen two, and one for his nobs is three":
        "bl'u:z kr'Ib|f'Ifti:n t'u:|and w'0n fO@ hIz n'0bz Iz Tr'i:",
    "Blue's hand: nothing to count": "bl'u:z h'and|n'VTIN t@ k'aUnt",
    "Red: muggins for 2": "r'Ed|m'VgInz fO@ t'u:",
    "Game! Red wins 121 to 85: skunk, 3 game points":
        "g'eIm|r'Ed w'Inz w'0nh'VndrI2d@n tw'Enti w'0n tU 'eIti f'aIv|sk'VNk|Tr'i: g'eIm p'OInts",
}


def phonemes(text: str) -> str:
    command = [*espeak_command(VOICE, PROGRAM, stdout=False)[:3], "-x", "-q", text]
    out = subprocess.run(command, capture_output=True, text=True, timeout=10, check=True).stdout
    return "|".join(line.strip() for line in out.splitlines() if line.strip())


@pytest.mark.parametrize("text", PHONEMES)
def test_phonemes_of_the_scores(text: str) -> None:
    need_espeak()
    assert phonemes(text) == PHONEMES[text]


def test_the_phonemes_kept_are_the_tables_own_words() -> None:
    """The texts above are what the table says: each is a call-out a game makes (or, for the
    ones a random game may not make, one its words are built from)."""
    ui, said = whole_game(seed=7)
    texts = {c.text for c in said} | {c.text for c in alert_callouts(ui)}
    made = [t for t in PHONEMES if t in texts or t.replace("Red", "Blue") in texts or t.replace("Blue", "Red") in texts]
    assert "fifteen two" in made and any(t.startswith("Game!") or "hand:" in t for t in made)


@pytest.mark.parametrize("speed", [80, 160, 450])
def test_the_doubles_never_speak_faster_than_espeak(speed: int) -> None:
    """The sim's and the mock's speaking time is never shorter than espeak-ng's for the
    table's call-outs: a double is never kinder than the part (a test passing on the mock
    with speech that ends too soon would fail on the table)."""
    need_espeak()
    ui, said = whole_game(seed=7)
    voice = Voice(speed=speed)
    for text in sorted({c.text for c in said + alert_callouts(ui)}):
        wav = subprocess.run(espeak_command(voice), input=text.encode(), capture_output=True, timeout=10, check=True).stdout
        seconds = (len(wav) - 44) / (22050 * 2)
        assert seconds <= speaking_time(text, voice), (text, seconds, speaking_time(text, voice))
