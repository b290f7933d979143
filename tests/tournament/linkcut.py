"""A link between a room's bridge and the director's broker that a test (or a benchmark) can
cut and bring back: a TCP relay on a free loopback port. Cut, it closes every connection
through it (the bridge sees its link drop, the director's broker its will) and refuses new
ones until it is back, as a pulled cable or a VPN down would, minus the keepalive's wait."""

from __future__ import annotations

import socket
import threading


class LinkCut:
    def __init__(self, target: int) -> None:
        self.target = target
        self.lock = threading.Lock()
        self.conns: list[socket.socket] = []
        self.listener: socket.socket | None = None
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.restore()

    @property
    def up(self) -> bool:
        return self.listener is not None

    def restore(self) -> None:
        """The link back: connections are taken (and relayed to the director's broker) again."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """The link down: every connection through it closed, none taken till ``restore``."""
        with self.lock:
            listener, self.listener = self.listener, None
            conns, self.conns = self.conns, []
        if listener is not None:
            _close(listener)  # shutdown first: a close alone leaves it listening while accept() waits on it
        for conn in conns:
            _close(conn)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                near, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                far = socket.create_connection(("127.0.0.1", self.target), 5)
                far.settimeout(None)  # the 5 s were for connecting: a quiet link is no dead one
            except OSError:
                _close(near)
                continue
            with self.lock:
                if self.listener is not listener:
                    _close(near)
                    _close(far)
                    return
                self.conns += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=_pump, args=(a, b), daemon=True).start()


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    _close(src)
    _close(dst)


def _close(conn: socket.socket) -> None:
    try:
        conn.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    conn.close()
