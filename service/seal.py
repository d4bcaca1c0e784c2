"""Sealed states: the public part readable, the whole state encrypted and authenticated.

A stateless referee hands its whole state to the client, hidden information included (the
deck's and the bag's order, the generator, hands, face-down cards, secret choices). With
sealing on (SEAL_KEYS or SEAL_KEYS_FILE), every state the referee emits is its public part
(`engine.secrecy.conceal`: hidden fields emptied) plus a `seal`: the whole state encrypted with
AES-SIV (`cryptography`'s AESSIV, RFC 5297), which authenticates it and, being deterministic,
keeps "same request, same bytes" (an equal state of the same game always gets an equal seal).
The seal is `v4.<key id>.<base64url ciphertext>`; the associated data binds the version and the
key id.

The sealed plaintext is a header line and the state's JSON, padded with spaces to the game's
bucket (service/bucket.py): a size fixed when the game is set up, from what is public (its
names and modules), at least the largest state that game can reach, and carried in the header,
so that every seal of a game has one length whatever its hidden parts (the deck's order, a
card id's length, a disc's position). The v3 seals deflated the JSON into 4 KiB buckets: a
state with long names passed the bucket or not by its deck's order (issue 23 item 2); a bucket
that holds the largest state leaves deflating nothing to save, as deflate's worst case is
larger than its input. Seals of the previous forms (v3; v2: the JSON in 16 KiB buckets) are
still opened; v1 seals are refused. The header names
the game (a random id drawn when the game is set up: the seat tokens derive from it and from the
key it was set up under) and says whether the state ever came in without a seal: a referee with
ALLOW_UNSEALED seals what it is given, so a state it accepted unsealed (a stacked deck, a chosen
generator) stays marked, and a referee without ALLOW_UNSEALED refuses it.

Opening a sealed state decodes the seal strictly (canonical base64url only: no other alphabet,
no padding, no junk, no stray bits in the last character), decrypts it and checks that its
public part is exactly the state's own: an altered public field, a flipped or cut seal, a seal
from another state or sealed with a key that is not accepted is refused (422 `bad-seal`).
Several keys are accepted, the first seals: rotate by putting a new key first, and drop the old
one once no game set up under it is still played (its seat tokens derive from it).
This module is the edge: the engine never sees a seal.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import logging
import re
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import msgspec
import pybase64
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESSIV

from service.bucket import bucket
from service.engine.secrecy import conceal
from service.engine.state import GameState
from service.engine.text import t

VERSION = "v4"
READ = ("v2", "v3", VERSION)  # the forms opened: this one and the previous ones
KEY_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
KEY_BYTES = (32, 48, 64)  # AES-128-, AES-192- and AES-256-SIV
# v3 seals held the JSON deflated raw (no zlib header: the seal's header says the length).
_WBITS = -15
_MOST_INFLATED = 1 << 20  # our own authenticated bytes; a bound all the same
GAME_ID_BYTES = 16
_ENCODE = msgspec.json.Encoder().encode
_DECODE_STATE = msgspec.json.Decoder(GameState)
_HEADER = re.compile(rb"([0-9a-f]{32}) ([A-Za-z0-9_-]{1,32}) ([01]) ([0-9]{1,9})")  # v2, v3
_HEADER_V4 = re.compile(rb"([0-9a-f]{32}) ([A-Za-z0-9_-]{1,32}) ([01]) ([0-9]{1,9}) ([0-9]{1,9})")
log = logging.getLogger("service.seal")


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
class Game:
    """What a seal says besides the state: the game's id, the key its seat tokens derive from,
    whether a state of it ever came in without a seal (ALLOW_UNSEALED), and the size every seal
    of it is padded to (None: not fixed yet, a new game or one of a v2 or v3 seal; the next
    seal fixes it from the state's public names and modules, which no action changes)."""

    id: bytes
    kid: str
    unsealed: bool = False
    bucket: int | None = None


@dataclass(frozen=True, slots=True)
class Opened:
    """A state as the engine needs it, the digest of its canonical bytes (for the check's
    memo), its game (None: it came in unsealed) and the id of this state of this game (the
    one-future record's key)."""

    state: GameState
    sealed: bool
    digest: bytes
    game: Game | None = None

    @property
    def future_id(self) -> bytes:
        """This state of this game: two games that reach equal states are two states."""
        game = b"" if self.game is None else self.game.id
        return hashlib.sha256(game + self.digest).digest()


@dataclass(frozen=True, slots=True)
class Known:
    """What opening a seal gives: the whole state and the public part it was sealed with (the
    app's memo of states keeps it under the seal: service/api/memo.py)."""

    opened: Opened
    public: GameState


class Sealing:
    """The sealing keys (none: sealing off) and whether unsealed states are accepted."""

    def __init__(self, keys: tuple[tuple[str, bytes], ...] = (), *, allow_unsealed: bool = False,
                 game_ids: Callable[[], bytes] | None = None) -> None:
        self.keys = dict(keys)
        # A new game's id: random, but for the contract's examples (fixed ids, the same bytes
        # every time the contract is generated).
        self._game_ids = game_ids or (lambda: secrets.token_bytes(GAME_ID_BYTES))
        self.current = keys[0][0] if keys else None
        self.allow_unsealed = allow_unsealed or not keys
        self._ciphers = {kid: AESSIV(key) for kid, key in keys}
        self._token_keys = {kid: hmac.digest(key, b"alhambra-referee seat tokens", "sha256")
                            for kid, key in keys}
        # Part of every cache key: an answer sealed under other settings (other keys, even under
        # the same key ids) is another answer. A digest of the keys, never the keys.
        material = hashlib.sha256(b"alhambra-referee cache fingerprint " + VERSION.encode())
        for kid, key in keys:
            material.update(b"\0%s\0%s" % (kid.encode(), hashlib.sha256(key).digest()))
        material.update(b"\0allow-unsealed" if self.allow_unsealed else b"\0strict")
        self.fingerprint = "off" if not keys else material.hexdigest()[:32]

    @classmethod
    def from_settings(cls, settings: Any) -> Sealing:
        keys = settings.sealing_keys()
        return cls(parse_keys(keys) if keys else (), allow_unsealed=settings.allow_unsealed)

    @property
    def enabled(self) -> bool:
        return self.current is not None

    @staticmethod
    def _associated(kid: str, version: str = VERSION) -> list[bytes]:
        return [f"alhambra-referee seal {version} {kid}".encode()]

    def new_game(self) -> Game | None:
        """A fresh game id under the current key (None with sealing off)."""
        if self.current is None:
            return None
        return Game(self._game_ids(), self.current)

    def unsealed_game(self, whole: bytes) -> Game | None:
        """The game of a state that came in without a seal (ALLOW_UNSEALED), named by its digest
        and marked, so that a referee without ALLOW_UNSEALED refuses its seals."""
        if self.current is None:
            return None
        return Game(hashlib.sha256(b"unsealed\0" + whole).digest()[:GAME_ID_BYTES], self.current, True)

    def record_game(self, setup: bytes) -> Game | None:
        """The game a record without a seal replays as (None with sealing off): named by the
        setup's bytes, so the same record replays to the same bytes, and kept apart from every
        game POST /v1/games set up (their ids are random)."""
        if self.current is None:
            return None
        return Game(hashlib.sha256(b"record\0" + setup).digest()[:GAME_ID_BYTES], self.current)

    def seal(self, state: GameState, whole: bytes | None = None, game: Game | None = None,
             digest: bytes | None = None) -> GameState:
        """The state to hand out: its public part and the seal (unchanged when sealing is off).
        `whole`: the state's encoding, and `digest` its SHA-256, when the caller has them
        already; `game`: the game it belongs to (None: a new game)."""
        return self.sealed(state, whole, game, digest)[0]

    def sealed(self, state: GameState, whole: bytes | None = None, game: Game | None = None,
               digest: bytes | None = None) -> tuple[GameState, Known | None]:
        """`seal`, and what opening the seal gives (None with sealing off), for a memo: the next
        request brings this state back (to validate or apply an action in it)."""
        if self.current is None:
            return state, None
        whole = _ENCODE(state) if whole is None else whole
        if game is None:
            game = Game(self._game_ids(), self.current)
        if game.bucket is None:  # fixed from the public part, once: every seal of the game keeps it
            game = replace(game, bucket=bucket(tuple(p.name for p in state.players), state.modules))
        padded = _padded(whole, game)
        sealed = self._ciphers[self.current].encrypt(padded, self._associated(self.current))
        seal = f"{VERSION}.{self.current}.{pybase64.urlsafe_b64encode(sealed).decode().rstrip('=')}"
        public = conceal(state)
        digest = hashlib.sha256(whole).digest() if digest is None else digest
        return msgspec.structs.replace(public, seal=seal), Known(Opened(state, True, digest, game), public)

    def open(self, state: GameState, digest: bytes | None = None, known: Known | None = None) -> Opened:
        """The whole state behind `state`; SealError if it cannot be trusted. `digest`: of an
        unsealed state, the SHA-256 of bytes it was decoded from, when the caller knows it
        (else that of its encoding). `known`: what its seal opened to before (`unseal`), when
        the caller kept it; else the seal is opened now."""
        if state.seal is None:
            if not self.allow_unsealed:
                raise SealError("unsealed-state", t(
                    "sealing is on and this state carries no seal: send a state as the referee handed it "
                    "out (ALLOW_UNSEALED=true accepts unsealed states)"))
            return Opened(state, False, hashlib.sha256(_ENCODE(state)).digest() if digest is None else digest)
        if not self._ciphers:
            raise SealError("bad-seal", t("this referee has no sealing key, so it cannot open a sealed "
                                          "state (set SEAL_KEYS)"))
        if known is None:
            known = self.unseal(state.seal)
        if known.opened.game is not None and known.opened.game.unsealed and not self.allow_unsealed:
            raise SealError("unsealed-state", t(
                "this seal was made from a state that came in without a seal (a referee with "
                "ALLOW_UNSEALED sealed it): this referee accepts only states of games it set up"))
        public = msgspec.structs.replace(state, seal=None)
        if known.public != public:  # struct equality: field by field, as the encodings would compare
            raise SealError("bad-seal", t("the public part does not match its seal: {part} was changed, "
                                          "or the seal belongs to another state",
                                          part=_first_difference(known.public, public)))
        return known.opened

    def unseal(self, seal: str) -> Known:
        """What the seal opens to, decrypted and authenticated (SealError if it does not)."""
        whole, game = self._plaintext(seal)
        try:
            full = _DECODE_STATE.decode(whole)  # our own bytes, authenticated: they decode
        except msgspec.ValidationError as e:  # unless an older referee wrote them (defaults left out)
            raise SealError("bad-seal", t("the sealed state was written by an older referee and cannot "
                                          "be read by this one ({reason})", reason=str(e))) from None
        return Known(Opened(full, True, hashlib.sha256(whole).digest(), game), conceal(full))

    def _plaintext(self, seal: str) -> tuple[bytes, Game]:
        """The state's JSON and its game, from a seal decoded strictly and authenticated."""
        version, _, rest = seal.partition(".")
        kid, _, text = rest.partition(".")
        if version not in READ or not kid or not text:
            message = t("the seal is malformed: expected {version}.<key id>.<data>", version=VERSION)
            if version == "v1":
                message = t("the seal is of an earlier form (v1), which marked neither the game nor an "
                            "unsealed origin: this referee accepts {forms} seals only", forms=READ)
            raise SealError("bad-seal", message)
        cipher = self._ciphers.get(kid)
        if cipher is None:
            raise SealError("bad-seal", t("the state was sealed with key {key}, which this referee "
                                          "does not accept (retired or from another deployment)",
                                          key=repr(kid)))
        data = _strict_base64url(text)
        try:
            padded = cipher.decrypt(data, self._associated(kid, version))
        except InvalidTag:
            raise SealError("bad-seal", t("the seal does not authenticate: it was altered or cut")) from None
        end = padded.find(b"\n", 0, 128)
        parts = (_HEADER_V4 if version == VERSION else _HEADER).fullmatch(padded, 0, end) if end > 0 else None
        if parts is None:  # authenticated, so ours: an earlier format would be a bug
            raise SealError("bad-seal", t("the seal's content is not of this referee's form"))
        fixed = int(parts[4]) if version == VERSION else None
        game = Game(bytes.fromhex(parts[1].decode()), parts[2].decode(), parts[3] == b"1", fixed)
        body = padded[end + 1:end + 1 + int(parts[parts.lastindex or 0])]
        return (_inflated(body) if version == "v3" else body), game

    def seat_token(self, game: Game, seat: int) -> str:
        """The secret of `seat` in `game` (CALLERS=players: a request acting for that seat or
        showing its secrets carries it as `Authorization: Bearer <token>`). Derived from the
        key the game was set up under and the game's id: the referee keeps nothing."""
        key = self._token_keys.get(game.kid)
        if key is None:
            raise SealError("bad-seal", t("the game was set up under key {key}, which this referee no "
                                          "longer holds: its seat tokens cannot be checked",
                                          key=repr(game.kid)))
        mac = hmac.digest(key, game.id + seat.to_bytes(1, "big"), "sha256")
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def token_seat(self, game: Game, token: str, seats: int) -> int | None:
        """The seat whose token `token` is (None: none of the game's `seats`)."""
        found = None
        for seat in range(seats):  # every seat compared, each in constant time
            if hmac.compare_digest(self.seat_token(game, seat).encode(), token.encode()):
                found = seat
        return found


def _padded(whole: bytes, game: Game) -> bytes:
    """The v4 plaintext: the header and the state's JSON, padded with spaces to the game's bucket."""
    assert game.bucket is not None
    header = b"%s %s %d %d %d\n" % (game.id.hex().encode(), game.kid.encode(), game.unsealed,
                                    game.bucket, len(whole))
    size = len(header) + len(whole)
    if size > game.bucket:  # the bound of service/bucket.py is wrong: the length now tells
        log.error("a state of %d bytes passed its game's bucket of %d bytes: its seal is longer "
                  "than the game's others (a bug of service/bucket.py)", size, game.bucket)
    return header + whole + b" " * (-size % game.bucket)


def _inflated(deflated: bytes) -> bytes:
    """The state's JSON from a v3 seal's deflated bytes."""
    inflater = zlib.decompressobj(_WBITS)
    try:
        whole = inflater.decompress(deflated, _MOST_INFLATED)
    except zlib.error:
        whole = b""
    if not inflater.eof or inflater.unconsumed_tail or inflater.unused_data:  # authenticated: a bug
        raise SealError("bad-seal", t("the seal's content is not of this referee's form"))
    return whole


def _strict_base64url(text: str) -> bytes:
    """Canonical unpadded base64url only: another alphabet (`+/`), padding, inserted junk, a
    length no encoding has, or stray bits in the last character are refused, so that a seal
    has exactly one spelling."""
    refused = SealError("bad-seal", t("the seal does not authenticate: it was altered or cut "
                                      "(not canonical base64url)"))
    spare = _SPARE_BITS.get(len(text) % 4)  # bits of the last character no byte uses
    if spare is None or not text.isascii() or _VALUE.get(text[-1], 64) & spare:
        raise refused
    raw = text.encode("ascii")
    if b"+" in raw or b"/" in raw or b"=" in raw:  # the other alphabet, or padding
        raise refused
    try:  # strict: any character outside the alphabet is an error (pybase64: SIMD, 20x binascii)
        return pybase64.b64decode(raw + b"=" * (-len(raw) % 4), altchars=b"-_", validate=True)
    except binascii.Error:
        raise refused from None


_VALUE = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")}
_SPARE_BITS = {0: 0, 2: 0b1111, 3: 0b11}  # a length of 1 more than a multiple of 4 is no encoding


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
    return t("the state")


UNSEALED = Sealing()  # sealing off: states are handed out and accepted whole
