"""``cribpi replay``'s running scores after a renege claim: the points the claim cancels are
gone from the running total too (it printed the cancelled 31 still counted: Ann 4 where the
table, and the next line, say 2)."""

from cribpi.commands.replay import replay_rows
from cribpi.game import Go, Lay, Mode, NewGame, Renege, Starter
from cribpi.record.reader import parse_record
from cribpi.record.writer import export_record
from cribpi.rules import ACC, Card

ANN, BOB, CAT = 0, 1, 2


def test_the_running_scores_after_a_renege_claim_leave_out_the_points_it_cancelled():
    c = Card.parse
    events = [NewGame(("Ann", "Bob", "Cat"), ACC.replace(players=3), Mode.COUNT, first_dealer=BOB), Starter(c("2S")),
              Lay(CAT, c("5C")), Lay(ANN, c("TD")), Lay(BOB, c("TH")),
              Go(CAT),  # at 25, holding the 4H: a renege
              Lay(ANN, c("6S")),  # 31 for Ann, which only the false go allowed
              Lay(BOB, c("9H")), Lay(CAT, c("4H")),  # the table sees the renege
              Renege(CAT, BOB)]  # Bob claims it: Ann's 31 is cancelled, Bob pegs 2
    rows, out, state = replay_rows(parse_record(export_record(events)))
    assert state.scores == (2, 4, 0)
    last = rows[-1]
    assert (last["type"], last["name"], last["points"]) == ("score", "Bob", 2)
    assert last["scores"] == {"Ann": 2, "Bob": 4, "Cat": 0}, out[-4:]
    assert out[-1].rstrip().endswith("Ann 2, Bob 4, Cat 0"), out[-1]
