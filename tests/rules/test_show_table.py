"""The show's rank table ships precomputed (``cribpi/rules/_show_table.py``): it must be what
its generator writes, and every entry must equal the itemised count of the same ranks."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import itertools
from pathlib import Path
from types import ModuleType

from cribpi.rules import Card, ScoreItem, rank_points_table
from cribpi.rules import show

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "tools" / "gen_show_table.py"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_show_table", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_module_is_what_the_generator_writes() -> None:
    gen = generator()
    assert gen.TARGET == ROOT / "cribpi" / "rules" / "_show_table.py"
    assert gen.TARGET.read_text(encoding="utf-8") == gen.module_text(), "run tools/gen_show_table.py"


def representatives(ranks: tuple[int, ...]) -> tuple[Card, ...]:
    """Distinct cards of the given ranks (the n-th card of a rank takes suit n)."""
    seen = [0] * 14
    cards = []
    for r in ranks:
        cards.append(Card(r, seen[r]))
        seen[r] += 1
    return tuple(cards)


def itemised(cards: tuple[Card, ...]) -> int:
    groups, stretch = show._by_rank(cards)
    every_fifteen = show._fifteens(cards, wanted=len(cards) ** 2)  # more than five cards can hold
    items: list[ScoreItem] = [*every_fifteen, *show._pairs(groups), *show._runs(stretch)]
    return sum(i.points for i in items)


def test_every_rank_multiset_that_can_be_dealt_is_in_the_table_once() -> None:
    table = rank_points_table()
    expected = set()
    for size in (4, 5):
        for ranks in itertools.combinations_with_replacement(range(1, 14), size):
            if max(ranks.count(r) for r in ranks) <= 4:
                expected.add(sum(Card(r, 0).rank_bit for r in ranks))
    assert set(table) == expected
    assert len(table) == 1820 + 6175


def test_every_entry_is_the_itemised_count_of_its_ranks() -> None:
    table = rank_points_table()
    for size in (4, 5):
        for ranks in itertools.combinations_with_replacement(range(1, 14), size):
            if max(ranks.count(r) for r in ranks) > 4:
                continue
            cards = representatives(ranks)
            assert table[sum(c.rank_bit for c in cards)] == itemised(cards), ranks


def test_the_generator_reference_agrees_on_known_hands() -> None:
    points = generator().points_of_ranks
    assert points((5, 5, 5, 11, 5)) == 28  # 29 with nobs
    assert points((7, 8, 8, 13, 9)) == 12
    assert points((1, 2, 3, 4, 5)) == 7  # 15 in all five, a run of five
    assert points((2, 2, 3, 3, 4)) == 16  # a double double run: two pairs and four runs of three


def test_importing_the_rules_builds_no_table() -> None:
    code = (
        "import sys\n"
        "from cribpi.rules import parse_cards, score_hand, show\n"
        "print(len(show._TABLE), 'cribpi.rules._show_table' in sys.modules)\n"
        "print(score_hand(parse_cards('5H 5C 5S JD'), parse_cards('5D')[0]).total, len(show._TABLE))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.split() == ["0", "False", "29", str(1820 + 6175)]
