"""The table says its scores aloud: a listener that turns each update into call-outs for the
speaker part.

The words are the screens' own: each call-out is made from the screen the OLED shows for the
same effect (:func:`cribpi.views.table.effect_screens` and :func:`~cribpi.views.table.game_over_screen`),
and a hand's count from the same :func:`~cribpi.rules.speech.spoken_items` that makes every
score's explanation, so what is said and what is shown never differ:

* a score as it is made: the screen's reason ("fifteen two", "thirty-one for two", "one for
  the go"), with the player's name first when someone else could have made it (every score
  but one made by the card its player just laid): "Blue: one for the go";
* each hand and the crib in the order of the show, with its total ("Red's hand: fifteen two,
  fifteen four, and a pair is six"; a hand of nothing too: "Blue's hand: nothing to count");
  heels and nobs are scores and items like the others;
* with ``everything``: alerts (renege, overclaim, muggins...) as their screen's title and
  sentence, and the end of a game or match as its screen says it ("Game! Red wins 121 to 85: skunk").

Speech is off the loop's thread (:class:`~cribpi.hal.speaker.SpeechWorker`); a new batch of
call-outs cuts short the one being said (the table has moved on), an undo or a key (UNDO,
MENU: :class:`HushingInputs`) stops it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from cribpi.app.listeners import Update
from cribpi.app.loop import TableApp
from cribpi.app.settings import TableSettings
from cribpi.config import SPEECH_SAY, SpeechConfig
from cribpi.game import Effect, Event, GameOver, Lay, MatchOver, Reason, State, Undo
from cribpi.hal import Action, InputSource, Kind
from cribpi.hal.base import Deliver
from cribpi.hal.speaker import Speaker, SpeakerError, SpeechWorker, Voice
from cribpi.rules.speech import number_words, spoken_items
from cribpi.views.model import AlertScreen, ScoreScreen, ShowScreen
from cribpi.views.table import effect_screens, game_over_screen, seat_label

__all__ = ["Callout", "callouts", "Announcer", "HushingInputs", "SpeechSettings", "attach_speaker", "speech_settings", "SCORES", "EVERYTHING",
           "SAY_CHOICES", "HUSH_KEYS", "spoken"]

SCORES, EVERYTHING = SPEECH_SAY  # scores (hands and crib too) only; and alerts, game and match ends
SAY_CHOICES = SPEECH_SAY
KINDS = {SCORES: frozenset({"score", "show"}), EVERYTHING: frozenset({"score", "show", "alert", "end"})}
HUSH_KEYS = (Kind.UNDO, Kind.UNDO_LONG, Kind.MENU)
_NOT_SAID = ("OK:", "last:", "games ", "spread ")  # a game's screen: keys, and figures for the eye


@dataclass(frozen=True)
class Callout:
    """One thing to say: ``kind`` is ``score``, ``show``, ``alert`` or ``end``."""

    kind: str
    text: str


@dataclass(frozen=True)
class SpeechSettings:
    """Whether the table speaks, what it says (``scores`` or ``everything``) and in what voice."""

    on: bool = True
    say: str = EVERYTHING
    voice: Voice = Voice()


def spoken(text: str) -> str:
    """A screen's words as espeak-ng should read them: ``121-85`` is "121 to 85", ``&`` "and"."""
    return re.sub(r"(\d)-(\d)", r"\1 to \2", text).replace(" & ", " and ")


def callouts(state: State, effects: Sequence[Effect], before: State | None = None,
             events: Iterable[Event] = ()) -> list[Callout]:
    """What the table says for ``effects`` (of ``events``, which took ``before`` to ``state``),
    in the order the screens show them."""
    ending = [e for e in effects if isinstance(e, (GameOver, MatchOver))]
    scoring = [e for e in effects if not isinstance(e, (GameOver, MatchOver))]
    laid_by = {seat_label(state, e.seat) for e in events if isinstance(e, Lay)}
    out: list[Callout] = []
    for screen in effect_screens(state, scoring, before):
        if isinstance(screen, ScoreScreen):
            out.append(Callout("score", _score(screen, named=screen.who not in laid_by)))
        elif isinstance(screen, ShowScreen):
            out.append(Callout("show", _show(screen)))
        elif isinstance(screen, AlertScreen):
            out.append(Callout("alert", spoken(f"{screen.title.rstrip('!')}! {screen.lines[0]}"
                                               if screen.lines else screen.title)))
    if ending and state.games:
        screen = game_over_screen(state)
        said = [line.rstrip(",") for line in screen.lines if not line.startswith(_NOT_SAID)]
        out.append(Callout("end", spoken(f"{screen.title.capitalize()} " + ", ".join(said))))
    return out


def _score(screen: ScoreScreen, named: bool) -> str:
    """The screen's reason; one that does not say the points (a peg by hand, a penalty's
    reason) is said after them: "Blue pegs two: exposed card"."""
    reason, points = ", ".join(screen.reasons), abs(screen.points)
    if reason and re.search(rf"\b({number_words(points)}|{points})\b", reason):
        return spoken(f"{screen.who}: {reason}" if named else reason)
    pegs = f"{screen.who} {'pegs' if screen.points >= 0 else 'loses'} {number_words(points)}"
    return spoken(pegs if reason in ("", Reason.PEG.value) else f"{pegs}: {reason}")


def _show(screen: ShowScreen) -> str:
    who, _, what = screen.title.rpartition(" ")
    text = f"{who}'s {what}: {spoken_items(screen.items)}"
    if screen.claimed is not None:
        text += f", claimed {number_words(screen.claimed)}"  # as the OLED shows it
    return spoken(text)


class Announcer:
    """The listener: says each update's call-outs as ``settings()`` has it now (the menu may
    change them between two updates). A batch cuts short what is being said; an undo hushes."""

    def __init__(self, worker: SpeechWorker, settings: Callable[[], SpeechSettings]) -> None:
        self.worker = worker
        self.settings = settings
        self.before: State | None = None  # the table as the last update left it

    def __call__(self, update: Update) -> None:
        before, self.before = self.before, update.state
        if not update.effects and not update.events:
            return
        settings = self.settings()
        if not settings.on:
            return
        if any(isinstance(e, Undo) for e in update.events):
            self.worker.hush()  # the table went back: what was being said is no longer so
            return
        kinds = KINDS[settings.say]
        texts = [c.text for c in callouts(update.state, update.effects, before, update.events) if c.kind in kinds]
        if texts:
            self.worker.say(texts, settings.voice)


class HushingInputs:
    """The table's inputs, with UNDO and MENU stopping the speech as they are pressed (on the
    input's own thread, before the loop has the key)."""

    def __init__(self, inputs: InputSource, hush: Callable[[], None]) -> None:
        self.inputs = inputs
        self.hush = hush

    def start(self, deliver: Deliver) -> None:
        def delivered(action: Action) -> None:
            if action.kind in HUSH_KEYS:
                self.hush()
            deliver(action)

        self.inputs.start(delivered)

    def close(self) -> None:
        self.inputs.close()


def speech_settings(config: SpeechConfig, state: State, table: TableSettings | None = None) -> SpeechSettings:
    """How the table speaks now: as chosen in the menu (``table``), else as configured; on or
    off, unless either says, on at a casual table and off under a tournament preset (a quiet
    room: the game in progress's rules)."""
    table = table or TableSettings()
    on = table.speech if table.speech is not None else config.enabled
    voice = config.voice
    try:
        voice = Voice(volume=_chosen(table.speech_volume, voice.volume), voice=_chosen(table.speech_voice, voice.voice),
                      speed=_chosen(table.speech_speed, voice.speed))
    except SpeakerError:  # a kept choice this speaker refuses: as configured
        pass
    return SpeechSettings(on if on is not None else not state.rules.tournament, table.speech_say or config.say, voice)


T = TypeVar("T")


def _chosen(choice: T | None, configured: T) -> T:
    return configured if choice is None else choice


def attach_speaker(app: TableApp, speaker: Speaker | None, config: SpeechConfig = SpeechConfig(),
                   checked: list[Any] | None = None) -> Callable[[], None]:
    """Make ``app`` speak through ``speaker`` (nothing without one): the listener, UNDO and
    MENU hushing it, and its worker's problem shown like a part's. With ``checked`` (the
    daemon's guard's list) the guard shows the problem and redraws as it clears; without, the
    worker asks the loop to redraw. Returns what stops it (call before closing the parts)."""
    if speaker is None:
        return lambda: None

    def redraw() -> None:
        app.mailbox.put(lambda: app.publish((), ()))

    def settings() -> SpeechSettings:
        return speech_settings(config, app.ui.state, app.ui.settings)

    # a failing speaker is shown only while speech is on: a quiet tournament table is not nagged
    worker = SpeechWorker(speaker, on_change=None if checked is not None else redraw, wanted=lambda: settings().on)
    app.ui.settings = dataclasses.replace(app.ui.settings, speaker=True)  # the menu offers the speech choices
    announcer = Announcer(worker, settings)
    announcer.before = app.ui.state
    app.subscribe(announcer)
    app.parts.inputs = HushingInputs(app.parts.inputs, worker.hush)
    if checked is not None:
        checked.append(worker)
    worker.start()
    return worker.close
