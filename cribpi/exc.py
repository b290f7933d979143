"""One error tree for the whole project; each error is also a builtin."""


class CribpiError(Exception):
    """Base of every error cribpi raises on purpose."""

    #: What the command line exits with: 2 for input the user can correct (a bad card, key,
    #: file or option), 1 for a machine that cannot do it (a journal held, damaged or full).
    exit_code = 2


class RulesError(CribpiError, ValueError):
    """Input that the rules of cribbage do not allow."""


class CardError(RulesError):
    """A card token that does not name a card."""


class RecordError(CribpiError, ValueError):
    """A game record that cannot be read."""


class ConfigError(CribpiError, ValueError):
    """A configuration or layout file that is not valid."""


class StoreError(CribpiError, OSError):
    """A game journal that cannot be opened, read or written (not a cribpi database, corrupt,
    from a newer cribpi, or holding an event that no longer replays)."""


class JournalLocked(StoreError):
    """Another process is writing the journal (one writer per journal: its lock file is held)."""

    exit_code = 1


class JournalDamaged(StoreError):
    """A journal that fails its checks: never written to; a table moves it aside and starts afresh.
    ``reason`` is what is wrong with it, without the advice of the message."""

    exit_code = 1
    reason: str | None = None


class JournalFull(StoreError):
    """The disk holding the journal is full: the event was not stored, and may be tried again."""

    exit_code = 1


class HardwareError(CribpiError, OSError):
    """A hardware part that failed or went away."""


class ViewError(CribpiError, ValueError):
    """A view model that cannot be drawn (a peg off the board, an unknown screen)."""

