"""Who may ask what (CALLERS): the caller's access, and the seat tokens that prove a seat."""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from service.engine.text import t
from service.seal import Game, Opened, SealError, Sealing

from .refusals import forbidden


@dataclass(frozen=True, slots=True)
class Access:
    """Who may ask what (CALLERS). `backend`: the caller is a game backend, trusted to act for
    any seat. `players`: players call the referee themselves, so a request that acts for a seat
    or shows its secrets (validate, apply, legal-actions, a player's view or picture) must carry
    that seat's token (`token`: the `Authorization: Bearer` of the request, None without one);
    spectators' views and scoring stay open. `legal_actions_limit`: LEGAL_ACTIONS_MAX_LIMIT."""

    players: bool = False
    token: str | None = None
    legal_actions_limit: int = 2_000
    # Whether sealed states' futures are recorded (ONE_FUTURE with a Redis): then a replay never
    # seals its states as the record's real game, which would fork it past the records.
    futures_recorded: bool = False


BACKEND = Access()


def authorised(found: Opened, sealing: Sealing, access: Access, name: str, what: str) -> None:
    """With CALLERS=players: 403 unless the request carries the seat token of the player `name`
    (`what` the request does for them). Nothing of the state is looked at before."""
    if not access.players:
        return
    seat = found.state.seat_of(name)
    if access.token is None:
        raise forbidden(t("{what} for {player} needs the seat token of {player} as `Authorization: "
                          "Bearer <token>` (CALLERS=players)", what=what, player=repr(name)))
    if found.game is None or seat < 0 or not hmac.compare_digest(
            _seat_token(sealing, found.game, seat).encode(), access.token.encode()):
        raise forbidden(t("the seat token sent is not the seat token of {player}: {what} for a seat "
                          "needs that seat's own token (CALLERS=players)", player=repr(name), what=what))


def _seat_token(sealing: Sealing, game: Game, seat: int) -> str:
    try:
        return sealing.seat_token(game, seat)
    except SealError as e:  # the key the game was set up under was retired
        raise forbidden(e.message) from None


def token_seat(found: Opened, sealing: Sealing, access: Access, what: str) -> int | None:
    """With CALLERS=players, the seat whose token the request carries (403 without a token of
    this game); None in backend mode."""
    if not access.players:
        return None
    if access.token is None:
        raise forbidden(t("{what} needs a seat token as `Authorization: Bearer <token>` (CALLERS=players)",
                          what=what))
    players = len(found.state.players)
    try:
        seat = None if found.game is None else sealing.token_seat(found.game, access.token, players)
    except SealError as e:  # the key the game was set up under was retired
        raise forbidden(e.message) from None
    if seat is None:
        raise forbidden(t("the seat token sent is no seat's of this game: {what} needs one (CALLERS=players)",
                          what=what))
    return seat
