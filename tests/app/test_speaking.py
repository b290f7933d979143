"""The table's call-outs: the same words as its screens, in the order they are shown, with
names where someone else could have scored; scores only or everything; off under a tournament
preset; hushed by UNDO, MENU and an undo; a failing speaker shown like a part, the table going on."""

from __future__ import annotations

import dataclasses
import random

import pytest

from table_keys import card, deal_to_the_show, dismiss, game_actions, mock_table, press, starter
from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.app.speaking import (
    EVERYTHING, SCORES, Announcer, SpeechSettings, attach_speaker, callouts, speech_settings,
)
from cribpi.config import SpeechConfig
from cribpi.daemon.table import guarded_app
from cribpi.game import Phase
from cribpi.hal import Action
from cribpi.hal.mock import open_mock
from cribpi.hal.speaker import Voice
from cribpi.hal.speaker.doubles import MockSpeaker
from cribpi.rules.speech import spoken_items
from cribpi.views.model import AlertScreen, ScoreScreen, ScreenModel, ShowScreen
from tests.hal.speaker_rig import wait_for


class Recorder:
    """A worker that keeps each batch it is given (and each hush) instead of speaking."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.hushes = 0

    def say(self, texts: list[str], voice: Voice, *, cut: bool = True) -> None:
        self.batches.append(list(texts))

    def hush(self) -> None:
        self.hushes += 1

    @property
    def said(self) -> list[str]:
        return [text for batch in self.batches for text in batch]


def listening(app: TableApp, settings: SpeechSettings = SpeechSettings()) -> Recorder:
    recorder = Recorder()
    announcer = Announcer(recorder, lambda: settings)  # type: ignore[arg-type]
    announcer.before = app.ui.state
    app.subscribe(announcer)
    return recorder


def words_of(screen: ScreenModel) -> str:
    """The words a screen shows for a score: its reason, a hand's count as it is counted."""
    if isinstance(screen, ScoreScreen):
        return ", ".join(screen.reasons)
    if isinstance(screen, ShowScreen):
        return spoken_items(screen.items)
    assert isinstance(screen, AlertScreen)
    return screen.lines[0]


def test_a_deal_is_said_in_the_screens_words_and_order() -> None:
    with mock_table() as (parts, ui, app):
        recorder = listening(app)
        said_with: list[tuple[list[str], list[ScreenModel]]] = []

        def key(kind: str, *args: object) -> None:
            before = len(recorder.batches)
            press(parts, app, kind, *args)
            if len(recorder.batches) > before:
                said_with.append((recorder.batches[-1], list(ui.screens)))

        key("ok")
        dismiss(parts, ui, app)
        for text in ("6S", "QH", "5C", "TD", "6D", "2C", "4H", "4S", "4D", "KH", "5S", "5D", "JC"):
            key("rank", text[0])
            key("suit", text[1])
    assert recorder.said == [
        "fifteen two", "thirty-one is two", "a pair is two", "a pair royal is six, and one for last is seven",
        "Blue's hand: nothing to count",
        "Red's hand: fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten, and a pair is twelve, "
        "and a run of three is fifteen, and a run of three is eighteen, and a run of three is twenty-one, "
        "and a run of three is twenty-four",
        "Red's crib: fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten",
    ]
    for batch, screens in said_with:  # each said as the screens queued by the same key show it
        shown = [s for s in screens if isinstance(s, (ScoreScreen, ShowScreen))]
        assert len(batch) == len(shown)
        for text, screen in zip(batch, shown):
            assert text.endswith(words_of(screen)), (text, screen)


def test_names_are_said_when_someone_else_could_have_scored() -> None:
    with mock_table() as (parts, ui, app):
        recorder = listening(app)
        starter(parts, ui, app, "JS")  # the starter: a jack is the dealer's two for his heels
        dealer = ui.state.names[ui.state.deal.dealer]  # type: ignore[union-attr]
        assert recorder.said == [f"{dealer}: two for his heels is two"]  # as its screen says it
        for text in ("KH", "KD"):
            card(parts, app, text)
        assert recorder.said[-1] == "a pair is two"  # made by the card its player just laid
        for text in ("9C", "AS"):  # count 30: the next player cannot go
            card(parts, app, text)
        press(parts, app, "go")
        press(parts, app, "go")
        last = ui.state.names[ui.state.deal.played[-1][0]]  # type: ignore[union-attr]
        assert recorder.said[-1] == f"{last}: one for the go is one"


def test_scores_only_leaves_alerts_and_the_game_end_unsaid() -> None:
    effects_said: dict[str, list[str]] = {}
    for say in (SCORES, EVERYTHING):
        with mock_table(TableSettings(), seed=3) as (parts, ui, app):
            recorder = listening(app, SpeechSettings(say=say))
            play_a_whole_game(app, ui, seed=3)
            effects_said[say] = recorder.said
    ends = [t for t in effects_said[EVERYTHING] if t.startswith("Game!")]
    assert len(ends) == 1 and " wins " in ends[0] and "-" not in ends[0].split(":")[0]
    assert not any(t.startswith("Game!") for t in effects_said[SCORES])
    assert [t for t in effects_said[EVERYTHING] if t in effects_said[SCORES]] == effects_said[SCORES]


def test_the_end_of_a_game_is_said_as_its_screen_says_it() -> None:
    with mock_table(TableSettings(), seed=5) as (parts, ui, app):
        recorder = listening(app)
        play_a_whole_game(app, ui, seed=5)
        record = ui.state.games[-1]
    end = recorder.said[-1]
    winner, loser = record.scores[record.winner], max(s for t, s in enumerate(record.scores) if t != record.winner)
    assert end.startswith(f"Game! {ui.state.team_name(record.winner)} wins {winner} to {loser}: {record.result.kind.value}")


def play_a_whole_game(app: TableApp, ui: TableUI, seed: int) -> None:
    """A random game keyed as the table's benchmark keys it (whole cards, GO, OK)."""
    for action in game_actions(seed):
        while action.kind.value == "ok" and ui.screens:
            app.handle(action)
        app.handle(action)
    assert ui.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER)


def test_off_under_a_tournament_preset_unless_configured_on() -> None:
    with mock_table(TableSettings(rules="acc-tournament")) as (parts, ui, app):
        assert speech_settings(SpeechConfig(), ui.state).on is False
        assert speech_settings(SpeechConfig(enabled=True), ui.state).on is True
    with mock_table() as (parts, ui, app):
        assert speech_settings(SpeechConfig(), ui.state).on is True
        assert speech_settings(SpeechConfig(enabled=False), ui.state).on is False


def test_speech_off_says_nothing() -> None:
    with mock_table() as (parts, ui, app):
        recorder = listening(app, SpeechSettings(on=False))
        deal_to_the_show(parts, ui, app)
    assert recorder.batches == []


def test_callouts_of_nothing_are_none() -> None:
    with mock_table() as (parts, ui, app):
        assert callouts(ui.state, ()) == []


# --- on the parts: the worker, the keys, a failing speaker --------------------------------


@pytest.fixture
def spoken_table():  # type: ignore[no-untyped-def]
    parts = open_mock()
    speaker = MockSpeaker()
    ui = TableUI(TableSettings(), rng=random.Random(1))
    app, guard = guarded_app(parts, ui)
    stop = attach_speaker(app, speaker, SpeechConfig(voice=Voice(speed=120)), guard.checked)
    app.start()
    yield parts, ui, app, guard, speaker
    stop()
    app.close()


def test_undo_and_menu_keys_stop_the_utterance(spoken_table) -> None:  # type: ignore[no-untyped-def]
    parts, ui, app, guard, speaker = spoken_table
    deal_to_the_show(parts, ui, app)
    worker = guard.checked[-1]
    for key in ("undo", "menu"):
        worker.hush()
        assert worker.wait_idle(30)
        speaker.said.clear()
        card(parts, app, "KH")
        card(parts, app, "5S")
        card(parts, app, "5D")
        card(parts, app, "JC")  # the crib counted: a long count to say
        wait_for(speaker.speaking.is_set)
        parts.press(key)  # hushed on the key's own thread, before the loop has it
        wait_for(lambda: not speaker.speaking.is_set())
        assert worker.wait_idle(30)  # the speaker marks the utterance cut only after it stops speaking
        assert [s.whole for s in speaker.said] == [False]
        assert speaker.said[0].text.startswith("Red's crib: fifteen two")
        app.pump()
        while ui.menu is not None:
            press(parts, app, "menu")
        dismiss(parts, ui, app)
        if ui.state.phase is not Phase.SHOW:
            press(parts, app, "undo")  # take the crib back to count it again


def test_a_new_score_cuts_short_the_one_being_said(spoken_table) -> None:  # type: ignore[no-untyped-def]
    parts, ui, app, guard, speaker = spoken_table
    starter(parts, ui, app, "6S")
    card(parts, app, "5H")
    card(parts, app, "TD")  # fifteen two
    wait_for(speaker.speaking.is_set)
    card(parts, app, "TC")  # a pair: the table has moved on
    wait_for(lambda: len(speaker.said) == 2)
    assert [(s.text, s.whole) for s in speaker.said[:1]] == [("fifteen two", False)]
    assert speaker.said[1].text == "a pair is two"


def test_a_failing_speaker_is_shown_retried_and_the_table_goes_on(spoken_table) -> None:  # type: ignore[no-untyped-def]
    parts, ui, app, guard, speaker = spoken_table
    speaker.fail("espeak-ng is not installed (apt install espeak-ng)")
    starter(parts, ui, app, "6S")
    card(parts, app, "5H")
    card(parts, app, "TD")  # fifteen two: the speaker fails to say it
    wait_for(lambda: guard.problems() != ())
    assert guard.problems() == ("speaker: espeak-ng is not installed (apt install espeak-ng)",)
    assert guard.check() is True  # the problem opened: the table redraws, showing it
    app.publish((), ())
    assert ui.state.scores != (0, 0)  # the score stands
    card(parts, app, "TC")  # and the table goes on
    assert ui.state.deal is not None and len(ui.state.deal.played) == 3
    speaker.fail(None)
    wait_for(lambda: guard.problems() == ())  # retried by itself until it answers
    card(parts, app, "6C")  # thirty-one: said again
    wait_for(lambda: any(s.text == "thirty-one is two" for s in speaker.said))


def test_a_score_whose_reason_does_not_say_the_points_says_them_first() -> None:
    from cribpi.game import Pegged, Reason

    with mock_table() as (parts, ui, app):
        state = ui.state
        said = [c.text for c in callouts(state, (
            Pegged(seat=1, team=1, points=2, reason=Reason.PENALTY, items=(), score=2, note="exposed card"),
            Pegged(seat=0, team=0, points=-2, reason=Reason.PENALTY, items=(), score=0, note="overpeg"),
            Pegged(seat=0, team=0, points=2, reason=Reason.MUGGINS, items=(), score=2, note="muggins for 2"),
        ))]
    assert said == ["Blue pegs two: exposed card", "Red loses two: overpeg", "Red: muggins for 2"]


# --- the menu ------------------------------------------------------------------------------


def test_the_speech_choices_are_in_next_game_setup_and_heard_at_once(spoken_table) -> None:  # type: ignore[no-untyped-def]
    from table_keys import pick

    parts, ui, app, guard, speaker = spoken_table
    press(parts, app, "menu")
    pick(parts, app, ui, "Next game setup")
    pick(parts, app, ui, "Speech...")
    assert ui.menu is not None and ui.menu.title == "Speech"
    assert ui.menu.screen().items == ("Speech: auto", "Says: as set", "Volume: as set", "Voice: as set",
                                      "Speed: as set", "Back")
    pick(parts, app, ui, "Volume")
    pick(parts, app, ui, "Voice")
    pick(parts, app, ui, "Speed")
    pick(parts, app, ui, "Speed")
    assert ui.menu.screen().items[2:5] == ("Volume: 25", "Voice: en", "Speed: 140")
    press(parts, app, "menu")
    press(parts, app, "ok")
    dismiss(parts, ui, app)
    card(parts, app, "6S")
    card(parts, app, "5H")
    card(parts, app, "TD")  # fifteen two, in the voice chosen
    wait_for(lambda: bool(speaker.said))
    assert speaker.said[-1].voice == Voice(volume=25, voice="en", speed=140)
    press(parts, app, "menu")
    pick(parts, app, ui, "Next game setup")
    pick(parts, app, ui, "Speech...")
    pick(parts, app, ui, "Speech")  # auto -> on
    pick(parts, app, ui, "Speech")  # on -> off
    assert ui.menu.screen().items[0] == "Speech: off"
    press(parts, app, "menu")
    said = len(speaker.said)
    card(parts, app, "TC")  # a pair: not said
    assert guard.checked[-1].wait_idle(30)  # had it been given to the worker, it would be said by now
    assert len(speaker.said) == said


def test_no_speech_choices_without_a_speaker() -> None:
    from table_keys import pick

    with mock_table() as (parts, ui, app):
        press(parts, app, "menu")
        pick(parts, app, ui, "Next game setup")
        assert ui.menu is not None and not any(label.startswith("Speech") for label in ui.menu.screen().items)


def test_the_menus_choices_win_over_the_configuration_and_are_kept() -> None:
    from cribpi.app.settings import SPEECH_SAY, kept_data, with_kept
    from cribpi.config import SPEECH_SAY as CONFIGURED

    assert SPEECH_SAY == CONFIGURED
    chosen = TableSettings(speech=False, speech_say="scores", speech_volume=75, speech_voice="en-us", speech_speed=180)
    back, problems = with_kept(TableSettings(), kept_data(chosen))
    assert problems == [] and back == chosen
    with mock_table() as (parts, ui, app):
        said = speech_settings(SpeechConfig(enabled=True, voice=Voice(volume=10)), ui.state, chosen)
        assert (said.on, said.say, said.voice) == (False, "scores", Voice(volume=75, voice="en-us", speed=180))
        assert speech_settings(SpeechConfig(), ui.state, TableSettings(speech_volume=60)).voice.volume == 60
    _, problems = with_kept(TableSettings(), {"speech_volume": 500, "speech_say": "all"})
    assert len(problems) == 2


def test_a_failing_speaker_is_not_shown_while_speech_is_off() -> None:
    parts = open_mock()
    speaker = MockSpeaker()
    speaker.fail("espeak-ng is not installed (apt install espeak-ng)")
    ui = TableUI(TableSettings(rules="acc-tournament"), rng=random.Random(1))
    app, guard = guarded_app(parts, ui)
    stop = attach_speaker(app, speaker, SpeechConfig(), guard.checked)
    app.start()
    try:
        worker = guard.checked[-1]
        wait_for(lambda: worker.fault is not None)  # it is failing: tried and retried all the same
        assert guard.problems() == ()  # but a quiet (tournament) table is not told
        ui.change_settings(lambda s: dataclasses.replace(s, speech=True))
        assert guard.problems() == ("speaker: espeak-ng is not installed (apt install espeak-ng)",)
    finally:
        stop()
        app.close()


@pytest.mark.parametrize("seed", [11, 12])
def test_a_whole_game_says_every_score_in_the_screens_words_and_order(seed: int) -> None:
    """Key by key through a whole count-mode game: each batch said is the score and show
    screens that key queued, one for one and in order (the winning key's screens give way to
    the game's own screen: its scores are said, then the end)."""
    with mock_table(TableSettings(), seed=seed) as (parts, ui, app):
        recorder = listening(app, SpeechSettings(say=SCORES))
        pairs: list[tuple[list[str], list[ScreenModel]]] = []
        original = app.handle

        def handle(action: Action) -> object:
            before = len(recorder.batches)
            effects = original(action)
            if len(recorder.batches) > before:
                pairs.append((recorder.batches[-1], list(ui.screens)))
            return effects

        app.handle = handle  # type: ignore[method-assign]
        play_a_whole_game(app, ui, seed=seed)
    assert len(pairs) > 20
    for batch, screens in pairs[:-1]:
        shown = [s for s in screens if isinstance(s, (ScoreScreen, ShowScreen))]
        assert [text.endswith(words_of(s)) for text, s in zip(batch, shown)] == [True] * len(batch) == [True] * len(shown)


def test_a_hand_claimed_short_says_what_was_claimed_as_its_screen_does() -> None:
    from cribpi.game import Pegged, Reason
    from cribpi.rules import ScoreItem, parse_cards

    items = (ScoreItem("fifteen", parse_cards("7C 8D"), 2), ScoreItem("pair", parse_cards("8D 8H"), 2))
    with mock_table() as (parts, ui, app):
        state = ui.state
        said = [c.text for c in callouts(state, (
            Pegged(seat=0, team=0, points=2, reason=Reason.HAND, items=items, score=2),))]
    assert said == ["Red's hand: fifteen two, and a pair is four, claimed two"]
