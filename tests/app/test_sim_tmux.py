"""The terminal simulator in a real terminal: tmux send-keys in, capture-pane out.

The acceptance games are played as a first-time player plays them: ``bash .ci/play`` (with a
journal of the test's own) in an 80x24 terminal, every card keyed, every score checked on
screen (who got it, how, and the count), no line wrapped and no scrollback left behind.
"""

from __future__ import annotations

import dataclasses
import random
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribpi.app import DEFAULT_NAMES
from cribpi.game import Event, Pegged, Phase, State, apply
from cribpi.game.simulate import random_game_events
from cribpi.rules import ACC
from cribpi.sim.terminal import status_line
from tests.sim.conftest import require

CRIBPI = Path(sys.executable).with_name("cribpi")
ROOT = Path(__file__).resolve().parents[2]


class Tmux:
    def __init__(self, command: str, columns: int = 140, rows: int = 72) -> None:
        self.name = f"cribpi-test-{uuid.uuid4().hex[:8]}"
        # A tmux server of its own (-L): a shared default server exits when another test kills
        # its last session, and a session started in that moment fails ("server exited").
        self.tmux = require("tmux")
        self.columns, self.rows = columns, rows
        subprocess.run([self.tmux, "-L", self.name, "new-session", "-d", "-s", self.name, "-x", str(columns),
                        "-y", str(rows), command], check=True)

    def send(self, *keys: str) -> None:
        subprocess.run([self.tmux, "-L", self.name, "send-keys", "-t", self.name, *keys], check=True)

    def screen(self, joined: bool = False) -> str:
        """The screen's lines (``joined``: a line the terminal wrapped as one)."""
        out = subprocess.run([self.tmux, "-L", self.name, "capture-pane", "-p", *(["-J"] if joined else []), "-t", self.name],
                             capture_output=True, text=True)
        return out.stdout

    def history(self) -> int:
        """Lines scrolled off the top so far (the terminal's scrollback)."""
        out = subprocess.run([self.tmux, "-L", self.name, "display-message", "-p", "-t", self.name, "#{history_size}"],
                             capture_output=True, text=True, check=True)
        return int(out.stdout)

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.03)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")

    def wait_change(self, before: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if screen != before:
                return screen
            time.sleep(0.03)
        raise AssertionError(f"the screen never changed from:\n{before}")

    def stable(self) -> str:
        """The screen once two captures in a row agree (no frame half drawn)."""
        screen = self.screen()
        while True:
            time.sleep(0.05)
            again = self.screen()
            if again == screen:
                return screen
            screen = again

    def alive(self) -> bool:
        return subprocess.run([self.tmux, "-L", self.name, "has-session", "-t", self.name], capture_output=True).returncode == 0

    def kill(self) -> None:
        subprocess.run([self.tmux, "-L", self.name, "kill-server"], capture_output=True)


def sim_at_80x24(args: str) -> Iterator[Tmux]:
    """``cribpi sim ARGS`` in an 80x24 terminal (a tmux session), killed when done."""
    session = Tmux(f"{CRIBPI} sim {args}; sleep 30", 80, 24)
    try:
        yield session
    finally:
        session.kill()


def claim_session(tmp_path: Path) -> Iterator[Tmux]:
    """Ann and Bob in claim mode (seed 7: Bob deals) at 80x24, with a journal of their own,
    once the cut for deal shows."""
    for tmux in sim_at_80x24(f"--db {tmp_path / 'claim.db'} --seed 7 --names Ann,Bob --mode claim"):
        tmux.wait_for(" · claim mode · ACC rules · cut for deal")
        yield tmux


@pytest.fixture
def sim(tmp_path):
    db = tmp_path / "sim.db"
    session = Tmux(f"{CRIBPI} sim --db {db} --seed 7 --names Ann,Bob; sleep 30")
    yield session, db
    session.kill()


@pytest.fixture
def first_time(tmp_path) -> Iterator[Tmux]:
    """``bash .ci/play`` at 80x24 with a journal of its own, as a newcomer starts it."""
    db = tmp_path / "play.db"
    command = f"cd {shlex.quote(str(ROOT))} && CRIBPI_DB={shlex.quote(str(db))} bash .ci/play; sleep 60"
    session = Tmux(command, 80, 24)
    yield session
    session.kill()


def lay(tmux: Tmux, card: str) -> None:
    tmux.send(card[0].lower(), card[1].lower())


def test_a_whole_deal_in_the_terminal_then_resume(sim, tmp_path):
    tmux, db = sim
    tmux.wait_for(" · count mode · ACC rules · cut for deal")
    tmux.send("Enter")
    screen = tmux.wait_for(" · count mode · ACC rules · starter card")
    assert "Ann 0  Bob 0" in screen
    lay(tmux, "6S")
    tmux.wait_for(" · count mode · ACC rules · play")
    for card in ("QH", "5C", "TD", "6D", "2C", "4H", "4S", "4D"):
        lay(tmux, card)
    tmux.wait_for(" · count mode · ACC rules · show")
    for card in ("7C", "8H", "7D", "8S"):
        lay(tmux, card)
    screen = tmux.wait_for(" · count mode · ACC rules · deal counted")
    assert ("Ann 59  Bob 2" in screen) or ("Ann 2  Bob 59" in screen)
    assert "●" in screen and ("▀" in screen or "▄" in screen)  # LEDs and the OLED are drawn
    tmux.send("C-c")
    screen = tmux.wait_for("the game is kept")
    assert " · count mode · ACC rules · deal counted" not in screen  # curses gave the terminal back as it was
    again = Tmux(f"{CRIBPI} sim --db {db}; sleep 30")
    try:
        screen = again.wait_for(" · count mode · ACC rules · deal counted")
        assert ("Ann 59  Bob 2" in screen) or ("Ann 2  Bob 59" in screen)
    finally:
        again.kill()


def test_undo_and_a_refused_card_in_the_terminal(sim):
    tmux, _ = sim
    tmux.wait_for(" · count mode · ACC rules · cut for deal")
    tmux.send("Enter")
    tmux.wait_for(" · count mode · ACC rules · starter card")
    lay(tmux, "JS")  # his heels
    screen = tmux.wait_for(" · count mode · ACC rules · play")
    assert "Ann 2" in screen or "Bob 2" in screen
    tmux.send("u")
    tmux.wait_for(" · count mode · ACC rules · starter card")
    lay(tmux, "6S")
    tmux.wait_for(" · count mode · ACC rules · play")
    lay(tmux, "6S")  # the starter again: refused with a reason
    tmux.wait_for("Not allowed")


# -- a first-time player's whole games at 80x24 ---------------------------------------------


def status_of(state: State) -> str:
    """The status line the simulator shows for ``state`` at a table with the default names."""
    return status_line(dataclasses.replace(state, names=DEFAULT_NAMES[:state.seats]))


def keys_for(event: Event) -> list[str]:
    """The keys a player presses for one event of the game (EndDeal is OK, pressed by play_game)."""
    cards = [event.card] if hasattr(event, "card") else list(getattr(event, "cards", ()))
    if cards:
        return [k for card in cards for k in (str(card)[0].lower(), str(card)[1].lower())]
    return ["g"] if event.kind == "go" else []


def check_scores(screen: str, state: State, effects: tuple[object, ...]) -> int:
    """Every score of the play on screen: who (by name), how many, why, and the count."""
    checked = 0
    names = DEFAULT_NAMES
    for effect in effects:
        if isinstance(effect, Pegged) and not effect.reason.in_show:
            who = f"{names[effect.seat]} {effect.points}"
            assert who in screen, f"{who!r} is not on the screen:\n{screen}"
            how = effect.explain.split(",")[0].split(" and ")[0]
            assert how in screen, f"{how!r} is not on the screen:\n{screen}"
            if effect.count is not None:  # a score of the play (not his heels)
                assert f"count {effect.count}" in screen or f"at {effect.count}" in screen, screen
            checked += 1
    return checked


def play_game(tmux: Tmux, players: int, seed: int) -> dict[str, int]:
    """Key a random game from its first cut to its end; returns what was checked."""
    rules = ACC.replace(players=players)
    history = list(random_game_events(random.Random(seed), rules))
    start_history = tmux.history()
    figures = {"events": 0, "scores": 0, "deals": 0}
    previous = history[0][1]
    for event, state in history[1:]:
        expected = status_of(state)
        if event.kind == "end_deal":
            screen = tmux.screen()
            while expected not in screen:
                tmux.send("Enter")
                tmux.wait_change(screen)
                screen = tmux.stable()
            figures["deals"] += 1
        else:
            tmux.send(*keys_for(event))
            screen = tmux.wait_for(expected)
        _, effects = apply(previous, event)
        # the status line can be the one before the keys (a lay that scores nothing changes
        # none of it), or drawn before the rest of its frame: the checks are retried on whole
        # frames until they pass or time runs out (generous: the cores may be busy elsewhere)
        deadline = time.monotonic() + 30
        while True:
            screen = tmux.stable()
            try:
                assert expected in screen, screen
                if state.winner is None:
                    scored = check_scores(screen, state, effects)
                else:  # the winning score gives way to who won
                    assert f"{DEFAULT_NAMES[state.winner]} wins" in screen, screen
                    scored = 0
                break
            except AssertionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        figures["scores"] += scored
        figures["events"] += 1
        assert len(tmux.screen(joined=True).splitlines()) == len(tmux.screen().splitlines())  # nothing wrapped
        assert screen.splitlines()[0].startswith("cribpi sim   journal: ")  # nothing scrolled
        previous = state
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            break
    assert previous.phase in (Phase.GAME_OVER, Phase.MATCH_OVER)
    assert tmux.history() - start_history < tmux.rows * max(figures["deals"], 1)
    figures["scrollback"] = tmux.history() - start_history
    return figures


def start_players(tmux: Tmux, players: int) -> None:
    """From the first screen: MENU, the next game's set-up, the players, start it now."""
    tmux.wait_for(" · count mode · ACC rules · cut for deal")
    tmux.send("m")
    choose(tmux, "Next game setup...")
    while f"Players: {players}" not in tmux.stable():
        choose(tmux, "Players: ")
    choose(tmux, "Start it now...")
    choose(tmux, "Yes: new game")
    tmux.wait_for("Red 0  Blue 0  Green 0 · count mode · ACC rules · cut for deal")


def choose(tmux: Tmux, label: str) -> None:
    """Move the menu's selection (g) to the item starting with ``label`` and press Enter."""
    tmux.wait_for(label)
    screen = tmux.stable()
    items = [line for line in screen.splitlines() if line.startswith(("> ", "  "))]
    selected = next(n for n, line in enumerate(items) if line.startswith("> "))
    target = next(n for n, line in enumerate(items) if line[2:].startswith(label))
    tmux.send(*["g"] * ((target - selected) % len(items)))
    tmux.wait_for(f"> {label}")
    before = tmux.stable()
    tmux.send("Enter")
    tmux.wait_change(before)


@pytest.mark.slow
def test_a_first_time_player_plays_a_two_player_game_at_80x24(first_time):
    screen = first_time.wait_for(" · count mode · ACC rules · cut for deal", timeout=60)  # .ci/play sets up first
    assert "journal: " in screen and "Ctrl-C: quit" in screen
    figures = play_game(first_time, 2, seed=3)
    assert figures["scores"] > 5 and figures["deals"] >= 4
    assert figures["scrollback"] == 0


@pytest.mark.slow
def test_a_first_time_player_plays_a_three_player_game_at_80x24(first_time):
    first_time.wait_for(" · count mode · ACC rules · cut for deal", timeout=60)
    start_players(first_time, 3)
    figures = play_game(first_time, 3, seed=5)
    assert figures["scores"] > 5 and figures["deals"] >= 3
    first_time.send("C-c")
    first_time.wait_for("game is kept in")
    quit_message = first_time.screen(joined=True)
    # the command names the journal it was given: without CRIBPI_DB, .ci/play opens the checkout's
    lines = quit_message.splitlines()
    assert "go on with it" not in quit_message  # the game was played to its end
    command = lines[lines.index("To play a new game, run:") + 1]  # on its own line: copied whole
    assert command.startswith("CRIBPI_DB=") and command.endswith("play.db bash .ci/play"), quit_message
    assert "cribpi INFO" not in quit_message  # the service's log lines stay out of the player's terminal


# -- the table's checks, keyed as players key them --------------------------------------------


@pytest.fixture
def claim_sim(tmp_path) -> Iterator[Tmux]:
    yield from claim_session(tmp_path)


def test_muggins_switched_on_from_the_menu_in_the_default_preset(claim_sim):
    tmux = claim_sim
    tmux.send("m")
    choose(tmux, "Next game setup...")
    choose(tmux, "Muggins: off")
    tmux.wait_for("> Muggins: on")
    choose(tmux, "Start it now...")
    choose(tmux, "Yes: new game")
    tmux.wait_for(" · claim mode, muggins · ACC rules · cut for deal")  # the line says muggins is on
    tmux.send("Enter")  # a random cut: Bob deals (seed 7)
    tmux.wait_for(" · claim mode, muggins · ACC rules · starter card · Bob deals")
    for card in ("KS", "5C", "TD"):  # Bob's TD makes fifteen: 2 to claim
        lay(tmux, card)
    tmux.wait_for("count 15")
    tmux.send("p", "2", "1")
    tmux.wait_for("claim: seat 2 (Bob), 1 point: Enter claims it")
    tmux.send("Enter")  # Bob claims 1 of his 2
    screen = tmux.wait_for("MUGGINS!")
    assert "Bob claimed 1 of 2" in screen
    while "Ann to play | count 15" not in (screen := tmux.stable()):
        tmux.send("Enter")
        tmux.wait_change(screen)
    tmux.send("x", "1", "1")  # Ann calls muggins for the 1 point Bob missed
    tmux.wait_for("muggins: seat 1 (Ann) calls 1 point, on Bob's claim: Enter calls it")  # whom, before the call
    tmux.send("Enter")
    screen = tmux.wait_for("muggins for 1")
    assert "Ann 1" in screen and "Ann 1  Bob 1 · claim mode, muggins · ACC rules · play" in screen


@pytest.fixture
def count_sim(tmp_path) -> Iterator[Tmux]:
    yield from sim_at_80x24(f"--db {tmp_path / 'count.db'} --seed 7 --names Ann,Bob")


def test_a_refused_go_and_a_card_moved_to_its_seat(count_sim):
    tmux = count_sim
    tmux.wait_for(" · count mode · ACC rules · cut for deal")
    tmux.send("Enter")  # a random cut: Bob deals, Ann leads (seed 7)
    tmux.wait_for(" · count mode · ACC rules · starter card · Bob deals")
    for card in ("KS", "TD"):
        lay(tmux, card)
    tmux.wait_for("count 10")
    tmux.send("g")  # Bob cannot say go at 10
    screen = tmux.wait_for("Not allowed")
    assert "cannot say go at 10" in screen and "Ann 0  Bob 0" in screen
    for card in ("QD", "5C", "6C"):  # Bob said go at 25, but nobody pressed GO: 6C went to Bob
        lay(tmux, card)
    screen = tmux.wait_for("Ann 0  Bob 2 · count mode · ACC rules · play")
    assert "thirty-one" in screen
    tmux.send("m")
    choose(tmux, "Move a card...")
    choose(tmux, "6C Bob -> Ann")
    screen = tmux.wait_for("Card moved")
    assert "6C moved from Bob to Ann" in screen and "Ann 2  Bob 0 · count mode · ACC rules · play" in screen
    tmux.send("u")  # a move is undone like any event
    screen = tmux.wait_for("took back")
    assert "Ann 0  Bob 2 · count mode · ACC rules · play" in screen


def test_a_renege_claimed_from_the_menu_takes_the_play_back_to_the_go(count_sim):
    tmux = count_sim
    tmux.wait_for(" · count mode · ACC rules · cut for deal")
    tmux.send("Enter")  # a random cut: Bob deals, Ann leads (seed 7)
    tmux.wait_for(" · count mode · ACC rules · starter card · Bob deals")
    for card in ("KS", "TC", "KD", "2C", "3D"):
        lay(tmux, card)
    tmux.wait_for("count 25")
    tmux.send("g")  # Ann says go at 25, holding 4H
    lay(tmux, "6S")  # Bob's 31, which only the false go allowed
    tmux.wait_for("Ann 0  Bob 2 · count mode · ACC rules · play")
    lay(tmux, "4H")  # Ann leads the 4H she held at 25
    screen = tmux.wait_for("Renege")
    assert "Ann said go at 25 holding 4H" in screen
    tmux.send("Enter")
    tmux.send("m")  # MENU opens on the claim
    tmux.wait_for("> Renege by Ann")
    tmux.send("Enter")
    screen = tmux.wait_for("Renege claimed")
    assert "Play back to Ann's go at 25" in screen and "6S 4H back to the hands" in screen
    assert "Ann 0  Bob 2 · count mode · ACC rules · play" in screen  # the 31 cancelled, 2 for the renege card
    tmux.send("Enter")
    lay(tmux, "4H")  # Ann plays on from the go: 29, a run of three
    tmux.wait_for("Ann 3  Bob 2 · count mode · ACC rules · play")


@pytest.fixture
def three_from_a_position(tmp_path) -> Iterator[Tmux]:
    """A three-player claim game under ACC tournament rules (muggins on), set up at Ann 100,
    Bob 110, Cat 112 with Bob to deal, journalled before ``cribpi sim`` resumes it at 80x24."""
    from cribpi.commands.sim import TABLE
    from cribpi.game import Game, Mode, NewGame
    from cribpi.game.events import Setup
    from cribpi.rules import get_rules
    from cribpi.store import Store

    db = tmp_path / "three.db"
    first = NewGame(("Ann", "Bob", "Cat"), get_rules("acc-tournament").replace(players=3), Mode.CLAIM)
    game = Game([first])
    with Store(db) as store:
        game_id = store.new_game(first, table=TABLE)
        setup = Setup((100, 110, 112), dealer=1)
        game.apply(setup)
        store.append(game_id, setup, game)
    yield from sim_at_80x24(f"--db {db}")


def test_three_players_muggins_said_on_whom_a_renege_taken_back_and_a_false_claim_of_game(three_from_a_position):
    tmux = three_from_a_position
    # three-digit scores: the set-up said shorter, and the dealer not cut off ("… · Bob dea…")
    tmux.wait_for("Ann 100  Bob 110  Cat 112 · claim, muggins · ACC tournament · Bob deals")
    before = tmux.stable()
    tmux.send("Enter")  # past "Resumed"
    tmux.wait_change(before)
    for card in ("2S", "5C", "TD"):  # the starter; Cat leads 5C, Ann's TD makes fifteen
        lay(tmux, card)
    tmux.wait_for("count 15")
    tmux.send("p", "1", "1", "Enter")  # Ann claims 1 of her 2
    tmux.wait_for("MUGGINS!")
    lay(tmux, "TH")  # Bob pairs it and claims his 2 right
    tmux.wait_for("count 25")
    tmux.send("p", "2", "2", "Enter")
    tmux.wait_for("Ann 101  Bob 112  Cat 112")
    tmux.send("x", "3", "1")  # Cat calls: both claims are open, so it must say whose
    tmux.wait_for("muggins: seat 3 (Cat) calls 1 point, on Bob or Ann, MENU asks: Enter calls it")
    tmux.send("Enter")
    screen = tmux.wait_for("Not allowed")
    assert "open to muggins" in tmux.screen(joined=True) and "MENU says whose" in tmux.screen(joined=True)
    tmux.send("m")
    tmux.wait_for("> Cat: muggins Bob 1")
    choose(tmux, "Cat: muggins Ann 1")
    tmux.wait_for("Ann 101  Bob 112  Cat 113")  # Cat takes the point Ann missed
    tmux.send("x", "3", "2")  # Bob's claim alone is open now, and it was right
    tmux.wait_for("muggins: seat 3 (Cat) calls 2 points, on Bob's claim: Enter calls it")
    tmux.send("Enter")
    screen = tmux.wait_for("Wrong muggins")
    assert "Cat called muggins wrongly on Bob's play: Bob pegs 2" in tmux.screen(joined=True)
    tmux.wait_for("Ann 101  Bob 114  Cat 113")
    tmux.send("g")  # Cat says go at 25, holding 4H
    lay(tmux, "6S")  # Ann's 31, which only the false go allowed
    tmux.wait_for("Ann laid 6S")
    tmux.send("p", "1", "2", "Enter")
    tmux.wait_for("Ann 103  Bob 114  Cat 113")
    lay(tmux, "9H")  # Bob leads the next count
    lay(tmux, "4H")  # Cat lays the 4H she held at 25
    screen = tmux.wait_for("Renege")
    assert "Cat said go at 25 holding 4H" in tmux.screen(joined=True)
    tmux.send("Enter")
    tmux.send("m")  # MENU opens on the claims of it, one for each opponent
    tmux.wait_for("> Ann: renege Cat")
    before = tmux.stable()
    tmux.send("Enter")
    tmux.wait_change(before)
    screen = tmux.wait_for("Renege claimed")
    assert "Play back to Cat's go at 25" in screen and "6S 9H 4H back to the hands" in screen
    tmux.wait_for("Ann 103  Bob 114  Cat 113")  # Ann's 31 cancelled, and 2 for the renege card
    tmux.send("Enter")
    tmux.wait_for("waiting for a card or go from Cat")  # Ann's 2 for the renege on screen; no claim is open
    tmux.send("Enter")
    tmux.wait_for("Cat to play | count 25 | starter 2S | Bob laid TH")  # back at the go
    lay(tmux, "4H")  # Cat plays on from the go: 29, nothing scored
    tmux.wait_for("count 29")
    tmux.send("p", "3", "8", "Enter")  # Cat claims 8, into the game hole: a false claim of game
    screen = tmux.wait_for("False game")
    assert "false claim of game" in tmux.screen(joined=True)
    tmux.wait_for("Ann 111  Bob 114  Cat 98")  # Ann pegs the 8 overclaimed, Cat goes back 15
