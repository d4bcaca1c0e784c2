"""The app's one memo of states seen lately: what each was decoded to, whether it was checked,
what its seal opened to.

A client sends back the state it was handed, to validate an action and then to apply it, so the
referee meets the same state's bytes again and again. An entry (`Seen`) is kept under the
SHA-256 of the bytes a state was decoded from (the `state` of a body as sent, or the encoding
the referee handed out) or under its seal: the decoded state (the next body with those bytes
takes it instead of decoding them: 11 us for a 3 kB state), what opening it gave (the seal
decrypted and its public part compared once per spelling of the bytes), and whether the whole
state passed the consistency check (which then runs once per state, not once per request).
Equal digests mean equal bytes, so the same state; a seal names one whole state.

One per app (`create_app` puts it in the app's state; a call without an app, such as the CLI's,
makes its own): its lifetime is the app's. An LRU of `size` entries: the event loop and the
render threads reach it at once, so each lookup and each addition runs whole under a lock (a
lookup is a test and a move, an addition an insert and an eviction; another thread's eviction
between a test and its move raised KeyError, a 500, in the memo this one replaces).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

from service.seal import Opened


class Seen:
    """A state the referee met: `state` (decoded from the entry's bytes, or behind its seal),
    `checked` (the whole state passed the consistency check), `opened` (what opening it gave:
    the whole state, its digest and game; None until opened) and, for a seal's entry, `public`
    (the public part the state was sealed with); for an entry of bytes, `digest`, its key."""

    __slots__ = ("checked", "digest", "opened", "public", "state")

    def __init__(self, state: Any, checked: bool = False, opened: Opened | None = None,
                 public: Any = None, digest: bytes | None = None) -> None:
        self.state = state
        self.checked = checked
        self.opened = opened
        self.public = public
        self.digest = digest


class States:
    """The memo: `Seen` entries by digest of bytes (`digest`) or by seal, least recently used
    evicted past `size`."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._entries: OrderedDict[bytes | str, Seen] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def digest(encoded: bytes) -> bytes:
        """The key of a state's bytes: SHA-256 (hardware-accelerated here), which no one can make
        collide."""
        return hashlib.sha256(encoded).digest()

    def get(self, key: bytes | str) -> Seen | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: bytes | str, entry: Seen) -> Seen:
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            if len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return entry

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
