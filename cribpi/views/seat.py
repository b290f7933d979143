"""Where the players of a tournament table sit this round, for its OLED: the round the
director seated, who plays whom and each player's seat colour (the colour of the track that
player pegs on), as ``Round 2: Ann v Bob`` / ``Ann, you are Red`` / ``Bob, you are Blue``;
partners, who share a track, as ``Ann & Cy, you are Red``.
A table the round leaves empty says so. Once the round's games are played there, the table
says so and what it waits for (``Round 2 played: 2 of 2 games`` / ``Wait for the next
seating``; a playoff's match over, ``Wait for the director``)."""

from __future__ import annotations

from collections.abc import Sequence

from cribpi.views.model import MessageScreen

__all__ = ["seat_screen", "round_played_screen", "round_played_why", "ROUND_PLAYED"]

ROUND_PLAYED = "Round played"  # the title of the screen a table shows once its round is played


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


def _played(round_number: int, played: int, games: int, playoff: bool) -> str:
    return f"Round {round_number} played: " + ("the match is over" if playoff else f"{played} of {games} games")


def _next(playoff: bool) -> str:
    """What the table waits for: a qualifying round's table, the next seating; a playoff match
    over, the director (the table cannot know whether it was the final)."""
    return "Wait for the director" if playoff else "Wait for the next seating"


def round_played_screen(round_number: int, played: int, games: int, playoff: bool = False) -> MessageScreen:
    """What a table shows once the games its seating has are played (and each result had its
    say), until the next seating: no new game is started for the seated players."""
    return MessageScreen((_played(round_number, played, games, playoff), _next(playoff)), ROUND_PLAYED)


def round_played_why(round_number: int, played: int, games: int, playoff: bool = False) -> str:
    """Why a new game of the seated players is refused once the round's games are played, and
    what to do: wait, or set other players in the menu (one page of the 128x64 OLED's alert)."""
    return f"{_played(round_number, played, games, playoff)}. {_next(playoff)}, or set other players in the menu"
