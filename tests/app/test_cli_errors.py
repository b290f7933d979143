"""Bad set-ups end with one clear line and exit code 2, and change nothing."""

import subprocess
import sys

import pytest


def cribpi(*args, stdin=subprocess.DEVNULL):
    return subprocess.run([sys.executable, "-m", "cribpi", *map(str, args)], capture_output=True,
                          text=True, stdin=stdin, timeout=30)


@pytest.mark.parametrize("body, named", [
    (b'layout = "."\n', "layout"),
    (b"\xff\xfe backend = 'pi'\n", "UTF-8"),
    (b'backend = "toaster"\n', "backend"),
    (b'db = ""\n', "db"),
    (b'layout = "missing.toml"\n', "missing.toml"),
])
def test_broken_configs(tmp_path, body, named):
    config = tmp_path / "cribpi.toml"
    config.write_bytes(body)
    done = cribpi("run", "--config", config, "--backend", "mock")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and str(config.name) in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cribpi.toml"]


def test_sim_without_a_terminal_says_so():
    done = cribpi("sim", "--db", "/nonexistent/never.db")
    assert done.returncode == 2 and "terminal" in done.stderr and "Traceback" not in done.stderr


def test_stats_never_turns_an_empty_file_into_a_journal(tmp_path):
    empty = tmp_path / "e.db"
    empty.write_bytes(b"")
    done = cribpi("stats", "--db", empty)
    assert done.returncode == 2 and "no game journal" in done.stderr
    assert empty.stat().st_size == 0


def test_render_errors_name_the_record(tmp_path):
    bad = tmp_path / "bad.crib"
    bad.write_text("[Players \"A\"]\nPlay: ZZ\n")
    done = cribpi("render", "--record", bad, "--out", tmp_path / "out")
    assert done.returncode == 2 and "bad.crib" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_an_unwritable_output_is_one_line_not_a_traceback(tmp_path):
    record = tmp_path / "r.crib"
    record.write_text('[Players "A" "B"]\n[Dealer "A"]\nStarter: 5H\n')
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "cribpi", "replay", str(record)], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=30)
    assert done.returncode != 0 and "Traceback" not in done.stderr


def test_export_lists_and_writes_a_game_that_replays(tmp_path):
    import random

    from cribpi.app import TableSettings, TableUI
    from cribpi.hal import Action
    from cribpi.store import Store

    db = tmp_path / "j.db"
    with Store(db) as store:
        ui = TableUI(TableSettings(names=("Ann", "Bob")), store=store, rng=random.Random(4))
        ui.handle(Action.parse("ok"))
        for card in ("6S", "QH", "5C", "TD", "6D"):
            ui.handle(Action.of_card(card))
    listing = cribpi("export", "--db", db, "--list")
    assert listing.returncode == 0 and "Ann, Bob" in listing.stdout and "open" in listing.stdout
    exported = cribpi("export", "--db", db)
    assert exported.returncode == 0 and "Play: QH 5C TD 6D" in exported.stdout
    record = tmp_path / "game.crib"
    record.write_text(exported.stdout)
    replayed = cribpi("replay", record)
    assert replayed.returncode == 0, replayed.stderr
    missing = cribpi("export", "--db", tmp_path / "none.db")
    assert missing.returncode == 2 and not (tmp_path / "none.db").exists()
