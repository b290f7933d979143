"""A file system that keeps only what was made durable, for power-cut tests (in the spirit of
LazyFS and of SQLite's own crash tests).

Mounted with FUSE (mfusepy over libfuse 3), it holds every file in memory twice: as written
(what the programs on it see) and as made durable: a file's data becomes durable when the file
is fsynced (fsync or fdatasync), a directory's entries (a file created, renamed or removed)
when the directory is fsynced. :meth:`CrashFS.cut` is the power cut: it returns the durable
image, what a disk would hold after the cut, and the programs go on unaware; ``cut_at`` cuts
before chosen operations, from inside the file system, so the cut falls anywhere in a write.
A file never fsynced comes back empty (ext4's data=ordered shows a new file's blocks only once
written back); a directory entry never made durable is gone, and with it everything under it.

The durable name space is kept per directory (inode), as a disk keeps it: a directory's fsync
makes durable its own entries, the names in it and the inodes they point to, not its own name
in its parent. The image is what can be reached from the root through durable entries only:
a file whose folder's entry was never made durable is lost, even if its own entry was; a
folder renamed (and its new parent fsynced) takes its children with it.

By default a cut keeps none of a file's writes since its last fsync (the strictest disk).
``unsynced=p`` keeps each of them with probability p (seeded), in the order they were made: a
disk that wrote some of its cache back before the power went, in any order of its choosing.
"""

from __future__ import annotations

import errno
import os
import random
import shutil
import stat
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import mfusepy

__all__ = ["CrashFS", "Image", "count_then_cut", "durable_folder", "mount", "mounted", "restore"]

#: path -> file contents, as a disk would hold them after the cut; a folder's path ends in "/"
#: (its contents b""), so an empty folder that was made durable comes back too.
Image = dict[str, bytes]


@dataclass
class Node:
    mode: int
    data: bytearray = field(default_factory=bytearray)
    durable: bytes = b""
    mtime: float = field(default_factory=time.time)
    #: writes (offset, data) and truncations (length, None) since the last fsync
    pending: list[tuple[int, bytes | None]] = field(default_factory=list)

    def written_back(self, rng: random.Random, share: float) -> bytes:
        """The durable data with a random ``share`` of the pending writes applied."""
        data = bytearray(self.durable)
        for offset, chunk in self.pending:
            if rng.random() >= share:
                continue
            if chunk is None:
                del data[offset:]
                data.extend(bytes(offset - len(data)))
            else:
                data.extend(bytes(max(0, offset - len(data))))
                data[offset:offset + len(chunk)] = chunk
        return bytes(data)


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] or "/"


class CrashFS(mfusepy.Operations):
    """The file system's state; ``cut_at`` (operation numbers) and ``on_cut`` take images."""

    use_ns = True

    def __init__(self, unsynced: float = 0.0, seed: int = 0) -> None:
        self.unsynced, self.rng = unsynced, random.Random(seed)
        self._mutex = threading.RLock()
        self.nodes: dict[int, Node] = {1: Node(stat.S_IFDIR | 0o755)}
        self.entries: dict[str, int] = {"/": 1}  # as the programs see them
        self.durable_children: dict[int, dict[str, int]] = {1: {}}  # folder inode -> name -> inode, on the disk
        self.next_ino = 2
        self.ops = 0
        self.cut_at: set[int] = set()
        self.fsyncs: dict[str, int] = {}  # fsyncs of each file, as a test's evidence of what ran
        self.on_cut: Callable[[Image], None] = lambda image: None

    # -- the power cut ------------------------------------------------------------------------
    def cut(self) -> Image:
        """What a disk would hold if the power went now: what the root reaches through durable
        entries (every folder on the way durable in its own parent), with durable data."""
        with self._mutex:
            image: Image = {}
            seen = {1}  # snapshots of folders taken at different times could make a cycle

            def walk(folder: int, prefix: str) -> None:
                for name, ino in sorted(self.durable_children.get(folder, {}).items()):
                    node = self.nodes[ino]
                    if stat.S_ISDIR(node.mode):
                        if ino not in seen:
                            seen.add(ino)
                            image[prefix + name + "/"] = b""
                            walk(ino, prefix + name + "/")
                    else:
                        image[prefix + name] = node.written_back(self.rng, self.unsynced) if self.unsynced \
                            else node.durable

            walk(1, "/")
            return image

    def arm(self, cut_at: set[int]) -> None:
        """Count the operations from now on, and cut before those numbered in ``cut_at``."""
        self.ops, self.cut_at = 0, cut_at

    def _op(self) -> None:
        self.ops += 1
        if self.ops in self.cut_at:
            self.on_cut(self.cut())

    def _node(self, path: str) -> Node:
        try:
            return self.nodes[self.entries[path]]
        except KeyError:
            raise mfusepy.FuseOSError(errno.ENOENT) from None

    # -- metadata -----------------------------------------------------------------------------
    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        with self._mutex:
            node = self._node(path)
            ns = int(node.mtime * 1e9)
            return {"st_mode": node.mode, "st_nlink": 2 if stat.S_ISDIR(node.mode) else 1,
                    "st_size": len(node.data), "st_uid": os.getuid(), "st_gid": os.getgid(),
                    "st_mtime": ns, "st_ctime": ns, "st_atime": ns, "st_ino": self.entries[path]}

    def readdir(self, path: str, fh: int) -> Iterable[str]:
        with self._mutex:
            prefix = path.rstrip("/") + "/"
            names = [p[len(prefix):] for p in self.entries if p != path and p.startswith(prefix)
                     and "/" not in p[len(prefix):]]
        return [".", "..", *names]

    def statfs(self, path: str) -> dict[str, int]:
        return {"f_bsize": 4096, "f_frsize": 4096, "f_blocks": 1 << 20, "f_bfree": 1 << 19,
                "f_bavail": 1 << 19, "f_files": 1 << 16, "f_ffree": 1 << 15, "f_namemax": 255}

    def chmod(self, path: str, mode: int) -> int:
        with self._mutex:
            node = self._node(path)
            node.mode = (node.mode & ~0o7777) | (mode & 0o7777)
        return 0

    def chown(self, path: str, uid: int, gid: int) -> int:
        return 0

    def utimens(self, path: str, times: tuple[int, int] | None = None) -> int:
        with self._mutex:
            self._node(path).mtime = times[1] / 1e9 if times else time.time()
        return 0

    def access(self, path: str, amode: int) -> int:
        with self._mutex:
            self._node(path)
        return 0

    # -- the name space (volatile until the directory is fsynced) -------------------------------
    def _add(self, path: str, mode: int) -> int:
        with self._mutex:
            self._op()
            if _parent(path) not in self.entries:
                raise mfusepy.FuseOSError(errno.ENOENT)
            if path in self.entries:
                raise mfusepy.FuseOSError(errno.EEXIST)
            ino, self.next_ino = self.next_ino, self.next_ino + 1
            self.nodes[ino] = Node(mode)
            self.entries[path] = ino
            return ino

    def create(self, path: str, mode: int, fi: Any = None) -> int:
        self._add(path, stat.S_IFREG | (mode & 0o7777))
        return 0

    def mknod(self, path: str, mode: int, dev: int) -> int:
        if not stat.S_ISREG(mode):
            raise mfusepy.FuseOSError(errno.EPERM)
        return self.create(path, mode)

    def mkdir(self, path: str, mode: int) -> int:
        self._add(path, stat.S_IFDIR | (mode & 0o7777))
        return 0

    def unlink(self, path: str) -> int:
        with self._mutex:
            self._op()
            self._node(path)
            del self.entries[path]
        return 0

    def rmdir(self, path: str) -> int:
        with self._mutex:
            self._op()
            if any(p.startswith(path.rstrip("/") + "/") for p in self.entries):
                raise mfusepy.FuseOSError(errno.ENOTEMPTY)
            self._node(path)
            del self.entries[path]
        return 0

    def rename(self, old: str, new: str) -> int:
        with self._mutex:
            self._op()
            ino = self.entries.pop(old, None)
            if ino is None:
                raise mfusepy.FuseOSError(errno.ENOENT)
            if new.startswith(old + "/"):
                self.entries[old] = ino
                raise mfusepy.FuseOSError(errno.EINVAL)
            under = new.rstrip("/") + "/"
            for p in [p for p in self.entries if p.startswith(under)]:  # an empty folder replaced
                del self.entries[p]
            self.entries[new] = ino
            inside = old.rstrip("/") + "/"
            for p in [p for p in self.entries if p.startswith(inside)]:  # a folder takes its children
                self.entries[under + p[len(inside):]] = self.entries.pop(p)
        return 0

    def fsyncdir(self, path: str, datasync: int, fh: int) -> int:
        """The directory's entries made durable as they are now (its files' data is not)."""
        with self._mutex:
            self._op()
            prefix = path.rstrip("/") + "/"
            folder = self.entries[path]
            self.durable_children[folder] = {p[len(prefix):]: ino for p, ino in self.entries.items()
                                             if p.startswith(prefix) and p != path and "/" not in p[len(prefix):]}
        return 0

    # -- data (volatile until the file is fsynced) ------------------------------------------------
    def open(self, path: str, flags: int) -> int:
        with self._mutex:
            self._node(path)
            if flags & os.O_TRUNC:
                self.truncate(path, 0)
        return 0

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        with self._mutex:
            return bytes(self._node(path).data[offset:offset + size])

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        with self._mutex:
            self._op()
            node = self._node(path)
            if offset > len(node.data):
                node.data.extend(bytes(offset - len(node.data)))
            node.data[offset:offset + len(data)] = data
            node.pending.append((offset, bytes(data)))
            node.mtime = time.time()
            return len(data)

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        with self._mutex:
            self._op()
            node = self._node(path)
            if length < len(node.data):
                del node.data[length:]
            else:
                node.data.extend(bytes(length - len(node.data)))
            node.pending.append((length, None))
        return 0

    def fsync(self, path: str, datasync: int, fh: int) -> int:
        """The file's data made durable (its name only by an fsync of its directory)."""
        with self._mutex:
            self._op()
            node = self._node(path)
            node.durable = bytes(node.data)
            node.pending.clear()
            self.fsyncs[path] = self.fsyncs.get(path, 0) + 1
        return 0

    def flush(self, path: str, fh: int) -> int:
        return 0

    def release(self, path: str, fh: int) -> int:
        return 0


def mount(fs: CrashFS, where: Path) -> Callable[[], None]:
    """Mount ``fs`` at ``where`` (a thread serves it); returns the unmount."""
    where.mkdir(parents=True, exist_ok=True)
    thread = threading.Thread(target=lambda: mfusepy.FUSE(fs, str(where), foreground=True, nothreads=False,
                                                          attr_timeout=0, entry_timeout=0,
                                                          negative_timeout=0),
                              name="crashfs", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not os.path.ismount(where):
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the crash file system did not mount at {where}")
        time.sleep(0.02)

    def unmount() -> None:
        for argv in (["fusermount3", "-u", "-z", str(where)], ["umount", "-l", str(where)]):
            if shutil.which(argv[0]) and subprocess.run(argv, capture_output=True).returncode == 0:
                break
        thread.join(10)

    return unmount


def durable_folder(where: Path) -> None:
    """The state folder as systemd made it long ago: its entry durable."""
    (where / "state").mkdir()
    fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def mounted(where: Path, state: bool = True, unsynced: float = 0.0, seed: int = 0) -> Iterator[CrashFS]:
    """A fresh crash file system at ``where`` (with its durable state folder, unless not
    ``state``), unmounted when the block ends; ``unsynced``: see :class:`CrashFS`."""
    fs = CrashFS(unsynced, seed)
    unmount = mount(fs, where)
    try:
        if state:
            durable_folder(where)
        yield fs
    finally:
        unmount()


def restore(folder: Path, image: Image) -> Path:
    """Write what the disk kept (``image``) into ``folder``, as the next boot finds it; returns it.
    No folder is made that the image does not hold (a file whose folder was lost is not in it)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(image):  # a folder before what is in it
        target = folder / path.strip("/")
        if path.endswith("/"):
            target.mkdir()
        else:
            target.write_bytes(image[path])
    return folder


T = TypeVar("T")


def count_then_cut(run: Callable[[str, set[int]], tuple[int, list[T]]], seed: int, cuts: int,
                   share: float) -> list[T]:
    """``run(name, cut_at)`` once to count its operations, then again cut at ``cuts`` of them
    chosen at random (seeded); at least ``share`` of the cuts must fall in the second run (its
    timing may move the operations a little). Returns the second run's cuts."""
    ops, _ = run("count", set())
    cut_at = set(random.Random(seed).sample(range(1, ops + 1), min(cuts, ops)))
    _, images = run("cut", cut_at)
    assert len(images) >= len(cut_at) * share, f"{len(images)} of {len(cut_at)} cuts fell in the second run"
    return images
