"""Committed transactions that SQLite's WAL recovery would drop without a word.

SQLite reads a ``-wal`` file up to the first frame whose checksum fails and ignores the rest:
right for a tail torn by a crash (that transaction was never acknowledged), but a frame
overwritten in the *middle* makes it drop every later commit too, silently. So before the
journal is opened its WAL is scanned: each complete frame that carries the WAL's current salts
and marks a commit (formats: https://www.sqlite.org/fileformat.html#the_write_ahead_log and
https://www.sqlite.org/walformat.html). After SQLite has opened it, the wal-index header in
``-shm`` gives ``mxFrame``, the last frame it accepted. A commit frame of this WAL beyond
``mxFrame`` is a transaction that was written and fsynced, then lost: the journal is damaged.

A frame SIGKILL cut short (header written, page not) is incomplete and never counts, and a
single commit beyond ``mxFrame`` that ends the WAL is the torn tail of a crash (the
transaction being written, never acknowledged). The limit: damage confined to the frames of
the WAL's *last* transaction looks exactly like that torn tail, so it is read as one and that
one transaction is dropped, as SQLite would; damage anywhere earlier is caught.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import struct
import sys
from typing import BinaryIO, Final

__all__ = ["WalScan", "scan_wal", "lost_commits"]

_MAGIC: Final = (0x377F0682, 0x377F0683)
_HEADER: Final = 32
_FRAME_HEADER: Final = 24
_VERSION: Final = 3007000


@dataclasses.dataclass(frozen=True, slots=True)
class WalScan:
    """What the -wal holds: its salts (as bytes), whether its header is sound, and the
    1-based numbers of the complete commit frames that carry those salts."""

    salts: bytes
    header_ok: bool
    commits: tuple[int, ...]
    last: int  # the last complete frame that carries the salts


def scan_wal(journal: str) -> WalScan | None:
    """The WAL beside ``journal`` read frame header by frame header; None if there is none."""
    try:
        with open(journal + "-wal", "rb") as wal:
            size = os.fstat(wal.fileno()).st_size
            header = wal.read(_HEADER)
            if len(header) < _HEADER:
                return None
            magic, version, page_size, _, _, _ = struct.unpack(">6I", header[:24])
            header_ok = (magic in _MAGIC and version == _VERSION and _checksum(header[:24], magic & 1)
                         == struct.unpack(">2I", header[24:32]) and _is_page_size(page_size))
            if not header_ok:  # the frames tell the page size and salts a damaged header had
                guess = _guess(wal, size, page_size)
                if guess is None:
                    return None
                page_size, salts = guess
            else:
                salts = header[16:24]
            frame = _FRAME_HEADER + page_size
            commits, last = [], 0
            for number in range(1, (size - _HEADER) // frame + 1):  # complete frames only
                wal.seek(_HEADER + (number - 1) * frame)
                head = wal.read(_FRAME_HEADER)
                if head[8:16] == salts:
                    last = number
                    if struct.unpack(">I", head[4:8])[0]:
                        commits.append(number)
    except OSError:  # none, or not ours to read: SQLite says what it finds
        return None
    return WalScan(salts, header_ok, tuple(commits), last)


def lost_commits(journal: str, scan: WalScan | None) -> str | None:
    """Why the journal has lost committed transactions, once SQLite has opened it (so its
    -shm holds the frames it accepted); None if it has lost none."""
    if scan is None or not scan.commits:
        return None
    if not scan.header_ok:
        return f"the header of its -wal is damaged: {len(scan.commits)} committed transaction(s) there are unreadable"
    try:
        with open(journal + "-shm", "rb") as shm:
            index = shm.read(48)
    except OSError:  # SQLite kept its index in memory: nothing to compare with
        return None
    if len(index) < 48 or index[32:40] != scan.salts:  # the WAL was restarted meanwhile: all checkpointed
        return None
    accepted = int.from_bytes(index[16:20], sys.byteorder)
    lost = [n for n in scan.commits if n > accepted]
    if lost == [scan.commits[-1]] and scan.commits[-1] == scan.last:
        return None  # only the last transaction, to the end of the WAL: a torn tail, never acknowledged
    if not lost:
        return None
    return (f"its -wal fails its checksum at frame {accepted + 1}: {len(lost)} committed "
            f"transaction(s) after it would be lost")


def _is_page_size(size: int) -> bool:
    return 512 <= size <= 65536 and size & (size - 1) == 0


def _guess(wal: BinaryIO, size: int, stated: int) -> tuple[int, bytes] | None:
    """(page size, salts) for a WAL whose header is damaged: the size (the header's own, if
    it is a valid one, first) at which the most frames carry the same salts, two at least."""
    for page_size in dict.fromkeys([stated, 4096, 1024, 2048, 8192, 16384, 32768, 65536, 512]):
        if not _is_page_size(page_size):
            continue
        frame = _FRAME_HEADER + page_size
        seen: collections.Counter[bytes] = collections.Counter()
        for number in range((size - _HEADER) // frame):
            wal.seek(_HEADER + number * frame + 8)
            seen[wal.read(8)] += 1
        if seen:
            salts, count = seen.most_common(1)[0]
            if count >= 2 and any(salts):
                return page_size, salts
    return None


def _checksum(data: bytes, big_endian: int) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), from zero."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    s0 = s1 = 0
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1
