"""One writer per journal: an OS lock on ``NAME.lock`` beside it, held for the writer's life.

``flock`` rather than a PID file: the kernel drops the lock when the process dies however it
dies (SIGKILL, a power cut), so a stale lock can never keep the table from starting, and there
is nothing to clean up. The lock is on a file of its own, not on the journal: SQLite uses
POSIX record locks on the journal, and closing any other descriptor of that file would drop
them. The holder writes its pid and command line into the lock file, only so that the next
process can name it; the lock itself is the ``flock``.

Readers (``stats``, ``export``, backups) never take it: they open the journal read-only.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys

from cribpi.exc import JournalLocked, StoreError

__all__ = ["WriterLock", "lock_path"]


def lock_path(journal: str) -> str:
    return journal + ".lock"


class WriterLock:
    """The writer's lock on ``journal``; raises JournalLocked naming the holder if it is taken."""

    def __init__(self, journal: str) -> None:
        self.path = lock_path(journal)
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot open the game journal {journal} (its lock {self.path}: {exc.strerror}): "
                             "check that its folder exists and is writable") from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(self._fd)
            self.release()
            raise JournalLocked(f"{journal} is in use by {holder}: one program writes a journal at a "
                                "time; stop that one first, or give another journal file") from None
        with contextlib.suppress(OSError):  # a full disk: the lock holds, only the name is missing
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{os.getpid()}\n{_command()}\n".encode(), 0)

    def release(self) -> None:
        """Unlock (closing the descriptor drops the flock). The file stays: deleting it could
        let two processes lock two different files of the same name."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _command() -> str:
    return " ".join([os.path.basename(sys.executable), *sys.argv])[:200]


def _holder(fd: int) -> str:
    """'process PID (COMMAND)' from what the holder wrote, checked against /proc when there is one."""
    try:
        text = os.pread(fd, 512, 0).decode(errors="replace")
    except OSError:
        text = ""
    pid, _, command = text.partition("\n")
    if not pid.strip().isdigit():
        return "another process (it has not written its pid yet)"
    try:
        with open(f"/proc/{pid.strip()}/cmdline", "rb") as proc:
            command = proc.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        pass
    command = " ".join(command.split())  # one line, whatever the command held
    return f"process {pid.strip()}" + (f" ({command[:120]})" if command else "")
