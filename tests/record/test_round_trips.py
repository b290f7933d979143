"""Writing records: random games of every kind round-trip, the writer's own lines, the tags
it writes, and the event lists it refuses."""

from __future__ import annotations

import random

import pytest

from cribpi.exc import CribpiError, RulesError
from cribpi.game import Claim, Discard, Event, Game, Lay, Misdeal, Mode, NewGame, Penalty, Starter, Undo
from cribpi.game.simulate import random_game_events
from cribpi.record import RecordWriteError, export_record, parse_record
from cribpi.record.tags import _TAG_BY_OPTION
from cribpi.rules import ACC, FIVE_CARD, HOYLE, LEAFLET, Card, MugginsScope, ResultScheme, Rules
from cribpi.rules.presets import OPTION_TYPES

MUGGINS = ACC.replace(muggins=MugginsScope.ACC)

CONFIGS: dict[str, tuple[Rules, Mode, int]] = {
    "2p count": (ACC, Mode.COUNT, 1),
    "2p claim": (ACC, Mode.CLAIM, 1),
    "2p board match": (ACC, Mode.BOARD, 3),
    "2p claim muggins match": (MUGGINS, Mode.CLAIM, 3),
    "3p claim muggins": (MUGGINS.replace(players=3), Mode.CLAIM, 1),
    "3p count": (ACC.replace(players=3), Mode.COUNT, 1),
    "4p count": (ACC.replace(players=4), Mode.COUNT, 1),
    "4p board": (ACC.replace(players=4), Mode.BOARD, 1),
    "4p partners claim muggins": (MUGGINS.replace(players=4, partnerships=True), Mode.CLAIM, 1),
    "hoyle claim": (HOYLE.replace(muggins=MugginsScope.HOYLE), Mode.CLAIM, 1),
    "leaflet claim heels muggins": (LEAFLET.replace(muggins=MugginsScope.LEAFLET), Mode.CLAIM, 1),
    "five-card claim match": (FIVE_CARD, Mode.CLAIM, 3),
    "custom 61": (ACC.replace(name="club", game_length=61, crib_four_flush=True, heels_peg_out=False), Mode.CLAIM, 1),
}


def random_events(seed: int, rules: Rules, mode: Mode, match: int) -> list[Event]:
    return [event for event, _ in random_game_events(random.Random(seed), rules, mode, match)]


def assert_round_trip(events: list[Event]) -> str:
    text = export_record(events)
    parsed = parse_record(text).events
    if parsed != events:
        first = next(i for i, (a, b) in enumerate(zip(parsed, events)) if a != b) if len(parsed) == len(events) else min(len(parsed), len(events))
        pytest.fail(f"event {first}: {events[first:first + 1]} came back as {parsed[first:first + 1]}\n{text}")
    return text


# -- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("seed", range(3))
def test_random_games_round_trip(config: str, seed: int) -> None:
    rules, mode, match = CONFIGS[config]
    assert_round_trip(random_events(seed, rules, mode, match))


def test_muggins_and_claims_appear_in_the_round_trips() -> None:
    kinds = set()
    for seed in range(3):
        text = assert_round_trip(random_events(seed, *CONFIGS["2p claim muggins match"]))
        kinds |= {line.split()[0] for line in text.splitlines() if line}
    assert {"Muggins", "Show", "Play:", "Crib:", "Starter:", "Next"} <= kinds
    assert "=" in text


def insert_irregularities(events: list[Event], rng: random.Random) -> list[Event]:
    """Penalties and misdeals at random places, kept only where the engine accepts them."""
    out = list(events)
    for _ in range(12):
        at = rng.randrange(1, len(out))
        extra: Event = rng.choice([Penalty(rng.randrange(2), rng.choice([-1, 1, 2]), rng.choice(["renege", 'said "go" wrongly', "exposed card; {oops}"])), Misdeal()])
        trial = out[:at] + [extra] + out[at:]
        try:
            Game(trial)
        except CribpiError:
            continue
        out = trial
    return out


@pytest.mark.parametrize("seed", range(4))
def test_penalties_and_misdeals_round_trip(seed: int) -> None:
    events = insert_irregularities(random_events(seed, *CONFIGS["2p claim muggins match"]), random.Random(seed))
    text = assert_round_trip(events)
    assert "Penalty" in text


def test_hand_cards_and_discards_round_trip() -> None:
    cards = Card.parse
    events: list[Event] = [
        NewGame(("Mary Ann", "crib"), MUGGINS, Mode.CLAIM, first_dealer=1, review=True),
        Discard(0, (cards("KS"), cards("QH"))),
        Starter(cards("JD")), Claim(1, 1),  # his heels under-claimed
        Lay(0, cards("5C")), Claim(0, 0),
    ]
    text = assert_round_trip(events)
    assert '[Players "Mary Ann" "crib"]' in text
    assert 'Discard "Mary Ann": KS QH' in text
    assert "Starter: JD=1" in text


# -- what the writer refuses ------------------------------------------------------------------


def test_undo_is_not_exported_use_the_events_in_force() -> None:
    game = Game(random_events(0, ACC, Mode.COUNT, 1)[:12])
    game.apply(Undo(2))
    assert parse_record(export_record(game.events)).events == game.events
    with pytest.raises(RecordWriteError) as info:
        export_record(game.journal)
    assert info.value.event == len(game.journal) and info.value.refusal is None


def test_export_refuses_events_the_engine_refuses() -> None:
    with pytest.raises(RecordWriteError) as info:
        export_record([NewGame(("A", "B"), first_dealer=0), Lay(0, Card.parse("5H"))])
    assert info.value.event == 2 and isinstance(info.value.refusal, RulesError)
    with pytest.raises(RecordWriteError) as info:
        export_record([])
    assert info.value.event == 1


def test_export_refuses_what_a_record_cannot_carry() -> None:
    with pytest.raises(RecordWriteError) as info:
        export_record([NewGame(("A", "B"))], {"Not a word": "x"})
    assert info.value.event is None
    with pytest.raises(RecordWriteError):
        export_record([NewGame(("A", "B"))], {"Event": "two\nlines"})


# -- tags -------------------------------------------------------------------------------------


def test_free_tags_are_kept_and_game_tags_come_from_the_event() -> None:
    events = random_events(1, *CONFIGS["2p count"])
    tags = {"Event": 'Club "night"', "Date": "2026-11-22", "Table": "3", "Players": "ignored"}
    record = parse_record(export_record(events, tags))
    assert record.tags["Event"] == 'Club "night"'
    assert record.tags["Table"] == "3"
    assert record.tags["Players"] == "Ann, Ben"
    again = parse_record(record.text())
    assert (again.tags, again.events) == (record.tags, record.events)


def test_every_rule_option_but_the_players_has_a_tag() -> None:
    assert set(_TAG_BY_OPTION) == set(OPTION_TYPES) - {"players"}


@pytest.mark.parametrize("rules", [
    HOYLE.replace(game_length=61, crib_four_flush=True, heels_peg_out=False, tournament=True),
    FIVE_CARD.replace(result_scheme=ResultScheme.LEAFLET, muggins=MugginsScope.LEAFLET, overclaim_penalty=5),
    ACC.replace(name="Hoyle"), ACC.replace(name="club night", players=4, partnerships=True),
], ids=repr)
def test_rules_tags_round_trip(rules: Rules) -> None:
    names = ("A", "B", "C", "D")[:rules.players]
    first = parse_record(export_record([NewGame(names, rules, first_dealer=0)])).events[0]
    assert isinstance(first, NewGame) and first.rules == rules


def test_rule_tags_write_only_what_differs_from_the_preset() -> None:
    text = export_record([NewGame(("A", "B"), HOYLE.replace(muggins=MugginsScope.HOYLE))])
    assert text.splitlines()[:4] == ['[Players "A" "B"]', '[Rules "hoyle"]', '[Muggins "hoyle"]', '[Mode "count"]']
    text = export_record([NewGame(("A", "B"), ACC.replace(name="club", tournament=True))])
    assert '[Rules "club"]\n[Base "acc"]\n[Tournament "yes"]' in text


def test_hand_written_tags() -> None:
    text = """
    [Players "Alice, Bob, Carol, Dave"]   ; one quoted list also works
    [Rules "ACC"]
    [Partnerships "yes"]
    [Muggins "acc"]
    [Game "61"]
    [Mode "claim"]
    [Match "3"]
    [Dealer "bob"]
    """
    first = parse_record(text).events[0]
    assert first == NewGame(("Alice", "Bob", "Carol", "Dave"),
                            ACC.replace(players=4, partnerships=True, muggins=MugginsScope.ACC, game_length=61),
                            Mode.CLAIM, 3, 1)
