"""Bad input for every ``cribpi`` command: (arguments, what the one line on stderr must say).

``{name}`` in an argument is a file the test makes (see ``FILES`` in test_bad_inputs.py):
``{journal}`` a journal holding one finished game, ``{fifo}``, ``{binary}``, ``{huge}``,
``{folder}``, ``{file}`` (an existing plain file), ``{record}`` a good record, ``{config:NAME}``
a configuration from ``CONFIGS``, ``{layout:NAME}`` one pointing at a layout from ``LAYOUTS`` and
``{layoutfile:NAME}`` that layout file itself.
"""

from __future__ import annotations

import re

BIG = "9" * 5000
LONG = "x" * 5000
CARDS6 = ["5H", "5C", "5S", "JD", "9C", "KD"]
#: Digits that are not ASCII 0-9: int() and float() take them, str.isdigit() is true for them.
ARABIC = {str(d): chr(0x660 + d) for d in range(10)}  # "٠".."٩"
FULLWIDTH = "\uff11\uff12"  # "１２"
#: A terminal escape that clears the screen, one that recolours, one that sets the window's
#: title (OSC ... BEL), a C1 CSI and a right-to-left override.
CLEAR, RED, TITLE, CSI, RLO = "\x1b[2J", "\x1b[31m", "\x1b]0;pwned\x07", "\x9b2J", "\u202e"


LOADGEN = ["loadgen", "--broker", "mqtt://127.0.0.1:1", "--event", "e"]
ESCAPED_PATH = f"nofile{CLEAR}{TITLE}.txt"  # a file that does not exist, named with escapes


def arabic(number: str) -> str:
    """``number`` written in Arabic-Indic digits (``"61"`` -> ``"٦١"``)."""
    return "".join(ARABIC[d] for d in number)


#: Configuration files that must each be refused, naming the key: (name, text, message).
CONFIGS = [
    ("nan-cap", "[leds]\ncurrent_cap_ma = nan", r"leds.current_cap_ma = nan is not valid: a finite number"),
    ("inf-cap", "[leds]\ncurrent_cap_ma = inf", r"leds.current_cap_ma = inf"),
    ("neg-cap", "[leds]\ncurrent_cap_ma = -1", r"leds.current_cap_ma = -1"),
    ("zero-cap", "[leds]\ncurrent_cap_ma = 0", r"leds.current_cap_ma = 0"),
    ("huge-cap", "[leds]\ncurrent_cap_ma = 1e308", r"leds.current_cap_ma = 1e\+308"),
    ("nan-bright", "[leds]\nbrightness = nan", r"leds.brightness = nan"),
    ("neg-bright", "[leds]\nbrightness = -0.1", r"leds.brightness = -0.1"),
    ("big-bright", "[leds]\nbrightness = 1.5", r"leds.brightness = 1.5"),
    ("str-bright", "[leds]\nbrightness = \"half\"", r"leds.brightness = 'half' is not valid: expected int or float"),
    ("counters", "[leds]\ngame_counter_leds = 11", r"leds.game_counter_leds = 11 .*0-10"),
    ("counters-huge", "[leds]\ngame_counter_leds = 99999999999999999999", r"a number of 20 digits"),
    ("marks", "[leds]\nmarks = 1", r"leds.marks = 1 .*expected bool"),
    ("nan-debounce", "[buttons]\ndebounce_ms = nan", r"buttons.debounce_ms = nan"),
    ("inf-debounce", "[buttons]\ndebounce_ms = inf", r"buttons.debounce_ms = inf"),
    ("neg-debounce", "[buttons]\ndebounce_ms = -5", r"buttons.debounce_ms = -5"),
    ("inf-long", "[buttons]\nlong_press_ms = inf", r"buttons.long_press_ms = inf"),
    ("nan-long", "[buttons]\nlong_press_ms = nan", r"buttons.long_press_ms = nan"),
    ("zero-long", "[buttons]\nlong_press_ms = 0", r"buttons.long_press_ms = 0"),
    ("inf-repeat", "[buttons]\nrepeat_ms = inf", r"buttons.repeat_ms = inf"),
    ("neg-repeat", "[buttons]\nrepeat_ms = -300", r"buttons.repeat_ms = -300"),
    ("debounce-over-long", "[buttons]\ndebounce_ms = 900\nlong_press_ms = 800", r"buttons = .*debounce"),
    ("oled-driver", "[oled]\ndriver = \"ssd1309\"", r"oled.driver = 'ssd1309' .*ssd1306 or sh1106"),
    ("oled-rotate", "[oled]\nrotate = 90", r"oled.rotate = 90 .*0 or 180"),
    ("oled-address", "[oled]\naddress = 0x99", r"oled.address = 153 .*0x03-0x77"),
    ("oled-address-huge", "[oled]\naddress = 99999999999999999999999", r"oled.address = a number of 23 digits"),
    ("oled-port", "[oled]\nport = -1", r"oled.port = -1 .*I2C bus number"),
    ("oled-port-float", "[oled]\nport = 1.0", r"oled.port = 1.0 .*expected int"),
    ("oled-contrast", "[oled]\ncontrast = 256", r"oled.contrast = 256 .*0-255"),
    ("oled-size", "[oled]\nsize = \"64x48\"", r"oled.size = '64x48'"),
    ("oled-bus", "[oled]\nbus = 1", r"oled.bus = 1 .*unknown key"),
    ("unknown-key", "colour = 1", r"colour = 1 .*unknown key"),
    ("backend", "backend = \"toaster\"", r"backend = 'toaster' .*one of"),
    ("backend-type", "backend = 3", r"backend = 3 .*expected str"),
    ("db-blank", "db = \" \"", r"db = ' ': a blank path; expected the path of a game journal"),
    ("db-nul", "db = \"a\\u0000b\"", r"db = 'a\\x00b' is not valid: printable text \(it holds \\x00, a control character\)"),
    ("db-user", "db = \"~nosuchuser_cribpi/x.db\"", r"db = .*no user 'nosuchuser_cribpi'"),
    ("db-folder", "db = \".\"", r"db = '.' is not valid: a folder"),
    ("layout-user", "layout = \"~nosuchuser_cribpi/l.toml\"", r"layout = .*no user"),
    ("pin-number", "[pins]\n40 = \"ok\"", r"pins.40 .*BCM pin number 0-27"),
    ("pin-action", "[pins]\n17 = \"jump\"", r"pins.17 = 'jump'"),
    ("pin-twice", "[pins]\n17 = \"ok\"\nGPIO17 = \"go\"", r"GPIO17 is bound twice"),
    ("pin-table", "[pins]\n17 = { hold = \"ok\" }", r"pins.17 = .*press"),
    ("parts-pegboard", "[parts]\npegboard = \"toaster\"", r"parts.pegboard = 'toaster'"),
    ("parts-display", "[parts]\ndisplays = [\"controller\"]", r"the controller backend has no display"),
    ("parts-inputs", "[parts]\ninputs = [\"pi\", 3]", r"parts.inputs\[1\] = 3"),
    ("parts-many", "[parts]\ninputs = [\"pi\", \"pi\", \"pi\", \"pi\", \"pi\"]", r"at most 4 input backends"),
    ("parts-page", "[parts]\ndisplays = [{ backend = \"pi\", page = \"wall\" }]", r"page = 'wall'"),
    ("port-blank", "[controller]\nport = \" \"", r"controller.port = ' '"),
    ("game-length", "[game]\ngame_length = 100", r"game.game_length = 100 is not valid: 121 or 61"),
    ("game-key", "[game]\nlength = 61", r"game.length = 61 .*unknown key; accepted: game_length"),
    ("tournament-port", "[tournament]\nevent = \"e\"\ntable = \"t1\"\nbroker = \"mqtt://127.0.0.1:99999\"",
     r"tournament.broker = 'mqtt://127.0.0.1:99999' is not valid: .*a port 1-65535"),
    ("tournament-password-file", "[tournament]\nevent = \"e\"\ntable = \"t1\"\nbroker = \"mqtt://x\"\npassword_file = \"nope.pw\"",
     r"tournament.password_file = 'nope.pw' is not valid: a readable password file \(.*nope.pw: no such password file\)"),
    ("tournament-ca", "[tournament]\nevent = \"e\"\ntable = \"t1\"\nbroker = \"mqtts://x\"\nca = \"nope.pem\"",
     r"tournament.ca = 'nope.pem' is not valid: a readable CA certificate \(.*nope.pem: no such CA certificate\)"),
    ("tournament-password", "[tournament]\nevent = \"e\"\ntable = \"t1\"\nbroker = \"mqtt://x\"\npassword = \"\"", r"tournament.password = '' is not valid"),
    ("toml", "backend = [", r"not valid TOML"),
    ("toml-digits", f"a = {BIG}", r"not valid TOML: .*short numbers"),
    ("toml-binary", None, r"byte 6 is not UTF-8"),
    # digits other than ASCII 0-9 in the text the reader turns into a number itself
    ("pin-arabic", f'[pins]\n"{arabic("17")}" = "ok"', r"pins.١٧ = '١٧' is not valid: a BCM pin number 0-27"),
    ("pin-fullwidth", f'[pins]\n"GPIO{FULLWIDTH}" = "ok"', r"pins.GPIO１２ = 'GPIO１２' is not valid: a BCM pin number 0-27"),
    ("broker-arabic", f'[tournament]\nevent = "e"\ntable = "t1"\nbroker = "mqtt://x:{arabic("1883")}"',
     r"tournament.broker = .* is not valid: mqtt://host\[:port\]"),
    ("size-arabic", f'[oled]\nsize = "{arabic("128")}x64"', r"oled.size = .* is not valid: one of 128x64"),
    # control characters (TOML's \u001b escape) in every kind of value and key
    ("ctl-backend", 'backend = "\\u001b[2J"', r"backend = '\\x1b\[2J' is not valid: printable text \(it holds \\x1b"),
    ("ctl-port", '[controller]\nport = "/dev/ttyACM0\\u001b[31m"', r"controller.port = '/dev/ttyACM0\\x1b\[31m' is not valid: printable text"),
    ("ctl-db", 'db = "games\\u001b]0;x\\u0007.db"', r"db = 'games\\x1b\]0;x\\x07.db' is not valid: printable text"),
    ("ctl-layout", 'layout = "\\u202elayout.toml"', r"layout = '\\u202elayout.toml' is not valid: printable text"),
    ("ctl-pin-key", '[pins]\n"\\u001b[2J" = "ok"', r"pins.\\x1b\[2J = 'ok' is not valid: a key in printable characters"),
    ("ctl-pin-value", '[pins]\n17 = "ok\\u009b2J"', r"pins.17 = 'ok\\x9b2J' is not valid: printable text"),
    ("ctl-inputs", '[parts]\ninputs = ["pi", "\\u001b[2J"]', r"parts.inputs\[1\] = '\\x1b\[2J' is not valid: printable text"),
    ("ctl-event", '[tournament]\nevent = "e\\u001b[2J"\ntable = "t1"\nbroker = "mqtt://x"', r"tournament.event = 'e\\x1b\[2J' is not valid: printable"),
    ("ctl-broker", '[tournament]\nevent = "e"\ntable = "t1"\nbroker = "mqtt://x\\u001b[2J"', r"tournament.broker = 'mqtt://x\\x1b\[2J' is not valid"),
    ("ctl-password", '[tournament]\nevent = "e"\ntable = "t1"\nbroker = "mqtt://x"\npassword = "pw\\u001b[2J"', r"tournament.password = .* printable text"),
    ("ctl-key", '"colour\\u001b[2J" = 1', r"colour\\x1b\[2J = 1 is not valid: a key in printable characters"),
    # a huge value, quoted cut short and its length said
    ("huge-backend", f'backend = "{LONG}"', r"backend = 'xxxx.*\.\.\.' \(5000 characters\) is not valid: printable|backend = 'xxx.*' \(5000 characters\) is not valid: one of"),
    ("huge-key", f'{LONG} = 1', r" = 1 is not valid: unknown key|xxx\.\.\.xxx \(5000 characters\)"),
    ("huge-port", f'[controller]\nport = "{LONG}"', r"controller.port = 'xxx.*' \(5000 characters\) is not valid"),
    ("huge-layout", f'layout = "{LONG}"', r"layout = 'xxx.*' \(5000 characters\): .*a path of 5000 characters"),
    # an empty path
    ("empty-db", 'db = ""', r"db = '': an empty path; expected the path of a game journal"),
    ("empty-layout", 'layout = ""', r"layout = '': an empty path; expected the path of a layout file"),
    ("empty-port", '[controller]\nport = ""', r"controller.port = '' is not valid: a serial port"),
    ("empty-password-file", '[tournament]\nevent = "e"\ntable = "t1"\nbroker = "mqtt://x"\npassword_file = ""',
     r"tournament.password_file = '': an empty path; expected the path of a password file"),
    ("empty-ca", '[tournament]\nevent = "e"\ntable = "t1"\nbroker = "mqtts://x"\nca = ""',
     r"tournament.ca = '': an empty path; expected the path of a CA certificate"),
    # nested past what tomllib's recursion survives (a RecursionError traceback once), or past
    # it without a bracket (dotted keys): refused before it is parsed, naming the file and line
    ("deep-arrays", "a = " + "[" * 5000 + "]" * 5000,
     r"config-deep-arrays\.toml: nested deeper than 32 \(line 1\); at most 32 levels of arrays and tables"),
    ("deep-tables", "\n" + "a = {b = " * 900 + "1" + "}" * 900,
     r"config-deep-tables\.toml: nested deeper than 32 \(line 2\); at most 32 levels"),
    ("deep-keys", "[" + ".".join(["a"] * 5000) + "]", r"config-deep-keys\.toml: nested deeper than 32; at most 32 levels"),
]

#: Layout files, each given through a configuration's ``layout`` key.
LAYOUTS = [
    ("deep", "tracks = 2\n[[run]]\nleds = " + "[" * 5000 + "]" * 5000,
     r"layout-deep\.toml: nested deeper than 32 \(line 3\); at most 32 levels of arrays and tables are accepted in a layout file"),
    ("tracks", "tracks = 5\n[[run]]\nleds = [\"1:1-121\"]", r"tracks = 5 .*2-4"),
    ("no-run", "tracks = 2", r"run = None .*\[\[run\]\]"),
    ("entry", "tracks = 2\n[[run]]\nleds = [\"1:x\"]", r"leds\[0\] = '1:x'"),
    ("hole", "tracks = 2\n[[run]]\nleds = [\"1:1-200\"]", r"holes are 1-121"),
    ("twice", "tracks = 2\n[[run]]\nleds = [\"1:1-121\", \"1:5\"]", r"already mapped"),
    ("unmapped", "tracks = 2\n[[run]]\nleds = [\"1:1-121\"]", r"track 2 .*unmapped"),
    ("skip", f"tracks = 2\n[[run]]\nleds = [\"skip {BIG[:30]}\"]", r"makes strip 0 [0-9]+ LEDs long; the controller drives at most 512 LEDs a strip"),
    ("strip", "tracks = 2\n[[run]]\nstrip = -1\nleds = [\"1:1\"]", r"strip = -1 .*0-15"),
    ("start", "tracks = 2\n[[run]]\nstart = 1e9\nleds = [\"1:1\"]", r"start = 1000000000.0 .*0-511"),
    ("counters", "tracks = 2\ngame_counters = nan\n[[run]]\nleds = [\"1:1\"]", r"game_counters = nan"),
    ("unknown", "tracks = 2\ncolour = 1", r"colour = 1 .*unknown key"),
    ("entry-fullwidth", f"tracks = 2\n[[run]]\nleds = [\"{FULLWIDTH[0]}:1-121\", \"2:1-121\"]",
     r"leds\[0\] = '１:1-121' is not valid: one of"),
    ("entry-arabic", f"tracks = 2\n[[run]]\nleds = [\"1:1-{arabic('121')}\", \"2:1-121\"]",
     r"leds\[0\] = '1:1-١٢١' is not valid: one of"),
    ("skip-arabic", f"tracks = 2\n[[run]]\nleds = [\"1:1-121\", \"skip {ARABIC['3']}\", \"2:1-121\"]",
     r"leds\[1\] = 'skip ٣' is not valid: one of"),
    ("ctl-name", "name = \"\\u001b[2Jboard\"\ntracks = 2\n[[run]]\nleds = [\"1:1-121\", \"2:1-121\"]",
     r"name = '\\x1b\[2Jboard' is not valid: printable text"),
    ("ctl-description", "description = \"a\\u202eb\"\ntracks = 2\n[[run]]\nleds = [\"1:1-121\", \"2:1-121\"]",
     r"description = 'a\\u202eb' is not valid: printable text"),
    ("ctl-entry", "tracks = 2\n[[run]]\nleds = [\"1:1-121\\u001b[2J\", \"2:1-121\"]", r"leds\[0\] = '1:1-121\\x1b\[2J' is not valid"),
    ("ctl-key", "tracks = 2\n\"colour\\u001b[31m\" = 1", r"colour\\x1b\[31m = 1 is not valid: unknown key"),
    ("huge-entry", f"tracks = 2\n[[run]]\nleds = [\"{LONG}\"]", r"leds\[0\] = 'xxx.*' \(5000 characters\) is not valid"),
    ("huge-digits", f"tracks = 2\n[[run]]\nleds = [\"1:1-{BIG}\"]", r"leds\[0\] = '1:1-999.*' \(5004 characters\) is not valid"),
    ("missing", None, r"missing.toml: no such layout file"),
    ("fifo", None, r"not a regular file"),
]

#: Records that must each be refused: (name, text, message).
RECORDS = [
    ("no-cut", '[Players "Ann" "Ben"]\n\nDeal 1: Ann deals\nStarter: 5H\n', r"line 3: 'Deal': no one deals yet: .*Cut"),
    ("no-cut-play", '[Players "Ann" "Ben"]\nPlay: 5H\n', r"no one deals yet"),
    ("match-super", '[Players "Ann" "Ben"]\n[Match "²"]\n', r"line 2: '²': expected an odd number"),
    ("match-even", '[Players "Ann" "Ben"]\n[Match "2"]\n', r"expected an odd number of games"),
    ("game-digits", f'[Players "Ann" "Ben"]\n[Game "{BIG[:50]}"]\n', r"line 2: '9999.*use a whole number \(of at most 6 digits\)"),
    ("deal-digits", f'[Players "Ann" "Ben"]\n[Dealer "Ann"]\nDeal {BIG}: Ann deals\n', r"line 3: '9999"),
    ("tag-cr", '[Players "Ann" "Ben"]\n[Event "a\rb"]\n', r"holds a line break"),
    ("players", '[Players "Ann"]\n', r"2-4 names"),
    ("empty", "", r"the record is empty"),
    ("card", '[Players "Ann" "Ben"]\n[Dealer "Ann"]\nStarter: 5X\n', r"line 3: '5X': expected the starter card"),
    ("refused", '[Players "A" "B"]\n[Dealer "A"]\nStarter: 5H\nPlay: 5C 5C\n', r"line 4: 5C laid by A is refused"),
    ("statement", '[Players "A" "B"]\n[Dealer "A"]\nDance\n', r"'Dance': expected a statement"),
    ("claim-digits", f'[Players "A" "B"]\n[Mode "claim"]\n[Dealer "A"]\nStarter: 5H={BIG}\n', r"expected the points"),
    ("rules", '[Players "A" "B"]\n[Rules "snap"]\n', r"'snap': expected a rule preset"),
    ("unclosed", '[Players "A" "B"]\n{ never closed\n', r"never closed"),
    ("tag-late", '[Players "A" "B"]\n[Dealer "A"]\nStarter: 5H\n[Event "x"]\n', r"tags belong at the top"),
    # digits other than ASCII 0-9
    ("game-arabic", f'[Players "Ann" "Ben"]\n[Game "{arabic("61")}"]\n', r"line 2: '٦١': expected a value for game_length: use a whole number"),
    ("match-arabic", f'[Players "Ann" "Ben"]\n[Match "{ARABIC["3"]}"]\n', r"line 2: '٣': expected an odd number of games"),
    ("deal-arabic", f'[Players "Ann" "Ben"]\n[Dealer "Ann"]\nDeal {ARABIC["1"]}: Ann deals\n', r"line 3: '١': expected the deal's number"),
    ("deal-fullwidth", f'[Players "Ann" "Ben"]\n[Dealer "Ann"]\nDeal {FULLWIDTH}: Ann deals\n', r"line 3: '１２': expected the deal's number"),
    ("claim-arabic", f'[Players "A" "B"]\n[Mode "claim"]\n[Dealer "A"]\nStarter: 5H={ARABIC["2"]}\n', r"line 4: '٢': expected the points"),
    ("setup-arabic", f'[Players "Ann" "Ben"]\n[Setup "{arabic("85")} 102; dealer Ann"]\n', r"line 2: '٨٥ 102; dealer Ann': expected"),
    # control characters in names, tags and anything else printed back
    ("name-clear", f'[Players "Ann{CLEAR}" "Ben"]\n', r"line 1: 'Ann\\x1b\[2J' holds a control character \(\\x1b\): names and tags are printable"),
    ("name-rlo", f'[Players "Ann" "{RLO}Ben"]\n', r"line 1: '\\u202eBen' holds a control character \(\\u202e\)"),
    ("name-csi", f'[Players "Ann{CSI}" "Ben"]\n', r"'Ann\\x9b2J' holds a control character \(\\x9b\)"),
    ("tag-red", f'[Players "Ann" "Ben"]\n[Event "club{RED}"]\n', r"line 2: 'club\\x1b\[31m' holds a control character"),
    ("tag-title", f'[Players "Ann" "Ben"]\n[Site "{TITLE}"]\n', r"line 2: '\\x1b\]0;pwned\\x07' holds a control character"),
    ("tag-bare", f'[Players "Ann" "Ben"]\n[Event club{CLEAR}]\n', r"line 2: 'club\\x1b\[2J' holds a control character"),
    ("statement-name", f'[Players "Ann" "Ben"]\n[Dealer "Ann"]\nDeal 1: "Ann{CLEAR}" deals\n', r"line 3: 'Ann\\x1b\[2J' holds a control character"),
    ("statement-ctl", f'[Players "A" "B"]\n[Dealer "A"]\nDance{CLEAR}\n', r"line 3: 'Dance\\x1b\[2J': expected a statement"),
    # a huge input: the quote is cut and its length said
    ("name-huge", f'[Players "{LONG}" "Ben"]\n', r"line 1: 'xxx.*\.\.\.' \(5000 characters\) is too long: a name or tag holds at most 200"),
    ("tag-huge", f'[Players "A" "B"]\n[Event "{LONG}"]\n', r"line 2: 'xxx.*' \(5000 characters\) is too long"),
    ("statement-huge", f'[Players "A" "B"]\n[Dealer "A"]\n{LONG}\n', r"line 3: 'xxx.*\.\.\.' \(5000 characters\): expected a statement"),
    ("card-huge", f'[Players "A" "B"]\n[Dealer "A"]\nStarter: {LONG}\n', r"line 3: 'xxx.*' \(5000 characters\): expected the starter"),
    # a line of 1,000,000 tokens: refused by its length before it is split (it took 3 s)
    ("line-huge", '[Players "A" "B"]\n[Dealer "A"]\nDeal 1: A deals\nPlay: ' + '"a" ' * 1_000_000 + "\n",
     r"line 4: a line of 4000005 characters: a record's line holds at most 10000"),
]

#: Files a reader must refuse before reading them (kind -> message); each is tried as a record,
#: a configuration, a layout, a journal where the command takes one.
UNREADABLE = [
    ("{fifo}", r"not a regular file \(a device, FIFO or socket\)"),
    ("/dev/zero", r"/dev/zero: not a regular file"),
    ("{folder}", r": a folder"),
    ("{binary}", r"byte 128 is not UTF-8"),
    ("{huge}", r"larger than 4096 kB"),
    ("{missing}", r"missing\.\w+: no such"),
    ("~nosuchuser_cribpi/f", r"no user 'nosuchuser_cribpi'"),
    ("a\0b", r"NUL byte"),
]


def cases() -> list[tuple[list[str], str]]:
    """Every bad input: the command line and the message its one line must match."""
    out: list[tuple[list[str], str]] = []
    out += [(["score", *c.split()], m) for c, m in [
        ("", r"the following arguments are required: CARD"), ("5H", r"not just 1 card"),
        ("5H 5H 5C 5D 6S", r"5H appears twice"), ("XX 5H", r"'XX' is not a card"), ("0D 5H", r"'0D' is not a card"),
        ("5X 5H", r"'5X' is not a card"), ("²H 5H", r"'²H' is not a card"), ("5H 5C 5S JD 5D 4D 3D", r"a hand needs 4"),
        ("5H 5C 5S JD 5D --rules nope", r"no rule preset called 'nope'"), ("5H 5C 5S JD 5D --players 3", r"unrecognized"),
        (f"{BIG}H 5H", r"is not a card"), ("5H 5C 5S JD 5D --jsn", r"did you mean --json"),
    ]]
    out += [(["peg", *c.split()], m) for c, m in [
        ("", r"required: CARD"), ("X", r"'X' is neither a rank"), ("5H 5H", r"5H is laid twice"),
        ("5 5 5 5 5", r"all four cards"), ("0", r"'0' is neither"), ("11", r"'11' is neither"),
        ("--rules hoyle2 5", r"no rule preset called 'hoyle2'"), (BIG, r"is neither a rank"), ("5 --ruels acc", r"did you mean --rules"),
    ]]
    out += [(["advise", *c.split()], m) for c, m in [
        (" ".join(CARDS6), r"one of the arguments --dealer --pone is required"),
        (" ".join(CARDS6) + " --dealr", r"unrecognized option --dealr: did you mean --dealer\?"),
        (" ".join(CARDS6) + " --poen", r"did you mean --pone\?"),
        (" ".join(CARDS6) + " --dealer --pone", r"not allowed with argument --dealer"),
        ("5H 5C --dealer", r"deals 6 cards, not 2"), (" ".join(CARDS6) + " QD QS --dealer", r"deals 6 cards, not 8"),
        ("5H 5H 5S JD 9C KD --dealer", r"5H appears twice"), (" ".join(CARDS6) + " --dealer --players 5", r"invalid choice"),
        (" ".join(CARDS6) + " --dealer --players 3", r"3-player cribbage deals 5 cards"),
        (" ".join(CARDS6) + " --dealer --players x", r"--players: 'x' is not valid: expected 2, 3 or 4$"),
        (" ".join(CARDS6) + " --dealer --rules x", r"no rule preset called 'x'"),
    ]]
    for name, _, message in RECORDS:
        out.append((["replay", f"{{record:{name}}}"], message))
        out.append((["replay", "--json", f"{{record:{name}}}"], message))
    out += [(["replay", path], m) for path, m in UNREADABLE]
    out += [(["render", "--record", path, "--out", "{newdir}"], m) for path, m in UNREADABLE]
    out += [(["render", "--record", "{record:no-cut}", "--out", "{newdir}"], r"no one deals yet")]
    out += [(["render", "--record", "{record}", "--out", "{newdir}", "--scale", s], r"--scale: .*1-16")
            for s in ("0", "-1", "17", "x", "1.5", BIG)]
    out += [(["render", "--record", "{record}", "--out", "/proc/cribpi-no-such"], r"No such file or directory \(/proc/cribpi-no-such\)")]
    out += [(["render", "--record", "{record}", "--out", "{file}"], r"--out: .* is a file; expected a folder"),
            (["render", "--record", "{record}", "--out", "a\0b"], r"--out: .*NUL byte"),
            (["render", "--record", "{record}"], r"required: --out"),
            (["render", "--out", "{newdir}"], r"required: --record")]
    for name, _, message in CONFIGS:
        out.append((["config", "--check", f"{{config:{name}}}"], message))
        out.append((["run", "--config", f"{{config:{name}}}"], message))
    for name, _, message in LAYOUTS:
        out.append((["config", "--check", f"{{layout:{name}}}"], message))
    out += [(["run", "--config", "{config:nan-cap}", "--backend", "sim"], r"current_cap_ma = nan")]
    out += [(["config", "--check", path], m) for path, m in UNREADABLE]
    out += [(["run", "--config", path], m) for path, m in UNREADABLE]
    out += [(["config"], r"required: --check"), (["config", "--check"], r"expected one argument")]
    out += [(["run", "--backend", b], r"backend 'toaster'|--backend") for b in ("toaster",)]
    out += [(["run", "--game-length", "60"], r"--game-length: invalid choice: 60")]
    out += [(["run", "--backend", "mock", "--keys", path], m) for path, m in [
        ("{missing}", r"--keys: .* does not exist; expected a file or FIFO of actions"),
        ("{folder}", r"--keys: .* is a folder; expected a file or FIFO"), ("/dev/zero", r"is a device or socket"),
        ("a\0b", r"--keys: .*NUL byte"), ("~nosuchuser_cribpi/k", r"--keys: .*no user"),
    ]]
    out += [(["sim", *c.split()], m) for c, m in [
        ("--players 5", r"invalid choice"), ("--mode x", r"invalid choice"), ("--match 2", r"invalid choice"),
        ("--seed x", r"--seed: 'x' is not valid: expected a whole number 0-"), ("--players", r"expected one argument"), ("--rules nope", r"no rule preset"),
        ("--names Ann", r"--names 'Ann' gives a name for 2 players at the table; give one name per player"),
        ("--names A,B,C", r"--names 'A,B,C' gives 3 names for 2 players"),
        ("--players 3 --names A,B", r"gives 2 names for 3 players"),
        ("--names Ann,", r"--names 'Ann,': '' is not a name; each name is 1-12 printable characters"),
        ("--names Ann,Christopherson", r"'Christopherson' is not a name; each name is 1-12 printable"),
        ("--names Ann,Ann", r"^cribpi sim: --names 'Ann,Ann': player names must be distinct; 'Ann' is given twice$"),
        ("--names 3,4", r"^cribpi sim: --names '3,4': '3' has no letter; a name needs at least one letter"),
        ("--names Ann,4-2", r"--names 'Ann,4-2': '4-2' has no letter; a name needs at least one letter"),
        ("--game-length 100", r"--game-length: invalid choice: 100"), ("--game-length x", r"--game-length: 'x' is not valid: expected 121 or 61$"),
        ("--players 3 --rules five-card", r"--players 3 --rules five-card: five-card cribbage is for 2 players; "
                                          r"for 3 players use --rules acc, acc-tournament, hoyle, leaflet"),
        ("--rules five-card --game-length 121", r"--game-length 121: five-card cribbage is played to 61"),
        ("--db", r"expected one argument"), ("--db /dev/zero", r"--db '/dev/zero' is a device.*not a regular file"),
        ("--db {folder}", r"is a folder, not a regular file; expected a game journal file"),
        ("--db {fifo}", r"not a regular file"),
    ]]
    out += [(["sim", *c], m) for c, m in [
        (["--names", ""], r"--names '' gives|'' is not a name"), (["--names", "Ann,B\tb"], r"is not a name"),
        (["--names", "X" * 200 + ",Bob"], r"is not a name; each name is 1-12"),
        (["--names", "\u0663,\u0664"], r"--names '\u0663,\u0664': '\u0663' has no letter"),
        (["--db", "a\0b"], r"--db: .*NUL byte"), (["--db", "~nosuchuser_cribpi/x.db"], r"--db: .*no user"),
    ]]
    out += [(["export", *c.split()], m) for c, m in [
        ("0", r"argument game: '0' is not valid: expected a whole number 1-"),
        ("-1", r"expected a whole number 1-|expected one argument"), ("x", r"'x' is not valid"),
        (BIG, r"is not valid: expected a whole number"), ("99999999999999999999", r"expected a whole number 1-"),
        ("1.5", r"'1.5' is not valid"),
        ("--db {missing}", r"there is no game journal"), ("--db {folder}", r"there is no game journal"),
        ("--db {fifo}", r"there is no game journal"),
        ("--db {journal} 99", r"no game 99|game 99"),
        ("--db {journal} --list 1", r"--list with game 1: give a game's number to write it, or --list"),
    ]]
    out += [(["export", "--db", "a\0b"], r"NUL byte"), (["export", "--db", ""], r"expected the path of a game journal"),
            (["export", "--db", "~nosuchuser_cribpi/j.db"], r"no user")]
    out += [(["stats", *c], m) for c, m in [
        (["--db", "{missing}"], r"there is no game journal"), (["--db", "{folder}"], r"there is no game journal"),
        (["--db", "{fifo}"], r"there is no game journal"), (["--db", "a\0b"], r"NUL byte"),
        (["--db", ""], r"expected the path"), (["--db", "~nosuchuser_cribpi/j.db"], r"no user"),
        (["--jsn"], r"did you mean --json"), (["extra"], r"unrecognized arguments"),
    ]]
    out += [(["backup", *c], m) for c, m in [
        (["--keep", "0"], r"--keep: '0' is not valid: expected a whole number 1-10000"),
        (["--keep", BIG], r"--keep: .* expected a whole number"), (["--keep", "x"], r"'x' is not valid"),
        (["--db", "a\0b"], r"NUL byte"), (["--db", "{missing}"], r"no game journal"),
        (["--db", "{journal}", "--to", "{file}"], r"--to: .* is a file; expected a backup folder"),
        (["--config", "{fifo}"], r"not a regular file"), (["--config", "{config:nan-cap}"], r"current_cap_ma = nan"),
    ]]
    for command in ("install", "uninstall"):
        out += [([command, *c], m) for c, m in [
            (["--root", "{file}"], r"--root: .* is a file; expected a root folder"),
            (["--root", "a\0b"], r"NUL byte"), (["--root", "~nosuchuser_cribpi/r"], r"no user"),
            (["--dry-run", "extra"], r"unrecognized arguments"),
        ]]
    out += [(["flash", *c], m) for c, m in [
        ([], r"required: --layout"), (["--layout", "{missing}"], r"no such layout file"),
        (["--layout", "{fifo}"], r"not a regular file"), (["--layout", "a\0b"], r"NUL byte"),
        (["--layout", "{layoutfile:tracks}"], r"tracks = 5 .*2-4"), (["--layout", "{layoutfile:hole}"], r"holes are 1-121"),
        (["--layout", "{record}", "--firmware", "{file}"], r"--firmware: .* is a file; expected a firmware folder"),
    ]]
    out += [  # unknown words are said by the (sub)command they were given to, with what it takes
        (["score", "5H", "5C", "5S", "JD", "5D", "--nosuch"], r"^cribpi score: .*--nosuch: cribpi score takes --crib, --json, --rules"),
        (["stats", "--player", "Nobody"], r"^cribpi stats: .*--player: cribpi stats takes --db, --json"),
        (["stats", "extra"], r"^cribpi stats: error: unrecognized arguments: extra \(see cribpi stats --help\)"),
        (["director"], r"required: STEP \(one of init, serve\)"),
        (["director", "serve", "nosuchevent"], r"^cribpi director serve: .*unrecognized arguments: nosuchevent"),
        (["director", "init", "ok", "--tabels", "3"], r"^cribpi director init: .*did you mean --tables\?"),
        (["director", "init", "ok", "--nosuch"], r"cribpi director init takes .*--tables"),
    ]
    init = ["director", "init", "ev", "--dir", "{newdir}", "--tables", "2"]
    out += [([*init, *c], m) for c, m in [
        (["--bind", "1.2.3.4\nallow_anonymous true"], r"--bind '1.2.3.4\\nallow_anonymous true' is not valid: an IP address"),
        (["--bind", "foo bar"], r"--bind 'foo bar' is not valid: an IP address .* or a host name"),
        (["--broker-user", "a b"], r"--broker-user 'a b' is not valid: a user name"),
        (["--tls-cert", "{missing}", "--tls-key", "{file}"], r"--tls-cert: .*missing.txt: no such certificate"),
        (["--tls-cert", "{folder}", "--tls-key", "{file}"], r"--tls-cert: .*: a folder"),
        (["--tls-cert", "{file}"], r"--tls-cert and --tls-key go together"),
        (["--tls-cert", "{file}", "--tls-key", "{file}"], r"--tls-cert: .*plain.txt: no PEM block \(-----BEGIN \.\.\.\) in it"),
    ]]
    out += [(["director", "serve", "--dir", "{folder}"], r"holds no event: make one with  cribpi director init"),
            (["director", "serve", "--dir", "{folder}", "--ca", "{missing}"], r"--ca: .*no such CA certificate"),
            (["director", "serve", "--dir", "{folder}", "--ca", "{file}"], r"--ca: .*plain.txt: no PEM block"),
            (["director", "serve", "--dir", "{folder}", "--tls-cert", "{file}"],
             r"--tls-cert and --tls-key go together: the pages' certificate and its key"),
            (["director", "serve", "--dir", "{folder}", "--tls-cert", "{file}", "--tls-key", "{file}"],
             r"--tls-cert: .*plain.txt: no PEM block"),
            (["director", "serve", "--dir", "{folder}", "--tls-cert", "{missing}", "--tls-key", "{file}"],
             r"--tls-cert: .*no such certificate")]
    lg = ["loadgen", "--broker", "mqtt://127.0.0.1:1"]
    out += [([*lg, *c], m) for c, m in [
        (["--event", "a/b"], r"--event 'a/b' is not valid: the event's id"), (["--event", ""], r"--event '' is not valid"),
        (["--event", "e", "--credentials", "{file}"], r"--credentials: .*plain.txt: not valid JSON"),
        (["--event", "e", "--credentials", "{missing}"], r"--credentials: .*no such credentials file"),
        (["--event", "e", "--credentials", "{fifo}"], r"--credentials: .*not a regular file"),
    ]]
    out += [(["--no-such-option"], r"required: COMMAND \(one of score, peg, advise"), (["dance"], r"invalid choice: 'dance'")]
    # -- the last classes of bad input, each for every reader of it --
    # numbers in digits other than ASCII 0-9 (int() takes "١٢" and "１２")
    out += [(argv, rf"{option}: '{re.escape(text)}' is not valid: expected {accepted}") for argv, option, text, accepted in [
        (["render", "--record", "{record}", "--out", "{newdir}", "--scale", ARABIC["3"]], "--scale", ARABIC["3"], "a whole number 1-16"),
        (["render", "--record", "{record}", "--out", "{newdir}", "--scale", FULLWIDTH], "--scale", FULLWIDTH, "a whole number 1-16"),
        (["backup", "--keep", ARABIC["3"]], "--keep", ARABIC["3"], "a whole number 1-10000"),
        (["export", ARABIC["1"]], "argument game", ARABIC["1"], "a whole number 1-"),
        (["export", FULLWIDTH], "argument game", FULLWIDTH, "a whole number 1-"),
        (["export", "1_2"], "argument game", "1_2", "a whole number 1-"),
        (["sim", "--seed", arabic("12")], "--seed", arabic("12"), "a whole number 0-"),
        (["sim", "--match", ARABIC["3"]], "--match", ARABIC["3"], "1, 3, 5 or 7"),
        (["sim", "--game-length", arabic("61")], "--game-length", arabic("61"), "121 or 61"),
        (["run", "--game-length", arabic("61")], "--game-length", arabic("61"), "121 or 61"),
        (["run", "--game-length", "6_1"], "--game-length", "6_1", "121 or 61"),
        (["advise", *CARDS6, "--dealer", "--players", ARABIC["2"]], "--players", ARABIC["2"], "2, 3 or 4"),
        (["director", "init", "ev", "--dir", "{newdir}", "--tables", ARABIC["3"]], "--tables", ARABIC["3"], "a whole number 1-2000"),
        (["director", "init", "ev", "--dir", "{newdir}", "--port", arabic("1883")], "--port", arabic("1883"), "a whole number 1-65535"),
        (["director", "init", "ev", "--dir", "{newdir}", "--best-of", ARABIC["3"]], "--best-of", ARABIC["3"], "a whole number 1-15"),
        (["director", "init", "ev", "--dir", "{newdir}", "--final-best-of", FULLWIDTH], "--final-best-of", FULLWIDTH, "a whole number 1-15"),
        (["director", "init", "ev", "--dir", "{newdir}", "--round-games", ARABIC["1"]], "--round-games", ARABIC["1"], "a whole number 1-15"),
        (["director", "init", "ev", "--dir", "{newdir}", "--game-length", arabic("61")], "--game-length", arabic("61"), "121 or 61"),
        (["director", "serve", "--dir", "{folder}", "--http-port", arabic("8080")], "--http-port", arabic("8080"), "a whole number 1-65535"),
        ([*LOADGEN, "--tables", ARABIC["2"]], "--tables", ARABIC["2"], "a whole number 1-"),
        ([*LOADGEN, "--first-table", ARABIC["2"]], "--first-table", ARABIC["2"], "a whole number 1-"),
        ([*LOADGEN, "--per-process", ARABIC["2"]], "--per-process", ARABIC["2"], "a whole number 1-"),
        ([*LOADGEN, "--games", ARABIC["2"]], "--games", ARABIC["2"], "a whole number 1-1000"),
        ([*LOADGEN, "--seed", ARABIC["2"]], "--seed", ARABIC["2"], "a whole number 0-"),
        ([*LOADGEN, "--pace", ARABIC["1"]], "--pace", ARABIC["1"], "a number 0-60"),
        ([*LOADGEN, "--pace", "nan"], "--pace", "nan", "a number 0-60"),
        ([*LOADGEN, "--pace", "1_0"], "--pace", "1_0", "a number 0-60"),
    ]]
    out += [(["director", "serve", "--dir", "{folder}", "--broker", f"mqtt://127.0.0.1:{arabic('1883')}"],
             r"--broker: broker 'mqtt://127.0.0.1:١٨٨٣' is not valid: mqtt://host\[:port\] .*a port 1-65535"),
            (["loadgen", "--broker", f"mqtt://127.0.0.1:{arabic('1883')}", "--event", "e"], r"--broker: broker 'mqtt://127.0.0.1:١٨٨٣' is not valid"),
            (["loadgen", "--broker", f"mqtt://127.0.0.1:{FULLWIDTH}", "--event", "e"], r"--broker: broker 'mqtt://127.0.0.1:１２' is not valid"),
            (["director", "serve", "--dir", "{folder}", "--host", ".".join(arabic(d) for d in "1234")],
             r"--host: '١.٢.٣.٤' is not valid: an IP address"),
            (["director", "init", "ev", "--dir", "{newdir}", "--bind", ".".join(arabic(d) for d in "1234")], r"--bind '١.٢.٣.٤' is not valid")]
    out += [(["score", f"{ARABIC['5']}H", "5C", "5S", "JD", "5D"], r"'٥H' is not a card"),
            (["score", "5H", "5C", "5S", "JD", f"{FULLWIDTH[0]}0D"], r"'１0D' is not a card"),
            (["peg", ARABIC["5"]], r"'٥' is neither a rank"), (["peg", f"{FULLWIDTH[0]}0"], r"'１0' is neither a rank")]
    # control characters and terminal escapes: refused at input, escaped wherever echoed
    out += [(["sim", "--names", f"Ann{CLEAR},Ben"], r"--names 'Ann\\x1b\[2J,Ben': 'Ann\\x1b\[2J' is not a name; each name is 1-12 printable"),
            (["sim", "--names", f"Ann,{RLO}Ben"], r"'\\u202eBen' is not a name"),
            (["sim", "--names", f"A{CSI},Ben"], r"'A\\x9b2J' is not a name"),
            (["sim", "--names", f"{TITLE},Ben"], r"'\\x1b\]0;pwned\\x07' is not a name"),
            (["sim", "--mode", CLEAR], r"--mode: invalid choice: '\\x1b\[2J'"),
            (["score", f"5{CLEAR}", "5H"], r"'5\\x1b\[2J' is not a card"), (["peg", RED], r"'\\x1b\[31m' is neither a rank"),
            (["advise", *CARDS6, "--dealer", "--rules", CLEAR], r"no rule preset called '\\x1b\[2J'"),
            (["run", "--backend", CLEAR], r"--backend: backend '\\x1b\[2J'"),
            (["director", "init", f"ev{CLEAR}", "--dir", "{newdir}"], r"event 'ev\\x1b\[2J' is not valid"),
            ([*LOADGEN[:3], "--event", f"e{RED}"], r"--event 'e\\x1b\[31m' is not valid"),
            (["loadgen", "--broker", f"mqtt://x{CLEAR}:1", "--event", "e"], r"--broker: broker 'mqtt://x\\x1b\[2J:1' is not valid"),
            (["director", "serve", "--dir", "{folder}", "--broker", f"mqtt://x{TITLE}"], r"--broker: broker 'mqtt://x\\x1b\]0;pwned\\x07' is not valid"),
            (["director", "serve", "--dir", "{folder}", "--host", f"h{CLEAR}"], r"--host: 'h\\x1b\[2J' is not valid"),
            (["stats", f"extra{CLEAR}"], r"unrecognized arguments: extra\\x1b\[2J")]
    out += [(argv, r"nofile\\x1b\[2J\\x1b\]0;pwned\\x07\.\w+: no such|'nofile\\x1b\[2J\\x1b\]0;pwned\\x07\.\w+'")
            for argv in (["replay", ESCAPED_PATH], ["config", "--check", ESCAPED_PATH], ["run", "--config", ESCAPED_PATH],
                         ["backup", "--config", ESCAPED_PATH], ["render", "--record", ESCAPED_PATH, "--out", "{newdir}"],
                         ["flash", "--layout", ESCAPED_PATH], ["run", "--backend", "mock", "--keys", ESCAPED_PATH])]
    out += [(["export", "--db", ESCAPED_PATH], r"there is no game journal at nofile\\x1b\[2J"),
            (["stats", "--db", ESCAPED_PATH], r"there is no game journal at nofile\\x1b\[2J"),
            (["backup", "--db", ESCAPED_PATH], r"nofile\\x1b\[2J\\x1b\]0;pwned\\x07"),
            (["render", "--record", "{record}", "--out", "{file}"], r"--out: .*plain.txt is a file")]
    # a huge input: what is quoted is cut, and its length said
    out += [(argv, rf"{LONG[:20]}.*\.\.\..* \([35]\d\d\d characters\)") for argv in (
        ["sim", "--mode", LONG], ["score", LONG + "H", "5H"], ["peg", LONG], ["sim", "--seed", LONG], ["sim", "--names", LONG + ",Ben"],
        ["advise", *CARDS6, "--dealer", "--rules", LONG], ["run", "--backend", LONG], ["export", LONG], ["backup", "--keep", LONG],
        ["director", "init", LONG, "--dir", "{newdir}"], ["replay", "/nope/" + LONG[:3000]], ["config", "--check", LONG],
        ["stats", LONG], ["render", "--record", "{record}", "--out", "{newdir}", "--scale", LONG],
        [*LOADGEN, "--pace", LONG], ["run", "--game-length", LONG], ["run", "--backend", "mock", "--keys", LONG],
    )]
    # an empty path to an option that takes one (never the default instead)
    out += [(argv, r"'': an empty path; expected the path of a") for argv in (
        ["replay", ""], ["config", "--check", ""], ["run", "--config", ""], ["backup", "--config", ""], ["backup", "--db", ""],
        ["backup", "--to", ""], ["render", "--record", "", "--out", "{newdir}"], ["render", "--record", "{record}", "--out", ""],
        ["run", "--backend", "mock", "--keys", ""], ["sim", "--db", ""], ["export", "--db", ""], ["stats", "--db", ""],
        ["director", "init", "ev", "--dir", ""], ["director", "init", "ev", "--dir", "{newdir}", "--tls-cert", "", "--tls-key", "{file}"],
        ["director", "init", "ev", "--dir", "{newdir}", "--admin-password-file", ""], ["director", "serve", "--dir", ""],
        ["director", "serve", "--dir", "{folder}", "--ca", ""], ["director", "serve", "--dir", "{folder}", "--admin-password-file", ""],
        ["flash", "--layout", ""], ["flash", "--layout", "{record}", "--firmware", ""], ["flash", "--layout", "{record}", "--port", ""],
        [*LOADGEN, "--credentials", ""],
        [*LOADGEN, "--outbox-dir", ""], ["install", "--root", ""], ["uninstall", "--root", ""],
    )]
    return out
