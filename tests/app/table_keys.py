"""Helpers for the table UI tests: a table on mock parts, and keys pressed on it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from cribpi.app import TableApp, TableSettings, TableUI
from cribpi.game.simulate import random_game_events
from cribpi.hal import Action
from cribpi.hal.mock import MockParts, open_mock

Table = tuple[MockParts, TableUI, TableApp]


@contextmanager
def mock_table(settings: TableSettings | None = None, seed: int = 1) -> Iterator[Table]:
    """A started table on mock parts: presses go through gpiozero's MockFactory."""
    parts = open_mock()
    ui = TableUI(settings or TableSettings(), rng=random.Random(seed))
    app = TableApp(parts, ui)
    app.start()
    try:
        yield parts, ui, app
    finally:
        app.close()


def press(parts: MockParts, app: TableApp, kind: str, *args: object) -> None:
    """One key, pressed on its mock pin, and handled by the table."""
    parts.press(kind, *args)
    app.pump()


def card(parts: MockParts, app: TableApp, text: str) -> None:
    """A card keyed as players do: its rank key, then its suit key."""
    press(parts, app, "rank", text[0])
    press(parts, app, "suit", text[1])


def dismiss(parts: MockParts, ui: TableUI, app: TableApp) -> None:
    """OK until no screen is queued."""
    while ui.screens:
        press(parts, app, "ok")


def pick(parts: MockParts, app: TableApp, ui: TableUI, prefix: str) -> None:
    """Choose the open menu's item that starts with ``prefix``."""
    assert ui.menu is not None
    ui.menu.selected = [i for i, label in enumerate(ui.menu.screen().items) if label.startswith(prefix)][0]
    press(parts, app, "ok")


def starter(parts: MockParts, ui: TableUI, app: TableApp, text: str) -> None:
    """The cut (OK, its screens dismissed), then ``text`` keyed as the starter: the play is next."""
    press(parts, app, "ok")
    dismiss(parts, ui, app)
    card(parts, app, text)


def deal_to_the_show(parts: MockParts, ui: TableUI, app: TableApp) -> None:
    """Cut, starter 6S and the play of a known deal: the hands are next to count."""
    starter(parts, ui, app, "6S")
    for text in ("QH", "5C", "TD", "6D", "2C", "4H", "4S", "4D"):
        card(parts, app, text)
    dismiss(parts, ui, app)


def game_actions(seed: int) -> list[Action]:
    """A random whole game as a table keys it (as the table's benchmark does): the cut, whole
    cards, GO, OK."""
    events = [e for e, _ in random_game_events(random.Random(seed))]
    actions = [Action.of_card(c) for c in next(e for e in events if e.kind == "cut").cards]  # type: ignore[attr-defined]
    for event in events:
        if event.kind in ("starter", "lay"):
            actions.append(Action.of_card(event.card))  # type: ignore[attr-defined]
        elif event.kind == "crib":
            actions.extend(Action.of_card(c) for c in event.cards)  # type: ignore[attr-defined]
        elif event.kind == "go":
            actions.append(Action.parse("go"))
        elif event.kind == "end_deal":
            actions.append(Action.parse("ok"))
    return actions
