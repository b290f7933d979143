"""The PIN, the seats' tokens and the phones' rate limits, without a server; and ``[phones]``."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribpi.config import load_config
from cribpi.exc import ConfigError
from cribpi.phones.seats import JoinRefused, Limits, Seats
from cribpi.phonesconfig import DEFAULT_PORT

pytestmark = pytest.mark.phone


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_seat_is_one_phones_until_another_confirms_and_a_game_ends_every_token() -> None:
    pins = iter(["1234", "5678"])
    seats = Seats(pin=lambda: next(pins))
    assert seats.pin == "1234"
    with pytest.raises(JoinRefused) as wrong:
        seats.join("4321", 0, 2)
    assert wrong.value.reason == "wrong_pin"
    with pytest.raises(JoinRefused) as away:
        seats.join("1234", 2, 2)
    assert away.value.status == 400 and "0-1" in away.value.why
    first = seats.join("1234", 0, 2)
    with pytest.raises(JoinRefused) as taken:
        seats.join("1234", 0, 2)
    assert taken.value.reason == "taken" and seats.seat_of(first) == 0
    second = seats.join("1234", 0, 2, confirm=True)
    assert seats.seat_of(first) is None and seats.seat_of(second) == 0 and seats.changed == 0
    seats.new_game(8)
    assert seats.pin == "5678" and seats.seat_of(second) is None and seats.taken() == frozenset()


def test_a_phone_is_held_to_its_rate_and_wrong_pins_cost_more_each_time() -> None:
    clock = Clock()
    limits = Limits(rate=10, burst=3, free=2, clock=clock)
    assert [limits.wait("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limits.wait("a") == pytest.approx(0.1) and limits.wait("b") == 0.0  # per phone
    clock.now += 0.1
    assert limits.wait("a") == 0.0
    limits.pin_tried("a", right=False)
    assert limits.pin_wait("a") == 0.0
    limits.pin_tried("a", right=False)
    assert limits.pin_wait("a") == pytest.approx(1.0)
    clock.now += 1.0
    limits.pin_tried("a", right=False)
    assert limits.pin_wait("a") == pytest.approx(2.0)
    limits.pin_tried("a", right=True)
    assert limits.pin_wait("a") == 0.0


def test_phones_in_the_configuration(tmp_path: Path) -> None:
    path = tmp_path / "cribpi.toml"
    assert load_config(None).phones.enabled is False and load_config(None).phones.port == DEFAULT_PORT
    path.write_text('[phones]\nenabled = true\nport = 8200\nhost = "127.0.0.1"\n')
    phones = load_config(path).phones
    assert (phones.enabled, phones.port, phones.host) == (True, 8200, "127.0.0.1")
    path.write_text("[phones]\nport = 70000\n")
    with pytest.raises(ConfigError, match=r"phones.port = 70000 is not valid: a port 1-65535"):
        load_config(path)
    path.write_text('[phones]\nenabled = "yes"\n')
    with pytest.raises(ConfigError, match="phones.enabled"):
        load_config(path)
