"""The edge of POST /v1/render and `referee render`: decode, check, draw.

A state is checked like on every endpoint (422 `inconsistent-state`), a player's view goes
through `engine.view.view` (422 `unknown-player`), a scoring position is checked and scored
like on /v1/score; then `service.render` draws it. No rule lives here.
"""

from __future__ import annotations

from typing import Any

import msgspec

from service import render as pictures
from service.seal import UNSEALED, Sealing

from . import handlers
from .bodies import RenderPosition, RenderQuery, RenderState, ViewQuery
from .decoding import StrictBody

SVG = "image/svg+xml"

_KEYS = msgspec.json.Decoder(dict[str, msgspec.Raw])


def decode(raw: bytes) -> RenderState | RenderPosition:
    """A render body: with a `state` field a RenderState, else a scoring position (400 if
    neither decodes, naming the field)."""
    problem = handlers.nesting_problem(raw)
    if problem is not None:
        raise handlers.RequestError(400, "bad-request", f"invalid request body: {problem}")
    try:
        keys = _KEYS.decode(raw)
    except msgspec.DecodeError as e:
        raise handlers.RequestError(400, "bad-request", f"invalid request body: {e}") from None
    kind = RenderState if "state" in keys else RenderPosition
    decoded: RenderState | RenderPosition = handlers.decode(kind, raw)
    return decoded


def render(body: RenderState | RenderPosition, sealing: Sealing = UNSEALED,
           access: handlers.Access = handlers.BACKEND) -> str:
    """The SVG of the body (raises handlers.RequestError for a refused body). With sealing on,
    a state without `player` is drawn as a spectator sees it: a sealed referee never draws
    hidden parts. With CALLERS=players a player's picture needs that player's seat token."""
    if isinstance(body, RenderState):
        if body.player is None and not sealing.enabled:
            return pictures.render_state(handlers.checked(body.state))
        query = ViewQuery(state=body.state, player=body.player)
        return pictures.render_view(handlers.player_view(query, sealing, access))
    breakdown = handlers.score(body)
    if body.draw == "sheet":
        return pictures.render_sheet(body, breakdown, body.previous)
    return pictures.render_position(body, breakdown, body.previous)


class RenderBody(StrictBody.of(RenderQuery)):  # type: ignore[misc]
    """The /v1/render body, decoded strictly (a state or a scoring position)."""

    def decode_bytes(self, value: bytes) -> Any:
        return decode(value)


__all__ = ["SVG", "RenderBody", "RenderQuery", "decode", "render"]
