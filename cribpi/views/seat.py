"""Where the players of a tournament table sit this round, for its OLED: the round the
director seated, who plays whom and each player's seat colour (the colour of the track that
player pegs on), as ``Round 2: Ann v Bob`` / ``Ann, you are Red`` / ``Bob, you are Blue``;
partners, who share a track, as ``Ann & Cy, you are Red``.
A table the round leaves empty says so."""

from __future__ import annotations

from collections.abc import Sequence

from cribpi.views.model import MessageScreen

__all__ = ["seat_screen"]


def seat_screen(round_number: int, table: str, players: Sequence[str], colours: Sequence[str],
                games: int | None = None, playoff: bool = False) -> MessageScreen:
    """The screen a table shows when the director seats a round (OK puts it away)."""
    title = f"Round {round_number}"
    if not players:
        return MessageScreen((f"No match at table {table} this round.",), title)
    length = (f"best of {games}" if playoff else f"{games} game{'' if games == 1 else 's'}") if games else ""
    sides: dict[str, list[str]] = {}  # partners (seats 1 and 3, 2 and 4) share their side's track
    for name, colour in zip(players, colours):
        sides.setdefault(colour, []).append(name)
    lines = [f"{title}: {' v '.join(' & '.join(names) for names in sides.values())}"]
    lines += [f"{' & '.join(names)}, you are {colour}" for colour, names in sides.items()]
    lines.append(", ".join(part for part in (f"table {table}", "playoff" if playoff else "", length) if part))
    return MessageScreen(tuple(lines), "Your seats")
