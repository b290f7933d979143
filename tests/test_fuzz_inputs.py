"""The table's own inputs from outside under hypothesis: configuration and layout files (TOML),
game records, and the journal's JSON (events, settings, snapshots), each given generated and
mutated text. Only the documented refusals come out (a ConfigError, a RecordError, a
JournalDamaged, a SnapshotError: never a RecursionError, a MemoryError or a bare ValueError),
and a good input read after them still reads. The controller's serial lines are fuzzed in
tests/hal/test_fuzz_serial.py. (``pytest -m slow`` runs each five times longer.)"""

from __future__ import annotations

import json
import random
import sqlite3
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from cribpi.config import Config, load_config
from cribpi.exc import ConfigError, JournalDamaged, RecordError, StoreError
from cribpi.game import Game
from cribpi.game.events import Mode
from cribpi.game.simulate import random_game_events
from cribpi.hal.layout import Layout, load_layout
from cribpi.nesting import MAX_DEPTH, TooDeep, depth_of, json_depth, loads_json, loads_toml, toml_depth
from cribpi.record import export_record, parse_record
from cribpi.rules import ACC
from cribpi.store import Store
from cribpi.store.schema import event_crc
from cribpi.store.settings import read_table_settings
from cribpi.store.snapshot import SnapshotError, decode_state, encode_state
from tests.fuzzing import fuzz, mutated, nested

ROOT = Path(__file__).parents[1]
SAMPLE = ROOT / "hardware" / "cribpi.toml"
LAYOUT = ROOT / "hardware" / "layouts" / "two-track-serpentine.toml"
EVENTS = [event for event, _ in random_game_events(random.Random(7), ACC, Mode.CLAIM, 1)]
RECORD = export_record(EVENTS, {"Event": "club night"})
STATE = Game(EVENTS[:40]).state
DEEP = st.sampled_from(["[]", "{}", "[{", "{["]).flatmap(
    lambda kinds: st.integers(MAX_DEPTH - 2, 6000).map(lambda n: (kinds, n)))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _deep_toml(kinds_and_depth: tuple[str, int]) -> str:
    kinds, depth = kinds_and_depth
    if kinds == "[]":
        return "a = " + nested("[", "]", depth)
    if kinds == "{}":
        return "a = " + nested("{b = ", "}", depth)
    opener = "[{b = " if kinds == "[{" else "{b = ["
    return "a = " + nested(opener, "}]" if kinds == "[{" else "]}", depth // 2)


# -- configuration and layout files ------------------------------------------------------------


def _config_or_refusal(path: Path) -> None:
    try:
        config = load_config(path)
    except ConfigError as exc:
        assert "\n" not in str(exc) and path.name in str(exc)
        return
    assert isinstance(config, Config)


def _config_body(folder: Path, text: str) -> None:
    path = folder / "cribpi.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _config_or_refusal(path)
    assert load_config(SAMPLE).board_layout is not None  # a good file still reads


test_any_configuration_loads_or_is_one_config_error, test_any_configuration_long = fuzz(
    text=st.one_of(mutated(SAMPLE.read_text()), DEEP.map(_deep_toml)))(_config_body)


def _layout_body(folder: Path, text: str) -> None:
    path = folder / "layout.toml"
    path.write_text(text, encoding="utf-8")
    try:
        assert isinstance(load_layout(path), Layout)
    except ConfigError as exc:
        assert "\n" not in str(exc) and "layout.toml" in str(exc)
    assert load_layout(LAYOUT).tracks == 2


test_any_layout_loads_or_is_one_config_error, test_any_layout_long = fuzz(
    text=st.one_of(mutated(LAYOUT.read_text()), DEEP.map(_deep_toml)))(_layout_body)


# -- the depth scan agrees with the parsers on what they read ----------------------------------

_TEXT = st.text(alphabet=st.sampled_from('ab[]{}"\'#\\ =,.\n\tZë'), max_size=8)
VALUES = st.recursive(st.one_of(st.integers(-5, 5), _TEXT, st.booleans()),
                      lambda inner: st.one_of(st.lists(inner, max_size=3),
                                              st.dictionaries(st.sampled_from(["a", "b c", "[x]", "d.e"]), inner, max_size=3)),
                      max_leaves=60)


def _toml_value(value: Any, literal: bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if literal and "'" not in value and "\n" not in value:
            return f"'{value}'"
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v, literal) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v, literal)}" for k, v in value.items()) + "}"


def _scan_body(value: Any, literal: bool, comment: str) -> None:
    """A document tomllib reads is read the same, or refused as too deep only if it is."""
    text = f"v = {_toml_value(value, literal)}  # {comment}\n".replace("\n  #", "  #")
    if "\n" in comment:
        text = f"v = {_toml_value(value, literal)}\n"
    data = tomllib.loads(text)
    try:
        assert loads_toml(text) == data
    except TooDeep:
        assert depth_of(data) - 1 > MAX_DEPTH  # the document's own table is no level
    as_json = json.dumps(value)
    try:
        assert loads_json(as_json) == value
    except TooDeep:
        assert depth_of(value) > MAX_DEPTH


test_the_depth_scan_reads_what_tomllib_and_json_read, test_the_depth_scan_long = fuzz(
    VALUES, st.booleans(), _TEXT)(_scan_body)


def test_the_depth_scan_skips_brackets_in_strings_and_comments() -> None:
    text = 'a = """ [[[[ \\""" {{{{ """\nb = \'\'\'[[[[\'\'\'\'\nc = "[[\\"[[" # [[[[[[\nd = \'{{{{\'\n'
    assert loads_toml(text.replace("[[[[", "[" * 100)) == tomllib.loads(text.replace("[[[[", "[" * 100))
    assert loads_toml("a = " + nested("[", "]", MAX_DEPTH - 1)) is not None
    with pytest.raises(TooDeep, match=r"nested deeper than 32 \(line 2\)"):
        loads_toml("x = 1\na = " + nested("[", "]", MAX_DEPTH + 1))
    with pytest.raises(TooDeep, match=r"nested deeper than 32;"):
        loads_toml("[" + ".".join("a" * 40) + "]")  # dotted keys: no bracket, found in what was read
    with pytest.raises(TooDeep, match=r"\(line 1\)"):
        loads_json(b'{"a": ' * 5000)


@pytest.mark.parametrize("piece", ['"""\n\\', '"""\\', "'''\\", '"\\', "'''''\n"])
def test_the_depth_scan_stays_linear_on_strings_that_never_close(piece: str) -> None:
    """400 kB of string openers that never close, ending in a lone backslash: each piece is
    scanned once (quadratic, this took minutes; a generous bound, not a benchmark)."""
    import time

    text = piece * (400_000 // len(piece)) + "\\"
    started = time.perf_counter()
    toml_depth(text, MAX_DEPTH), json_depth(text, MAX_DEPTH)
    assert time.perf_counter() - started < 5


# -- records -----------------------------------------------------------------------------------


def _record_body(text: str) -> None:
    try:
        record = parse_record(text)
    except RecordError as exc:
        assert "\n" not in str(exc)
    else:
        assert parse_record(record.text()).events == record.events
    assert parse_record(RECORD).events == EVENTS  # a good record still reads


test_any_record_reads_or_is_one_record_error, test_any_record_long = fuzz(mutated(RECORD))(_record_body)


# -- the journal's JSON: snapshots, events, settings -------------------------------------------

SNAPSHOT = encode_state(STATE)
JSON_TEXT = st.one_of(mutated(SNAPSHOT), DEEP.map(lambda kd: nested("[" if kd[0][0] == "[" else '{"a": ',
                                                                     "]" if kd[0][0] == "[" else "}", kd[1])))


def _snapshot_body(text: str) -> None:
    try:
        decode_state(text)
    except SnapshotError:
        pass
    assert decode_state(SNAPSHOT) == STATE


test_any_snapshot_reads_or_is_a_snapshot_error, test_any_snapshot_long = fuzz(JSON_TEXT)(_snapshot_body)


EVENT_ROWS = [json.dumps(event.to_dict(), ensure_ascii=False) for event in EVENTS[:12]]


def _event_row_body(text: str) -> None:
    """An event row as the journal reads it: an event, or the ValueError/TypeError that the
    journal turns into its StoreError naming the game and event (nothing else may come out)."""
    from cribpi.game import event_from_dict

    try:
        event_from_dict(loads_json(text))
    except (ValueError, TypeError):
        pass
    assert [event_from_dict(loads_json(row)) for row in EVENT_ROWS] == EVENTS[:12]


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False)
                           | st.text(max_size=5) | st.sampled_from(["5H", "Ann", "play", "claim", "count"]),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                           max_leaves=8)


def _swapped(row: str, at: int, value: Any) -> str:
    """An event row with one field's value replaced: well-formed JSON, a wrong event."""
    data = json.loads(row)
    return json.dumps({**data, list(data)[at % len(data)]: value})


test_any_event_row_reads_or_is_refused, test_any_event_row_long = fuzz(
    st.one_of(st.sampled_from(EVENT_ROWS).flatmap(mutated), JSON_TEXT,
              st.builds(_swapped, st.sampled_from(EVENT_ROWS), st.integers(0, 20), JSON_VALUES)))(_event_row_body)


def test_a_journal_holding_json_nested_5000_deep_is_damaged_not_a_crash(tmp_path: Path) -> None:
    """An event row (its checksum made to match), the games row's players, a snapshot and the
    table's settings, each 5,000 deep: the event and the games row are refused as unreadable
    (the journal's own StoreError and JournalDamaged), the snapshots passed over, the settings
    not used; nothing raises RecursionError."""
    from tests.store.store_helpers import journal

    db = tmp_path / "cribpi.db"
    with Store(db, snapshot_every=5) as store:
        game_id, _ = journal(store, EVENTS[:30], table="main")
        store.keep_table_settings("main", {"brightness": 0.5})
    deep = nested("[", "]", 5000)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE snapshots SET state=?", (deep,))
        conn.execute("UPDATE table_settings SET data=?", ('{"a": ' * 5000 + "1" + "}" * 5000,))
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        assert read_table_settings(conn, str(db), "main", version) is None
    with Store(db) as store:
        assert store.table_settings("main") is None
        assert len(store.restore(game_id).events) == 30  # the snapshots refused: replayed from the events
    with sqlite3.connect(db) as conn:
        kind = conn.execute("SELECT type FROM events WHERE game_id=? AND seq=3", (game_id,)).fetchone()[0]
        conn.execute("UPDATE events SET data=?, crc=? WHERE game_id=? AND seq=3",
                     (deep, event_crc(game_id, 3, kind, deep), game_id))
        conn.execute("UPDATE games SET players=?", (deep,))
    with Store(db) as store:
        with pytest.raises(StoreError, match=r"event 3 cannot be read: nested deeper than 32 \(line 1\)"):
            store.load(game_id)
        with pytest.raises(JournalDamaged, match=r"players cannot be read \(nested deeper than 32"):
            store.games()


def test_a_credentials_file_nested_5000_deep_is_one_config_error(tmp_path: Path) -> None:
    """The room's credentials.json, as `cribpi director` reads it (a RecursionError before)."""
    from cribpi.tournament.director.room import read_credentials

    path = tmp_path / "credentials.json"
    path.write_text('{"t1": ' * 5000 + '"pw"' + "}" * 5000)
    with pytest.raises(ConfigError, match=r"credentials.json: not valid JSON \(nested deeper than 2 \(line 1\)"):
        read_credentials(path)
    path.write_text('{"t1": "pw"}')
    assert read_credentials(path) == {"t1": "pw"}
