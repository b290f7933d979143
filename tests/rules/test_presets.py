"""Rule options, the named presets, their codec, and how a finished game is graded."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from cribpi.exc import RulesError
from cribpi.rules.values import value_fields
from cribpi.rules import (
    ACC,
    ACC_TOURNAMENT,
    FIVE_CARD,
    HOYLE,
    LEAFLET,
    PRESETS,
    MugginsScope,
    ResultKind,
    ResultScheme,
    Rules,
    classify_result,
    get_rules,
)
from cribpi.rules.presets import (
    OPTION_TYPES, RuleConflictError, RuleOptionError, rules_from_dict, rules_to_dict,
)


def test_acc_is_the_default() -> None:
    assert Rules() == ACC
    assert ACC.name == "acc"
    assert (ACC.game_length, ACC.players, ACC.partnerships) == (121, 2, False)
    assert ACC.crib_four_flush is False
    assert ACC.result_scheme is ResultScheme.ACC
    assert ACC.muggins is MugginsScope.OFF
    assert ACC.overclaim_penalty == 0
    assert ACC.heels_peg_out is True and ACC.five_card is False
    assert (ACC.cards_dealt, ACC.cards_held, ACC.discards_each, ACC.crib_from_pack) == (6, 4, 2, 0)


@pytest.mark.parametrize(
    ("name", "preset"),
    [("acc", ACC), ("ACC", ACC), ("hoyle", HOYLE), ("Hoyle", HOYLE), (" leaflet ", LEAFLET),
     ("LEAFLET", LEAFLET), ("five-card", FIVE_CARD), ("acc-tournament", ACC_TOURNAMENT)],
)
def test_presets_by_name_case_insensitive(name: str, preset: Rules) -> None:
    assert get_rules(name) is preset


def test_preset_registry_is_keyed_by_name() -> None:
    assert {"acc", "hoyle", "leaflet", "five-card"} <= set(PRESETS)
    assert all(rules.name == name for name, rules in PRESETS.items())


def test_unknown_preset_lists_the_accepted_names() -> None:
    with pytest.raises(RulesError) as info:
        get_rules("bogus")
    message = str(info.value)
    assert "'bogus'" in message
    for name in PRESETS:
        assert name in message
    assert isinstance(info.value, ValueError)


def test_preset_contents_follow_the_sources() -> None:
    assert HOYLE.result_scheme is ResultScheme.HOYLE and HOYLE.overclaim_penalty == 2  # 002
    assert LEAFLET.result_scheme is ResultScheme.LEAFLET  # 001
    assert ACC_TOURNAMENT.muggins is MugginsScope.ACC and ACC_TOURNAMENT.tournament
    assert FIVE_CARD.five_card and FIVE_CARD.game_length == 61
    assert (FIVE_CARD.cards_dealt, FIVE_CARD.cards_held, FIVE_CARD.discards_each) == (5, 3, 2)


def test_muggins_scopes() -> None:
    assert MugginsScope.ACC.moments == {"play", "hand", "crib"}  # ACC Rule 10: never heels
    assert MugginsScope.HOYLE.moments == {"hand", "crib"}
    assert MugginsScope.LEAFLET.moments == {"play", "hand", "crib", "heels"}
    assert MugginsScope.OFF.moments == frozenset()


def test_player_counts() -> None:
    three = Rules(players=3)
    assert (three.cards_dealt, three.cards_held, three.discards_each, three.crib_from_pack) == (5, 4, 1, 1)
    assert three.teams == 3
    four = Rules(players=4)
    assert (four.cards_dealt, four.discards_each, four.crib_from_pack, four.teams) == (5, 1, 0, 4)
    assert Rules(players=4, partnerships=True).teams == 2


@pytest.mark.parametrize(
    ("changes", "key", "value"),
    [
        ({"game_length": 100}, "game_length", 100),
        ({"players": 5}, "players", 5),
        ({"players": 1}, "players", 1),
        ({"partnerships": True}, "partnerships", True),
        ({"players": 3, "partnerships": True}, "partnerships", True),
        ({"five_card": True, "players": 4}, "five_card", True),
        ({"overclaim_penalty": -1}, "overclaim_penalty", -1),
        ({"result_scheme": "bridge"}, "result_scheme", "bridge"),
        ({"muggins": "always"}, "muggins", "always"),
    ],
)
def test_invalid_options_raise_rule_option_error(changes: dict[str, Any], key: str, value: object) -> None:
    with pytest.raises(RuleOptionError) as info:
        Rules(**changes)
    assert (info.value.key, info.value.value) == (key, value)
    assert isinstance(info.value, RulesError) and isinstance(info.value, ValueError)
    with pytest.raises(RuleOptionError):
        ACC.replace(**changes)


def test_options_that_conflict_are_told_apart_from_bad_values() -> None:
    with pytest.raises(RuleConflictError) as info:
        Rules(players=3, partnerships=True)
    assert info.value.key == "partnerships" and info.value.accepted == "4 players"
    assert str(info.value) == "partnerships need 4 players, not 3"  # no source: built in code


def test_enum_options_accept_their_values_as_text() -> None:
    as_text: dict[str, Any] = {"result_scheme": "hoyle", "muggins": "acc"}
    rules = Rules(**as_text)
    assert rules.result_scheme is ResultScheme.HOYLE and rules.muggins is MugginsScope.ACC


def test_rules_are_frozen_and_replace_copies() -> None:
    with pytest.raises(AttributeError):
        setattr(ACC, "game_length", 61)
    short = ACC.replace(game_length=61)
    assert short.game_length == 61 and ACC.game_length == 121


# -- the codec ------------------------------------------------------------------------------

VARIANTS = [*PRESETS.values(), HOYLE.replace(muggins=MugginsScope.HOYLE), ACC.replace(players=4, partnerships=True),
            ACC.replace(name="club", game_length=61, crib_four_flush=True), Rules(name="ACC", tournament=True),
            FIVE_CARD.replace(result_scheme=ResultScheme.LEAFLET, overclaim_penalty=3)]


@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_rules_to_dict_and_back_through_json(rules: Rules) -> None:
    data = json.loads(json.dumps(rules_to_dict(rules)))
    assert rules_from_dict(data) == rules


def test_rules_to_dict_writes_the_name_and_what_differs_from_the_preset() -> None:
    assert rules_to_dict(HOYLE) == {"name": "hoyle"}
    assert rules_to_dict(HOYLE.replace(muggins=MugginsScope.HOYLE)) == {"name": "hoyle", "muggins": "hoyle"}
    assert rules_to_dict(ACC.replace(name="club", game_length=61)) == {"name": "club", "game_length": 61}
    assert rules_to_dict(HOYLE, base=ACC) == {"name": "hoyle", "result_scheme": "hoyle", "overclaim_penalty": 2}


def test_the_option_types_are_the_fields_of_rules_in_order() -> None:
    assert list(OPTION_TYPES) == [name for name, _ in value_fields(Rules) if name != "name"]


def test_rules_from_dict_defaults_and_bases() -> None:
    assert rules_from_dict({}) is ACC
    assert rules_from_dict({"name": "hoyle"}) is HOYLE
    assert rules_from_dict({"base": "Hoyle", "game_length": 61}) == HOYLE.replace(game_length=61)
    assert rules_from_dict({"name": "club", "base": "leaflet"}) == LEAFLET.replace(name="club")
    assert rules_from_dict({"name": "club"}) == ACC.replace(name="club")  # a name of one's own: ACC
    assert rules_from_dict({"muggins": "ACC"}).muggins is MugginsScope.ACC  # choices in any case


@pytest.mark.parametrize(
    ("data", "key", "accepted"),
    [
        ({"colour": "red"}, "colour", "name, base, game_length"),
        ({"game_length": 100}, "game_length", "121 or 61"),
        ({"game_length": True}, "game_length", "121 or 61"),  # a bool is not a number
        ({"game_length": "121"}, "game_length", "121 or 61"),
        ({"game_length": 121.0}, "game_length", "121 or 61"),
        ({"game_length": math.nan}, "game_length", "121 or 61"),
        ({"overclaim_penalty": math.inf}, "overclaim_penalty", "0 or more"),
        ({"players": 5}, "players", "2, 3 or 4"),
        ({"partnerships": 1}, "partnerships", "true or false"),  # nor a number a bool
        ({"tournament": "yes"}, "tournament", "true or false"),
        ({"muggins": "always"}, "muggins", "off, acc, hoyle, leaflet"),
        ({"result_scheme": 2}, "result_scheme", "acc, hoyle, leaflet"),
        ({"base": "bogus"}, "base", "a rule preset: acc, acc-tournament"),
        ({"name": 5}, "name", "a name (text)"),
        ({"name": " "}, "name", "a name (text)"),
        ({"players": 3, "partnerships": True}, "partnerships", "4 players"),
    ],
)
def test_rules_from_dict_is_strict_and_names_the_key_the_value_and_what_is_accepted(
        data: dict[str, object], key: str, accepted: str) -> None:
    with pytest.raises(RuleOptionError) as info:
        rules_from_dict(data, source="cribpi.toml [game]")
    error = info.value
    assert (error.key, error.source) == (key, "cribpi.toml [game]")
    assert error.value is data[key] or error.value == data[key]
    assert error.accepted.startswith(accepted)
    assert str(error) == f"cribpi.toml [game]: {error.reason}"


# -- classify_result ------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("loser", "kind", "points"),
    [
        (120, ResultKind.WIN, 2),
        (91, ResultKind.WIN, 2),
        (90, ResultKind.SKUNK, 3),  # skunk: loser at most 90 (beaten by 31 or more)
        (61, ResultKind.SKUNK, 3),
        (60, ResultKind.DOUBLE_SKUNK, 3),  # double skunk: loser at most 60
        (0, ResultKind.DOUBLE_SKUNK, 3),
    ],
)
def test_acc_results(loser: int, kind: ResultKind, points: int) -> None:
    result = classify_result(121, loser, ACC)
    assert (result.kind, result.game_points, result.margin) == (kind, points, 121 - loser)


def test_acc_is_the_default_scheme_and_the_spread_ends_in_the_game_hole() -> None:
    # Points pegged past the game hole do not count: the spread is 121 less the loser's score.
    assert classify_result(125, 100).margin == 21
    assert classify_result(61, 40, ACC.replace(game_length=61)).margin == 21
    assert classify_result(121, 85).kind is ResultKind.SKUNK


@pytest.mark.parametrize(
    ("loser", "kind", "points"),
    [(120, ResultKind.WIN, 1), (61, ResultKind.WIN, 1), (60, ResultKind.LURCH, 2), (0, ResultKind.LURCH, 2)],
)
def test_hoyle_lurch_is_a_double_game(loser: int, kind: ResultKind, points: int) -> None:
    # 002: "If the loser fails to reach 61, he is lurched, and the other wins a double game."
    result = classify_result(121, loser, HOYLE)
    assert (result.kind, result.game_points) == (kind, points)


@pytest.mark.parametrize(
    ("loser", "kind", "points"),
    [(91, ResultKind.WIN, 1), (90, ResultKind.SKUNK, 2), (61, ResultKind.SKUNK, 2),
     (60, ResultKind.DOUBLE_SKUNK, 4)],
)
def test_leaflet_skunk_doubles_and_double_skunk_quadruples(loser: int, kind: ResultKind, points: int) -> None:
    # 001: fails to reach 91: double game; fails to reach 61: quadruple game
    result = classify_result(121, loser, LEAFLET)
    assert (result.kind, result.game_points) == (kind, points)


def test_sixty_one_point_games() -> None:
    short = ACC.replace(game_length=61)
    assert classify_result(61, 31, short).kind is ResultKind.WIN
    assert classify_result(61, 30, short).kind is ResultKind.SKUNK
    assert classify_result(61, 0, short).kind is ResultKind.SKUNK  # no double skunk at 61
    assert short.double_skunk_line is None
    assert classify_result(61, 31, FIVE_CARD).kind is ResultKind.WIN
    assert classify_result(61, 30, FIVE_CARD).kind is ResultKind.LURCH  # not yet half way
    with pytest.raises(RulesError, match="loser_score 61"):
        classify_result(61, 61, short)


@pytest.mark.parametrize(("winner", "loser"), [(120, 100), (121, 121), (121, -1), (60, 10)])
def test_impossible_results_are_refused(winner: int, loser: int) -> None:
    with pytest.raises(RulesError):
        classify_result(winner, loser, ACC)
