"""The ``[tournament]`` section of the table's configuration: off by default, checked like the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribpi.config import load_config
from cribpi.exc import ConfigError
from cribpi.tournament.broker import parse_broker


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cribpi.toml"
    path.write_text(text)
    return path


def test_off_without_a_broker(tmp_path: Path) -> None:
    assert not load_config(write(tmp_path, "")).tournament.enabled


def test_a_table_with_a_broker_asks_each_side_to_confirm_its_results(tmp_path: Path) -> None:
    from cribpi.app import TableSettings
    from cribpi.daemon.table import table_settings

    casual = load_config(write(tmp_path, ""))
    room = load_config(write(tmp_path, '[tournament]\nbroker = "mqtt://room.local"\nevent = "e"\ntable = "t1"\n'))
    assert not table_settings(casual, TableSettings(confirm_results=True)).confirm_results
    assert table_settings(room, TableSettings()).confirm_results


def test_a_full_section(tmp_path: Path) -> None:
    (tmp_path / "t7.pw").write_text("s3cret\nignored\n")
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    t = load_config(write(tmp_path, '[tournament]\nbroker = "mqtts://room.local"\nevent = "open26"\ntable = "t7"\n'
                                    'password_file = "t7.pw"\nca = "ca.pem"\n')).tournament
    assert t.enabled and t.password_file == tmp_path / "t7.pw" and t.ca == tmp_path / "ca.pem"
    broker = parse_broker(t.broker or "", username=t.table, password_file=t.password_file, ca=t.ca)
    assert (broker.host, broker.port, broker.tls, broker.username, broker.password) == ("room.local", 8883, True, "t7", "s3cret")
    assert parse_broker("mqtt://10.0.0.2").port == 1883


@pytest.mark.parametrize("section, named", [
    ('broker = "http://x"\nevent = "e"\ntable = "t"', "tournament.broker = 'http://x'"),
    ('broker = "mqtt://x"\ntable = "t"', "tournament.event = None"),
    ('broker = "mqtt://x"\nevent = "e"\ntable = "t 1"', "tournament.table = 't 1'"),
    ('broker = "mqtt://x"\nevent = "e"\ntable = "t"\npassword = "a"\npassword_file = "b"', "either password"),
    ('broker = "mqtt://x"\nevent = "e"\ntable = "t"\nqos = 2', "tournament.qos = 2 is not valid: unknown key"),
    ('broker = 1883', "expected str"),
    ('broker = "mqtt://127.0.0.1:99999"\nevent = "e"\ntable = "t"', "tournament.broker = 'mqtt://127.0.0.1:99999'"),
    ('broker = "mqtt://x:0"\nevent = "e"\ntable = "t"', "a port 1-65535"),
    ('broker = "mqtt://x"\nevent = "e"\ntable = "t"\npassword_file = "nope.pw"',
     "tournament.password_file = 'nope.pw' is not valid: a readable password file"),
    ('broker = "mqtt://x"\nevent = "e"\ntable = "t"\npassword_file = "empty.pw"',
     "tournament.password_file = 'empty.pw' is not valid: a file"),
    ('broker = "mqtt://x"\nevent = "e"\ntable = "t"\npassword_file = "blank.pw"', "its first line is empty"),
    ('broker = "mqtt://x"\nevent = "e"\ntable = "t"\npassword_file = "."', "tournament.password_file = '.'"),
    ('broker = "mqtts://x"\nevent = "e"\ntable = "t"\nca = "nope.pem"', "tournament.ca = 'nope.pem' is not valid"),
    ('broker = "mqtts://x"\nevent = "e"\ntable = "t"\nca = "empty.pw"', "tournament.ca = 'empty.pw' is not valid: a CA"
     " certificate as a PEM file"),
    ('broker = "mqtt://x"\nevent = "e"\ntable = "t"\npassword = ""', "tournament.password = '' is not valid"),
])
def test_bad_sections_name_the_key(tmp_path: Path, section: str, named: str) -> None:
    (tmp_path / "empty.pw").write_text("")
    (tmp_path / "blank.pw").write_text("  \nsecond line\n")
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, f"[tournament]\n{section}\n"))
    assert named in str(err.value) and "cribpi.toml" in str(err.value)


def test_a_missing_password_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="password file .*nope.pw"):
        parse_broker("mqtt://x", password_file=tmp_path / "nope.pw")


@pytest.mark.parametrize("section", ['password_file = "empty.pw"', 'ca = "nope.pem"', 'password_file = "nope.pw"'])
def test_run_refuses_what_the_check_refuses_in_the_same_words(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              section: str) -> None:
    from cribpi.cli import main

    (tmp_path / "empty.pw").write_text("")
    config = write(tmp_path, f'[tournament]\nbroker = "mqtts://127.0.0.1:1"\nevent = "e"\ntable = "t1"\n{section}\n')
    said = []
    for argv in (["config", "--check", str(config)], ["run", "--config", str(config), "--backend", "mock"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and f"tournament.{section.split()[0]} = " in err
        said.append(err.split(": ", 1)[1])
    assert said[0] == said[1]
