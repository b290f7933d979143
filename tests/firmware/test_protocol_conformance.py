"""docs/protocol.md's examples run against the firmware, byte for byte: each ``conversation``
block from a controller just powered up, through each transport (the firmware's modules under
CPython with the stubs; the real firmware/main.py under the MicroPython unix port behind a
pty). The document cannot say what the firmware does not do."""

import pytest

from tests.firmware import conformance

EXAMPLES = conformance.examples()


@pytest.fixture(params=sorted(conformance.TRANSPORTS))
def transport(request, tmp_path):
    if request.param != "cpython":
        from tests.firmware import rig

        rig.micropython()  # skipped (failed in CI) without the VM
    opened = conformance.TRANSPORTS[request.param](tmp_path)
    yield opened
    opened.close()


@pytest.mark.parametrize("first, steps", EXAMPLES, ids=[f"line{first}" for first, _ in EXAMPLES])
def test_the_documents_example_holds(transport, first, steps):
    conformance.run(transport, steps)


def test_the_document_has_examples_of_every_command_reply_event_and_error():
    import protocol

    sent = [s.text for _, steps in EXAMPLES for s in steps if s.kind == ">"]
    got = [s.text for _, steps in EXAMPLES for s in steps if s.kind == "<"]
    for command in protocol.COMMANDS:
        assert any(line[3:].split("*")[0].split(" ")[0] == command for line in sent), command
    for verb in protocol.REPLIES + protocol.EVENTS:
        assert any(line[3:].split(" ")[0].split("*")[0] == verb for line in got), verb
    for code in (getattr(protocol, n) for n in dir(protocol) if n.startswith("E_")):
        assert any(f" ERR {code} " in line for line in got), code


def test_a_wrong_document_fails():
    """The runner is not a rubber stamp: a reply the firmware does not give fails it."""
    text = "```conversation\n> 01 HELLO 2.1*8F\n< 01 ACK*00\n```\n"
    (first, steps), = conformance.examples(text)
    with pytest.raises(AssertionError, match="the firmware sent"):
        conformance.run(conformance.StubTransport(None), steps)


def test_the_documents_constants_are_the_firmwares():
    import re

    import cards
    import protocol
    import settings

    rows = re.findall(r"^\| `([A-Z_]+)` \| `?([0-9.]+)`? \|", conformance.DOC.read_text(), re.M)
    assert len(rows) >= 10
    for name, value in rows:
        module = next(m for m in (protocol, cards, settings) if hasattr(m, name))
        assert str(getattr(module, name)) == value, name
