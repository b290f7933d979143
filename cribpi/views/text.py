"""Screen model -> plain text: the same words the OLED shows, one line each, for screen
readers, logs, the simulator's status line and the golden screen tests.

>>> print(screen_text(PlayScreen(15, "Ann", ScoreLine("Bob", 2, "fifteen two"))))
Ann to play | count 15
Bob 2 fifteen two
"""

from __future__ import annotations

from cribpi.views.join import join_lines
from cribpi.views.model import (
    AlertScreen, JoinScreen, MenuScreen, MessageScreen, PlayScreen, PromptScreen, ScoreLine, ScoreScreen, ScoresScreen,
    ScreenModel, ShowScreen,
)
from cribpi.rules.speech import spoken_items

__all__ = ["screen_text"]

NOTHING = spoken_items(())  # a hand or crib that scores nothing ("nothing to count")


def _score_line(line: ScoreLine) -> str:
    return " ".join(part for part in (line.who, str(line.points), line.reason) if part)


def _lines(screen: ScreenModel) -> list[str]:
    if isinstance(screen, PlayScreen):
        last = screen.note or (_score_line(screen.last) if screen.last else "")
        starter = f" | starter {screen.starter}" if screen.starter is not None else ""
        laid = f" | {screen.laid[0]} laid {screen.laid[1]}" if screen.laid is not None else ""
        return [f"{screen.turn} to play | count {screen.count}{starter}{laid}".strip(), *([last] if last else [])]
    if isinstance(screen, ScoreScreen):
        starter = f" | starter {screen.starter}" if screen.starter is not None else ""
        return [f"{screen.who} {screen.points}{starter}", *screen.reasons, *([screen.footer] if screen.footer else [])]
    if isinstance(screen, ShowScreen):
        items = [" ".join([item.kind, *map(str, item.cards), str(item.points)]) for item in screen.items] or [NOTHING]
        claimed = f" (claimed {screen.claimed})" if screen.claimed is not None else ""
        return [f"{screen.title}: {screen.total}{claimed}", *items]
    if isinstance(screen, ScoresScreen):
        return [screen.title, *(f"{r.name} {r.score}" + (f" ({r.games_won} won)" if r.games_won else "")
                                for r in screen.rows), *([screen.hint] if screen.hint else [])]
    if isinstance(screen, MenuScreen):
        return [screen.title, *(("> " if n == screen.selected else "  ") + item for n, item in enumerate(screen.items))]
    if isinstance(screen, JoinScreen):
        return join_lines(screen)
    if isinstance(screen, PromptScreen):
        return [f"{screen.prompt}: {screen.entry}" if screen.entry else screen.prompt, *([screen.hint] if screen.hint else [])]
    titled = isinstance(screen, AlertScreen) or (isinstance(screen, MessageScreen) and screen.title)
    footer = [screen.footer] if screen.footer else []  # in the play: the count, and whose turn
    return [screen.title, *screen.lines, *footer] if titled else [*screen.lines, *footer]


def screen_text(screen: ScreenModel) -> str:
    """``screen`` as lines of plain text (no wrapping: the words, not the pixels)."""
    return "\n".join(_lines(screen))
