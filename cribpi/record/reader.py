"""Reading a record: tags, then statements, each replayed through the engine as it is read.

The engine knows whose turn it is, who must claim and when a count starts again, so the
record need not say; every line is checked against the table as it stands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final

from cribpi.exc import RulesError
from cribpi.game.engine import INITIAL, apply, claimable
from cribpi.game.events import (
    Claim, Confirm, Crib, CutForDeal, Discard, EndDeal, Event, Go, HandCards, Lay, Misdeal, MoveCard, Muggins,
    MugginsSet, NextGame, Peg, Penalty, Renege, Starter,
)
from cribpi.game.legal import describe_expected
from cribpi.game.state import Phase, Where
from cribpi.record.errors import RecordReadError, RecordRefusedError, RecordStateError, RecordSyntaxError, RecordTagError
from cribpi.record.tags import TagTable, misplaced_tag
from cribpi.record.tokens import Token, Words, match_name, tokens, without_comments
from cribpi.record.writer import export_record
from cribpi.rules import count_total

__all__ = ["Record", "parse_record", "MAX_LINE_CHARS"]

#: The longest line a record may hold, its comments left out.
MAX_LINE_CHARS: Final = 10_000


@dataclasses.dataclass(frozen=True)
class Record:
    """A parsed record: its tags (as written), its events, and the line each event came from."""

    tags: dict[str, str]
    events: list[Event]
    lines: list[int] = dataclasses.field(default_factory=list)

    def text(self) -> str:
        """The record written out again (comments and layout are not kept)."""
        return export_record(self.events, self.tags)


def parse_record(text: str, source: str | None = None) -> Record:
    """Read a record, replaying it through the engine as it goes.

    A RecordReadError names the line (and ``source``, the file, when given): a
    RecordSyntaxError the token and what would have been accepted, a RecordTagError the tag,
    a RecordStateError a line that does not fit the table, a RecordRefusedError the engine's
    reason for refusing what the line says.
    """
    reader = _Reader()
    try:
        lines = without_comments(text)
        for number, line in enumerate(lines, 1):
            reader.feed(number, line)
        reader.finish(len(lines))
    except RecordReadError as exc:
        exc.source = source
        raise
    return Record(reader.tags.tags, reader.events, reader.lines)


class _Reader:
    def __init__(self) -> None:
        self.tags = TagTable()
        self.events: list[Event] = []
        self.lines: list[int] = []
        self.state = INITIAL

    def feed(self, number: int, line: str) -> None:
        text = line.strip()
        if len(text) > MAX_LINE_CHARS:  # refused before its tokens are made: a 4 MB line once took seconds
            raise RecordSyntaxError(number, text[:30], "a shorter line", f"a line of {len(text)} characters: a "
                                    f"record's line holds at most {MAX_LINE_CHARS} (its longest is a tag's, ~210)")
        if text.startswith("["):
            self._tag(number, text)
        elif text:
            if not self.events:
                self._start(number)
            self._statement(Words(number, tokens(text, number)))

    def finish(self, last_line: int) -> None:
        """A record of tags alone is a game set up and not yet played."""
        if self.events:
            return
        if not self.tags:
            raise RecordTagError(1, "Players", "the record is empty: expected [Players ...] and the other "
                                               "tags, then deals")
        self._start(last_line)

    def _tag(self, number: int, text: str) -> None:
        if self.events:
            raise misplaced_tag(number, text)
        self.tags.add(number, text)

    def _start(self, number: int) -> None:
        event, line = self.tags.new_game(number)
        self._apply(event, line, "the game set up by the tags")
        setup = self.tags.setup(self.state.names)
        if setup is not None:
            self._apply(setup[0], setup[1], "the setup")

    def _apply(self, event: Event, line: int, what: str) -> None:
        try:
            self.state, _ = apply(self.state, event)
        except RulesError as exc:
            raise RecordRefusedError(line, what, exc) from None
        self.events.append(event)
        self.lines.append(line)

    def _waiting(self) -> str:
        return f"the table is waiting for {describe_expected(self.state)}"

    def _name(self, seat: int) -> str:
        return self.state.names[seat]

    def _seat(self, words: Words) -> int:
        token = words.take("a player's name")
        seat = match_name(self.state.names, token.text)
        if seat is None:
            raise words.error(token, "a player's name: " + ", ".join(self.state.names))
        return seat

    def _statement(self, words: Words) -> None:
        head = words.take("a statement")
        keyword = "" if head.quoted else head.text.lower()
        handler = _STATEMENTS.get(keyword)
        if handler is None:
            raise words.error(head, "a statement: " + ", ".join(_STATEMENT_NAMES))
        if self.state.phase is Phase.CUT and keyword in _IN_A_DEAL:
            raise RecordStateError(words.line, head.text, "no one deals yet: expected a cut for the deal first "
                                   '("Cut: 5H KD", a card per player in seat order) or a [Dealer "NAME"] tag')
        if keyword in _COLON_AFTER_KEYWORD:
            words.skip(":")
        handler(self, words)

    # -- the statements, one method each

    def _cut(self, words: Words) -> None:
        cards = words.cards("a card for each player, in seat order (e.g. 5H KD)")
        self._apply(CutForDeal(cards), words.line, "the cut " + " ".join(map(str, cards)))

    def _deal(self, words: Words) -> None:
        """``Deal N: NAME deals`` checks where the table is; it is not an event."""
        number = words.integer("the deal's number, e.g. Deal 2: Ann deals")
        words.skip(":")
        token = words.peek()
        dealer = self._seat(words)
        words.skip("deals")
        words.end()
        deal = self.state.deal
        if deal is None or (deal.number, deal.dealer) != (number, dealer):
            now = f"deal {deal.number}, dealt by {self._name(deal.dealer)}" if deal else f"no deal ({self._waiting()})"
            raise RecordStateError(words.line, f"Deal {number}: {token}", f"the table is at {now}")

    def _starter(self, words: Words) -> None:
        card = words.card("the starter card (e.g. 6H)")
        self._apply(Starter(card), words.line, f"the starter {card}")
        if words.skip("="):
            self._claim_pending(words, Where.HEELS)
        words.end()

    def _hand(self, words: Words) -> None:
        seat = self._seat(words)
        words.skip(":")
        cards = words.cards(f"the {self.state.rules.cards_held} cards of the hand (e.g. 5H TD QS 4C)")
        self._apply(HandCards(seat, cards), words.line, f"{self._name(seat)}'s hand")

    def _discard(self, words: Words) -> None:
        seat = self._seat(words)
        words.skip(":")
        cards = words.cards(f"the {self.state.rules.discards_each} card(s) laid away (e.g. 7C 8D)")
        self._apply(Discard(seat, cards), words.line, f"{self._name(seat)}'s discard")

    def _crib(self, words: Words) -> None:
        cards = words.cards("the four cards of the crib (e.g. 7C 8D 7H 8S)")
        self._apply(Crib(cards), words.line, "the crib")

    def _play(self, words: Words) -> None:
        while (token := words.peek()) is not None:
            if words.skip("="):
                self._claim_pending(words, Where.PLAY)
            elif words.skip("|"):
                self._new_count(words, token)
            else:
                self._lay_or_go(words, token)

    def _new_count(self, words: Words, token: Token) -> None:
        """``|`` checks that a new count has just started."""
        deal = self.state.deal
        if deal is None or deal.count:
            count = count_total(deal.count) if deal else 0
            raise RecordStateError(words.line, str(token), "expected a card or go: '|' marks a new count, "
                                                           f"but the count is at {count}")

    def _lay_or_go(self, words: Words, token: Token) -> None:
        deal = self.state.deal
        if self.state.phase is not Phase.PLAY or deal is None or deal.turn is None:
            raise RecordStateError(words.line, str(token), f"expected no play now: {self._waiting()}")
        seat = deal.turn
        if words.skip("go"):
            self._apply(Go(seat), words.line, f"go by {self._name(seat)}")
            return
        card = words.card("a card (e.g. 5H, TD), go, | or =N")
        self._apply(Lay(seat, card), words.line, f"{card} laid by {self._name(seat)}")

    def _claim_pending(self, words: Words, where: Where) -> None:
        """``=N`` after a card claims for that card's player; after the starter, the dealer's heels."""
        points = words.integer("the points claimed, e.g. =2")
        seat = self._claimant(where)
        moment = claimable(self.state, seat) if seat is not None else None
        if seat is None or moment is None or moment.where is not where:
            raise RecordStateError(words.line, f"={points}", f"there is no {where} score to claim now "
                                   f"(claims need [Mode \"claim\"]; {self._waiting()})")
        self._apply(Claim(seat, points), words.line, f"{self._name(seat)}'s claim of {points}")

    def _claimant(self, where: Where) -> int | None:
        deal = self.state.deal
        if deal is None:
            return None
        if where is Where.HEELS:
            return deal.dealer
        return deal.played[-1][0] if deal.played else None

    def _claim(self, words: Words) -> None:
        seat = self._seat(words)
        points = words.integer("the points claimed")
        words.end()
        self._apply(Claim(seat, points), words.line, f"{self._name(seat)}'s claim of {points}")

    def _show(self, words: Words) -> None:
        """``Show NAME N`` or ``Show crib N``: the claim for the hand or crib being shown."""
        is_crib = words.skip("crib")
        seat = None if is_crib else self._seat(words)
        points = words.integer("the points claimed for the hand")
        words.end()
        where, whose = (Where.CRIB, "the crib") if is_crib else (Where.HAND, f"{self._name(seat or 0)}'s hand")
        pending = self.state.deal.pending if self.state.deal else None
        if pending is None or pending.where is not where or (seat is not None and pending.seat != seat):
            raise RecordStateError(words.line, "Show", f"{whose} is not waiting for a claim ({self._waiting()})")
        self._apply(Claim(pending.seat, points), words.line, f"the claim of {points} for {whose}")

    def _muggins(self, words: Words) -> None:
        seat = self._seat(words)
        points = words.integer("the points called, e.g. Muggins Ben 2")
        accused = self._seat(words) if words.skip("on") else None  # Muggins Ben 2 on Ann: whose claim
        words.end()
        self._apply(Muggins(seat, points, accused), words.line, f"{self._name(seat)}'s muggins for {points}")

    def _switch(self, words: Words) -> None:
        """``Switch muggins on`` (or ``off``): muggins for the game being played, from the next claim on."""
        token = words.take("muggins (Switch muggins on)")
        if not token.is_word("muggins"):
            raise words.error(token, "muggins (Switch muggins on)")
        token = words.take("on or off")
        if not (token.is_word("on") or token.is_word("off")):
            raise words.error(token, "on or off")
        words.end()
        on = token.is_word("on")
        self._apply(MugginsSet(on), words.line, f"muggins switched {'on' if on else 'off'}")

    def _renege(self, words: Words) -> None:
        seat = self._seat(words)
        by = self._seat(words) if words.skip("by") else None
        words.end()
        self._apply(Renege(seat, by), words.line, f"the renege claimed on {self._name(seat)}")

    def _move(self, words: Words) -> None:
        card = words.card("the card moved, e.g. Move 9H Ann")
        seat = self._seat(words)
        words.end()
        self._apply(MoveCard(card, seat), words.line, f"{card} moved to {self._name(seat)}")

    def _penalty(self, words: Words) -> None:
        seat = self._seat(words)
        points = words.integer("the points, e.g. 2 or -15", signed=True)
        reason = words.take('the reason in quotes, e.g. "renege"')
        if not reason.quoted:
            raise words.error(reason, 'the reason in quotes, e.g. "renege"')
        words.end()
        self._apply(Penalty(seat, points, reason.text), words.line, f"the penalty for {reason.text}")

    def _peg(self, words: Words) -> None:
        seat = self._seat(words)
        points = words.integer("the points pegged, e.g. Peg Ann 6")
        words.end()
        self._apply(Peg(seat, points), words.line, f"{self._name(seat)}'s peg of {points}")

    def _misdeal(self, words: Words) -> None:
        words.end()
        self._apply(Misdeal(), words.line, "the misdeal")

    def _end(self, words: Words) -> None:
        words.skip("of")
        words.skip("deal")
        words.end()
        self._apply(EndDeal(), words.line, "the end of the deal")

    def _next(self, words: Words) -> None:
        token = words.take("game (Next game)")
        if token.text.lower() != "game":
            raise words.error(token, "game (Next game)")
        words.end()
        self._apply(NextGame(), words.line, "the next game")

    def _confirm(self, words: Words) -> None:
        self._answer(words, True)

    def _dispute(self, words: Words) -> None:
        self._answer(words, False)

    def _answer(self, words: Words, agree: bool) -> None:
        seat = self._seat(words)
        words.end()
        side = seat % len(self.state.scores)  # a partner answers for the partnership
        verb = "confirmation" if agree else "dispute"
        self._apply(Confirm(side, agree), words.line, f"{self._name(seat)}'s {verb} of the result")


_STATEMENTS: Final[dict[str, Callable[[_Reader, Words], None]]] = {
    "cut": _Reader._cut, "deal": _Reader._deal, "starter": _Reader._starter, "hand": _Reader._hand,
    "discard": _Reader._discard, "crib": _Reader._crib, "play": _Reader._play, "claim": _Reader._claim,
    "show": _Reader._show, "muggins": _Reader._muggins, "penalty": _Reader._penalty, "peg": _Reader._peg,
    "misdeal": _Reader._misdeal, "end": _Reader._end, "next": _Reader._next, "move": _Reader._move,
    "confirm": _Reader._confirm, "dispute": _Reader._dispute, "renege": _Reader._renege, "switch": _Reader._switch,
}
#: Statements that need a deal under way (a record without a Cut line or Dealer tag has none).
_IN_A_DEAL: Final = frozenset({"deal", "starter", "hand", "discard", "crib", "play", "show", "claim", "muggins",
                               "end", "move", "renege"})
#: Statements whose keyword may be followed by ``:`` (the others place it after a name or number).
_COLON_AFTER_KEYWORD: Final = frozenset({"cut", "starter", "crib", "play"})
_STATEMENT_NAMES: Final = ("Cut:", "Deal N: NAME deals", "Starter:", "Hand NAME:", "Discard NAME:", "Crib:",
                           "Play:", "Show NAME N", "Show crib N", "Claim NAME N", "Muggins NAME N [on NAME]",
                           "Penalty NAME N \"reason\"", "Peg NAME N", "Misdeal", "End", "Next game", "Move CARD NAME",
                           "Confirm NAME", "Dispute NAME", "Renege NAME [by NAME]", "Switch muggins on|off")
