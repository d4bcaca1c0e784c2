"""Sealed states: the public part readable, the whole state encrypted and authenticated.

A stateless referee hands its whole state to the client, hidden information included (the
deck's and the bag's order, the generator, hands, face-down cards, secret choices). With
sealing on (SEAL_KEYS or SEAL_KEYS_FILE), every state the referee emits is its public part
(`engine.secrecy.conceal`: hidden fields emptied) plus a `seal`: the whole state encrypted with
AES-SIV (`cryptography`'s AESSIV, RFC 5297), which authenticates it and, being deterministic,
keeps "same request, same bytes" (an equal state always gets an equal seal). The seal is
`v1.<key id>.<base64url ciphertext>`; the associated data binds the version and the key id.

Opening a sealed state decrypts it and checks that its public part is exactly the state's own:
an altered public field, a flipped or cut seal, a seal from another state or sealed with a key
that is not accepted is refused (422 `bad-seal`). Several keys are accepted, the first seals:
rotate by putting a new key first, and drop the old one once no game still uses it.
This module is the edge: the engine never sees a seal.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

import msgspec
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESSIV

from service.engine.secrecy import conceal
from service.engine.state import GameState

VERSION = "v1"
KEY_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
KEY_BYTES = (32, 48, 64)  # AES-128-, AES-192- and AES-256-SIV
_ENCODE = msgspec.json.Encoder().encode
_DECODE_STATE = msgspec.json.Decoder(GameState)


class SealError(ValueError):
    """A state the referee cannot accept under its sealing settings: `error` is the code."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message


class SealingKeyError(ValueError):
    """A sealing key setting that cannot be used (the message names the problem)."""


def parse_keys(text: str) -> tuple[tuple[str, bytes], ...]:
    """`kid:base64key` entries, separated by commas or new lines; the first one seals."""
    keys: list[tuple[str, bytes]] = []
    for n, entry in enumerate(e.strip() for e in re.split(r"[,\n]", text)):
        if not entry or entry.startswith("#"):
            continue
        kid, sep, encoded = entry.partition(":")
        if not sep or not KEY_ID.match(kid):
            raise SealingKeyError(f"entry {n + 1}: expected <key id>:<base64 key>, the key id of 1 to 32 "
                            "letters, digits, '-' or '_'")
        try:
            key = base64.urlsafe_b64decode(encoded.strip().replace("+", "-").replace("/", "_")
                                           + "=" * (-len(encoded.strip()) % 4))
        except (binascii.Error, ValueError):
            raise SealingKeyError(f"key {kid!r}: not base64") from None
        if len(key) not in KEY_BYTES:
            raise SealingKeyError(f"key {kid!r}: {len(key)} bytes; AES-SIV keys have 32, 48 or 64 bytes "
                            "(`referee keygen` makes one)")
        if any(k == kid for k, _ in keys):
            raise SealingKeyError(f"key id {kid!r} appears twice")
        keys.append((kid, key))
    if not keys:
        raise SealingKeyError("no key")
    return tuple(keys)


def new_key(kid: str) -> str:
    """A fresh `kid:key` entry (64 random bytes: AES-256-SIV)."""
    if not KEY_ID.match(kid):
        raise SealingKeyError(f"key id {kid!r}: 1 to 32 letters, digits, '-' or '_'")
    return f"{kid}:{base64.urlsafe_b64encode(secrets.token_bytes(64)).decode().rstrip('=')}"


@dataclass(frozen=True, slots=True)
class Opened:
    """A state as the engine needs it, and the digest of its canonical bytes (its id)."""

    state: GameState
    sealed: bool
    digest: bytes


class Sealing:
    """The sealing keys (none: sealing off) and whether unsealed states are accepted."""

    def __init__(self, keys: tuple[tuple[str, bytes], ...] = (), *, allow_unsealed: bool = False) -> None:
        self.keys = dict(keys)
        self.current = keys[0][0] if keys else None
        self.allow_unsealed = allow_unsealed or not keys
        self._ciphers = {kid: AESSIV(key) for kid, key in keys}
        # Part of every cache key: an answer sealed under other settings is another answer.
        self.fingerprint = "off" if not keys else hashlib.sha256(
            repr((self.current, sorted(self.keys), self.allow_unsealed)).encode()).hexdigest()[:16]

    @classmethod
    def from_settings(cls, settings: Any) -> Sealing:
        keys = settings.sealing_keys()
        return cls(parse_keys(keys) if keys else (), allow_unsealed=settings.allow_unsealed)

    @property
    def enabled(self) -> bool:
        return self.current is not None

    @staticmethod
    def _associated(kid: str) -> list[bytes]:
        return [f"alhambra-referee seal {VERSION} {kid}".encode()]

    def seal(self, state: GameState, whole: bytes | None = None) -> GameState:
        """The state to hand out: its public part and the seal (unchanged when sealing is off).
        `whole`: the state's encoding, when the caller has it already."""
        if self.current is None:
            return state
        whole = _ENCODE(state) if whole is None else whole
        sealed = self._ciphers[self.current].encrypt(whole, self._associated(self.current))
        text = base64.urlsafe_b64encode(sealed).decode().rstrip("=")
        return msgspec.structs.replace(conceal(state), seal=f"{VERSION}.{self.current}.{text}")

    def open(self, state: GameState) -> Opened:
        """The whole state behind `state`; SealError if it cannot be trusted."""
        if state.seal is None:
            if not self.allow_unsealed:
                raise SealError("unsealed-state", "sealing is on and this state carries no seal: send "
                                "a state as the referee handed it out (ALLOW_UNSEALED=true accepts "
                                "unsealed states)")
            return Opened(state, False, hashlib.sha256(_ENCODE(state)).digest())
        if not self._ciphers:
            raise SealError("bad-seal", "this referee has no sealing key, so it cannot open a sealed "
                            "state (set SEAL_KEYS)")
        version, _, rest = state.seal.partition(".")
        kid, _, text = rest.partition(".")
        if version != VERSION or not kid or not text:
            raise SealError("bad-seal", f"the seal is malformed: expected {VERSION}.<key id>.<data>")
        cipher = self._ciphers.get(kid)
        if cipher is None:
            raise SealError("bad-seal", f"the state was sealed with key {kid!r}, which this referee "
                            "does not accept (retired or from another deployment)")
        try:
            data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            whole = cipher.decrypt(data, self._associated(kid))
        except (binascii.Error, ValueError, InvalidTag):
            raise SealError("bad-seal", "the seal does not authenticate: it was altered or cut") from None
        try:
            full = _DECODE_STATE.decode(whole)  # our own bytes, authenticated: they decode
        except msgspec.ValidationError as e:  # unless an older referee wrote them (defaults left out)
            raise SealError("bad-seal", f"the sealed state was written by an older referee and "
                                        f"cannot be read by this one ({e})") from None
        public, expected = msgspec.structs.replace(state, seal=None), conceal(full)
        if expected != public:  # struct equality: field by field, as the encodings would compare
            raise SealError("bad-seal", "the public part does not match its seal: "
                            f"{_first_difference(expected, public)} was changed, or the seal "
                            "belongs to another state")
        return Opened(full, True, hashlib.sha256(whole).digest())


def _first_difference(expected: GameState, given: GameState) -> str:
    """The first top-level field (and player) where `given` differs from `expected`."""
    for name in GameState.__struct_fields__:
        a, b = getattr(expected, name), getattr(given, name)
        if a != b:
            if name == "players" and isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
                for seat, (pa, pb) in enumerate(zip(a, b, strict=True)):
                    if pa != pb:
                        field = next(f for f in pa.__struct_fields__ if getattr(pa, f) != getattr(pb, f))
                        return f"`players[{seat}].{field}`"
            return f"`{name}`"
    return "the state"


UNSEALED = Sealing()  # sealing off: states are handed out and accepted whole
