"""Whole games played on the reference build's keys only: the firmware's key names (its
KEYMAP) tapped one after another, as a player at the table would, reading the table (the OLED's
model) to decide the next key.

Two keypads run the same games: :class:`KeysInProcess` turns each tap into the controller's
``KD``/``KU`` lines and the host's :class:`~cribpi.hal.controller.keys.KeyEvents` (fast, no VM),
and the firmware test presses the keys on the matrix of the real firmware under the MicroPython
unix port (tests/firmware/test_keys_play.py).
"""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.game import Phase, expected
from cribpi.game.queries import claimable
from cribpi.hal import Action, Parts
from cribpi.hal.controller import ControllerPart
from cribpi.hal.controller.keys import KeyEvents
from cribpi.hal.protocol import Line
from cribpi.hal.sim import SimDisplay
from cribpi.rules import Card
from cribpi.views.model import AlertScreen, ScoreScreen
from tests.firmware.rig import key_pins

OVER = (Phase.GAME_OVER, Phase.MATCH_OVER)
SUITS = "CDHS"

__all__ = ["KeysInProcess", "KeysOnController", "Player", "board_game", "claim_game", "fixes_game", "three_muggins"]  # the suit key of each seat, for PEG and MUGGINS


class KeysInProcess:
    """A keypad whose taps become the host's actions without a controller (the lines the
    firmware sends for a tap: KD, then KU)."""

    def __init__(self, settings: TableSettings | None = None) -> None:
        self.ui = TableUI(settings or TableSettings(), rng=random.Random(7))
        self.events = KeyEvents()
        self.taps: list[str] = []

    def tap(self, *names: str) -> None:
        for name in names:
            self.taps.append(name)
            for verb in ("KD", "KU"):
                action = self.events.action(Line(1, verb, (name,)))
                if action is not None:
                    self.ui.handle(action)


HOLD_S = 0.04  # a tap: down at least this long (the firmware debounces 20 ms), until its action has come
LET_GO_S = 0.02  # up this long after its KU, before the next tap


class KeysOnController:
    """A table whose only input is a controller running the real firmware (``pico``: the unix
    port behind a pty, or the rp2 port in an emulated RP2040; ``part``: the host's controller
    backend on it): each tap holds the key down on the matrix until its action has come
    through the serial link, then lets it go. The table shows on a simulated OLED and on the
    firmware's strips. ``close`` closes the part and the Pico."""

    def __init__(self, pico: Any, part: ControllerPart, settings: TableSettings | None = None,
                 patience_s: float = 5.0) -> None:
        self.pico, self.part, self.patience_s = pico, part, patience_s
        self.arrived: queue.SimpleQueue[Action] = queue.SimpleQueue()
        self.ui = TableUI(settings or TableSettings(), rng=random.Random(7))
        self.display = SimDisplay()
        self.app = TableApp(Parts(self.part, self.part, (self.display,)), self.ui)
        self.taps: list[str] = []
        self.pico.wait_for(lambda: self.part.link.hello is not None and self.part.problem is None,
                           what="the handshake")
        self.part.start(self.arrived.put)
        self.app.publish((), ())
        self.expect = KeyEvents()  # the action each tap must bring, as the host maps the key

    def tap(self, *names: str) -> None:
        for name in names:
            self.taps.append(name)
            wanted = [a for verb in ("KD", "KU") if (a := self.expect.action(Line(1, verb, (name,)))) is not None]
            link = self.part.link
            before = link._next_event  # the number the next event from the controller gets
            self.pico.press(key_pins(name))
            time.sleep(HOLD_S)
            self.pico.wait_for(lambda: link._next_event != before, what=f"{name}'s KD")
            down = link._next_event
            if name != "undo":  # undo acts when let go (held, it is undo_long)
                got = self._next(name)
            self.pico.press()
            if name == "undo":
                got = self._next(name)
            else:  # its KU has come: the next tap of the same key is a press of its own
                self.pico.wait_for(lambda: link._next_event != down, what=f"{name}'s KU")
            time.sleep(LET_GO_S)
            assert [got] == wanted, f"key {name!r} brought {got}, not {wanted}"
            self.app.handle(got)

    def _next(self, name: str) -> Action:
        try:
            return self.arrived.get(timeout=self.patience_s)
        except queue.Empty:
            raise AssertionError(f"key {name!r} brought no action; firmware: {self.pico.stderr()}") from None

    def close(self) -> None:
        self.part.close()
        self.pico.close()


class Player:
    """The moves of a game in key taps on ``keys`` (anything with ``tap(*names)`` and ``ui``)."""

    def __init__(self, keys: KeysInProcess | object) -> None:
        self.keys = keys
        self.zeros = 0  # claims of 0 made
        self.tap: Callable[..., None] = keys.tap  # type: ignore[attr-defined]

    @property
    def ui(self) -> TableUI:
        return self.keys.ui  # type: ignore[attr-defined, no-any-return]

    # -- menus -----------------------------------------------------------------------------

    def choose(self, prefix: str) -> None:
        """To the open menu's item that starts with ``prefix`` the short way round (GO moves
        down, UNDO up; the menu wraps), then OK."""
        menu = self.ui.menu
        assert menu is not None, "no menu is open"
        items = menu.screen().items
        found = [i for i, label in enumerate(items) if label.startswith(prefix)]
        assert found, f"no menu item {prefix!r} in {items}"
        down = (found[0] - menu.selected) % len(items)
        for _ in range(down if down <= len(items) - down else len(items) - down):
            self.tap("go" if down <= len(items) - down else "undo")
        assert self.ui.menu is not None and self.ui.menu.screen().items[self.ui.menu.selected].startswith(prefix)
        self.tap("ok")

    def set_item(self, prefix: str, wanted: str) -> None:
        """OK on the item ``prefix`` until it reads ``wanted`` (a setting that cycles)."""
        for _ in range(8):
            menu = self.ui.menu
            assert menu is not None
            label = menu.screen().items[menu.selected]
            if label.startswith(prefix) and label == wanted:
                return
            if not label.startswith(prefix):
                self.choose(prefix)
                continue
            self.tap("ok")
        raise AssertionError(f"{prefix!r} never read {wanted!r}")

    def new_game(self, **setup: str) -> None:
        """MENU > Next game setup: each ``setup`` item (``Mode="Mode: board"``) as wanted, then
        Start it now > Yes."""
        self.tap("menu")
        self.choose("Next game setup")
        for prefix, wanted in setup.items():
            self.set_item(f"{prefix}:", wanted)
        self.choose("Start it now")
        if self.ui.menu is not None:
            self.choose("Yes")
        assert self.ui.menu is None and self.ui.state.mode.value in " ".join(setup.values())

    # -- cards and pegs --------------------------------------------------------------------

    def card(self, text: str) -> None:
        card = Card.parse(text)
        self.tap(card.rank.symbol, card.suit.symbol)

    def dismiss(self) -> None:
        """OK until no score or alert waits."""
        for _ in range(40):
            if not self.ui.screens:
                return
            self.tap("ok")
        raise AssertionError(f"screens never cleared: {self.ui.screens}")

    def points(self, n: int) -> None:
        """Rank keys adding up to ``n``: tens, then the rest (A is 1)."""
        while n > 0:
            step = min(n, 10)
            self.tap({10: "T", 1: "A"}.get(step, str(step)))
            n -= step

    def peg(self, seat: int, n: int) -> None:
        """PEG, the seat's suit key (unless PEG starts on it), the points, OK."""
        self.tap("peg")
        if self.ui.pegkeys.seat != seat:
            self.tap(SUITS[seat])
        self.points(n)
        self.tap("ok")
        assert not self.ui.pegkeys.open, self.ui.screen()

    def muggins(self, caller: int, n: int) -> None:
        self.tap("muggins", SUITS[caller])
        self.points(n)
        self.tap("ok")

    def claim_open(self, under: dict[str, int] | None = None) -> bool:
        """Claim the score the table waits for (its true points, less ``under[where]``: an
        under-claim); False when no claim is waited for."""
        state = self.ui.state
        want = expected(state)
        if want.actions != ("claim",) or want.seat is None:
            return False
        moment = claimable(state, want.seat)
        assert moment is not None
        n = moment.points - (under or {}).pop(moment.where.value, 0)
        if n:
            self.peg(want.seat, n)
            return True
        self.dismiss()
        self.zeros += 1
        if self.zeros == 1:  # the first claim of 0 through PEG: it starts on the seat asked
            self.tap("peg")
            assert self.ui.pegkeys.seat == want.seat and "OK for 0" in self.ui.screen().hint, self.ui.screen()
        self.tap("ok")  # OK alone: a claim of 0
        if self.ui.claims.tally == (want.seat, 0):
            assert self.ui.screen().hint.startswith("OK claims 0"), self.ui.screen()
            self.tap("ok")  # the OLED asked "OK claims 0": yes
        assert self.ui.claims.tally is None and not self.ui.pegkeys.open
        return True

    def claim_play(self) -> None:
        """After a card: the player of it claims what it scored (nothing to key when 0: that
        claim closes when the seat lays again)."""
        deal = self.ui.state.deal
        if deal is None or not deal.unclaimed:
            return
        seat = deal.played[-1][0]
        moment = claimable(self.ui.state, seat)
        if moment is not None and moment.points and moment in deal.unclaimed:
            self.peg(seat, moment.points)

    def play(self, hands: Sequence[Sequence[str]]) -> None:
        """The play: each turn lays that seat's first planned card that fits, else says GO;
        the scores are claimed as they are made."""
        held = [list(h) for h in hands]
        for _ in range(40):
            state = self.ui.state
            deal = state.deal
            if state.phase is not Phase.PLAY or deal is None:
                return
            if deal.turn is None:
                if not self.claim_open():
                    return
                continue
            count = sum(min(c.rank, 10) for c in deal.count) if deal.count else 0
            fits = [c for c in held[deal.turn] if count + min(Card.parse(c).rank, 10) <= 31]
            if fits:
                held[deal.turn].remove(fits[0])
                self.card(fits[0])
                self.claim_play()
            else:
                self.dismiss()
                self.tap("go")
        raise AssertionError("the play never ended")


def alerts(ui: TableUI) -> list[AlertScreen]:
    return [s for s in ui.screens if isinstance(s, AlertScreen)]


def board_game(player: Player) -> None:
    """A board-mode game of 61 on the keys alone: set up in the menu, the cut keyed, each
    deal's scores pegged by their players, a rank taken back with UNDO, one refused key."""
    ui = player.ui
    player.new_game(Mode="Mode: board", Game="Game: 61")
    player.card("AC")  # the cut: Ann's card, then Bob's
    player.card("KD")
    player.dismiss()
    assert ui.state.phase is Phase.BOARD
    deals = [((1, 2), (0, 3), (1, 10), (0, 24), (0, 6)), ((0, 4), (1, 6), (0, 12), (1, 8), (1, 2)),
             ((1, 5), (0, 3), (1, 8), (0, 12))]
    for number, pegs in enumerate(deals):
        for seat, n in pegs:
            player.peg(seat, n)
        if number == 0:  # a slip taken back: PEG, Bob, 7, UNDO, 5, OK pegs 5
            player.tap("peg", "D", "7", "undo", "5")
            assert ui.screen().entry == "5"
            player.tap("ok")
            player.tap("peg", "D", "go")  # GO means nothing here: refused, the entry stays
            assert alerts(ui) and "go does nothing while a peg is keyed" in alerts(ui)[0].lines[0]
            player.tap("undo", "undo", "undo")  # the refusal, the seat, the entry
            assert not ui.pegkeys.open
        if ui.state.phase in OVER:
            break
        player.dismiss()
        player.tap("ok")  # the deal is pegged: the next one
    assert ui.state.phase in OVER and ui.state.scores[0] == 61, ui.state.scores


#: Two deals of a claim-mode game of 61 with muggins on: Ann (♣) cuts low and deals; Bob holds
#: 29 in the first deal; Ann under-claims her hand by 2 and Bob takes them; Ann's 29 in the
#: second deal, counted first as she is the pone, wins the game.
CLAIM_DEALS = (
    ("5S", (("4H", "6H", "4D", "6D"), ("5H", "5D", "5C", "JS")), ("2C", "3C", "7H", "8S")),
    ("5H", (("5D", "5C", "5S", "JH"), ("9C", "9D", "KS", "QD")), ("2D", "3D", "7C", "8C")),
)


def claim_game(player: Player) -> None:
    ui = player.ui
    player.new_game(Mode="Mode: claim", Muggins="Muggins: on", Game="Game: 61")
    player.card("AC")
    player.card("KD")
    player.dismiss()
    muggins_taken = False
    for starter, hands, crib in CLAIM_DEALS:
        player.card(starter)
        player.dismiss()
        player.play(hands)
        under = {"hand": 2} if not muggins_taken else {}
        while ui.state.phase is Phase.SHOW:
            deal = ui.state.deal
            if deal is not None and deal.pending is None and len(deal.crib) < 4 and "crib" in expected(ui.state).actions:
                for text in crib:
                    player.card(text)
                continue
            dealer = deal.dealer if deal else 0
            before = ui.state.scores
            if not player.claim_open(under if deal and deal.pending and deal.pending.seat == dealer else None):
                break
            if not muggins_taken and not under:  # the dealer's hand was under-claimed: muggins
                caller = 1 - dealer
                missed = ui.state.deal.missed if ui.state.deal else ()
                assert [m.missed for m in missed] == [2], missed
                player.muggins(caller, 2)
                assert ui.state.scores[caller] == before[caller] + 2, (before, ui.state.scores)
                assert ui.screens[0] == ScoreScreen(ui.state.names[caller], 2, ("muggins for 2",)), ui.screens
                muggins_taken = True
        if ui.state.phase in OVER:
            break
        player.dismiss()
        player.tap("ok")  # the deal is counted: the next one
    assert muggins_taken
    assert ui.state.phase in OVER and ui.state.scores[0] >= 61 and ui.state.winner == 0, ui.state.scores



def fixes_game(player: Player) -> None:
    """The judge's actions on the keys: a card keyed for the wrong player moved to the one who
    laid it (MENU, Move a card), and a penalty pegged (MENU, Penalty: who, how many, why)."""
    ui = player.ui
    player.card("AC")
    player.card("KD")
    player.dismiss()
    player.card("5S")  # the starter
    player.dismiss()
    names = ui.state.names
    for text in ("TC", "JD", "5C", "4C"):  # Ann said go at 25 and nobody keyed it: 4C went to her
        player.card(text)
    player.dismiss()
    assert ui.state.deal is not None and ui.state.deal.played[-1] == (0, Card.parse("4C"))
    player.tap("menu")
    player.choose("Move a card")
    player.choose(f"4C {names[0]} -> {names[1]}")
    assert ui.menu is None and ui.state.deal.played[-1] == (1, Card.parse("4C")), ui.state.deal.played
    player.dismiss()
    before = ui.state.scores
    player.tap("menu")
    player.choose("Penalty")
    player.set_item("Pegs:", f"Pegs: {names[1]}")
    player.set_item("Points:", "Points: +4")
    player.set_item("For:", "For: exposed card")
    player.choose("Peg the penalty")
    assert ui.menu is None and ui.state.scores[1] == before[1] + 4, (before, ui.state.scores)


def three_muggins(player: Player) -> None:
    """Three players: two opponents under-claim in the play, and the third calls muggins on the
    keys; the call waits for MENU to say whose claim it is on (each opponent is offered)."""
    ui = player.ui
    player.new_game(Players="Players: 3", Mode="Mode: claim", Muggins="Muggins: on")
    for text in ("AC", "KD", "QH"):  # the cut: Ann deals, Bob leads
        player.card(text)
    player.dismiss()
    player.card("KS")
    names = ui.state.names
    player.card("5H")  # Bob
    player.card("5C")  # Cy pairs it: claims 1 of 2
    player.peg(2, 1)
    player.card("5D")  # Ann: fifteen and a pair royal, 8: claims 2
    player.peg(0, 2)
    player.dismiss()
    assert sorted(m.missed for m in ui.state.deal.missed) == [1, 6]
    before = ui.state.scores
    player.tap("muggins", "D", "2", "ok")  # Bob calls 2: on whose claim?
    assert ui.screens and "MENU says whose claim" in ui.screens[0].lines[0], ui.screens
    player.dismiss()
    assert ui.screen().hint.startswith("MENU: whose claim it is on")
    player.tap("menu")
    assert [i for i in ui.menu.screen().items if "muggins" in i] == [f"{names[1]}: muggins {names[0]} 2",
                                                                     f"{names[1]}: muggins {names[2]} 2"]
    player.choose(f"{names[1]}: muggins {names[2]}")
    assert not ui.pegkeys.open and ui.state.scores[1] == before[1] + 1  # at most what Cy missed
