"""``cribpi director serve`` says where each of its pages is (issue 21, item 16): the wall, the
seating, the leaderboard, the bracket and the admin page, each at an address a phone in the
room can open (this machine's own address when it serves on every interface)."""

from __future__ import annotations

from cribpi.commands.director import _local_addresses, _serving


def test_serve_names_the_address_of_each_page() -> None:
    said = _serving("open26", "0.0.0.0", 8080, "mqtt://127.0.0.1:1883", True, ["192.168.1.5", "10.0.0.7"])
    assert said.splitlines() == [
        "event open26: its pages",
        "  the wall     http://192.168.1.5:8080/",
        "  seating      http://192.168.1.5:8080/seating",
        "  leaderboard  http://192.168.1.5:8080/leaderboard",
        "  bracket      http://192.168.1.5:8080/bracket",
        "  admin        http://192.168.1.5:8080/admin",
        "  on every interface; also http://10.0.0.7:8080/, http://127.0.0.1:8080/ (this machine)",
        "  following the broker mqtt://127.0.0.1:1883",
    ]


def test_one_address_or_none_known() -> None:
    said = _serving("ev", "::1", 9000, "mqtts://b:8883", False, ["192.168.1.5"])
    assert "  seating      http://[::1]:9000/seating" in said.splitlines()  # the address asked for, not ours
    assert said.splitlines()[-1] == "  following the broker mqtts://b:8883 (not subscribed yet: it keeps trying)"
    unknown = _serving("ev", "0.0.0.0", 8080, "mqtt://b", True, []).splitlines()
    assert unknown[1] == "  the wall     http://HOST:8080/" and "HOST is this machine's address in the room" in unknown[6]


def test_this_machines_addresses_are_not_loopback() -> None:
    assert all(not a.startswith("127.") and a.count(".") == 3 for a in _local_addresses())
