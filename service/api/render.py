"""The edge of POST /v1/render and `referee render`: decode, check, draw.

A state is checked like on every endpoint (422 `inconsistent-state`), a player's view goes
through `engine.view.view` (422 `unknown-player`), a scoring position is checked and scored
like on /v1/score; then `service.render` draws it. No rule lives here.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import anyio.to_thread
import msgspec
from anyio import CapacityLimiter
from litestar.datastructures import State

from service import render as pictures

from .bodies import RenderPosition, RenderQuery, RenderState, ViewQuery
from .decoding import StrictBody
from .handlers import ALONE, Judge, checked, player_view, score
from .reading import decode as decode_body
from .reading import invalid, nesting_problem
from .wording import decoding

SVG = "image/svg+xml"

_KEYS = msgspec.json.Decoder(dict[str, msgspec.Raw])


def decode(raw: bytes) -> RenderState | RenderPosition:
    """A render body: with a `state` field a RenderState, else a scoring position (400 if
    neither decodes, naming the field)."""
    problem = nesting_problem(raw)
    if problem is not None:
        raise invalid(problem)
    try:
        keys = _KEYS.decode(raw)
    except msgspec.DecodeError as e:
        raise invalid(decoding(str(e))) from None
    kind = RenderState if "state" in keys else RenderPosition
    decoded: RenderState | RenderPosition = decode_body(kind, raw)
    return decoded


def render(body: RenderState | RenderPosition, judge: Judge = ALONE) -> str:
    """The SVG of the body (raises RequestError for a refused body). With sealing on,
    a state without `player` is drawn as a spectator sees it: a sealed referee never draws
    hidden parts. With CALLERS=players a player's picture needs that player's seat token."""
    if isinstance(body, RenderState):
        if body.player is None and not judge.sealing.enabled:
            return pictures.render_state(checked(body.state, judge))
        query = ViewQuery(state=body.state, player=body.player)
        return pictures.render_view(player_view(query, judge))
    breakdown = score(body, judge)
    if body.draw == "sheet":
        return pictures.render_sheet(body, breakdown, body.previous)
    return pictures.render_position(body, breakdown, body.previous)


# Pictures drawn at once by a worker; the others wait their turn, on no thread (issue 23: drawn
# in the 40 threads of anyio's pool, 8 renders at once took the interpreter's lock from the event
# loop for up to 478 ms). One thread draws as fast as several (the lock lets one run at a time),
# and the event loop contends with it alone: each time it wants the lock back it waits at most
# one switch interval (5 ms), not one per drawing thread.
RENDER_THREADS = 1
# How long a thread may keep the interpreter's lock while another waits for it (Python's default:
# 5 ms). The event loop lets the lock go at each wait for the network and, while a picture is
# drawn, waits this long to get it back, several times a request: at 5 ms /healthz took 20 ms at
# the median and 64 ms at p99 while 8 pictures were asked for; at 1 ms, 6 and 40 ms (load 8 on
# the shared 2-core machine). Set by `referee serve`'s workers (app.create_served_app).
SWITCH_INTERVAL = 0.001


async def drawn(state: State, body: RenderState | RenderPosition, judge: Judge) -> str:
    """`render` in the app's render pool (`RENDER_THREADS` threads; made on first use, in the
    event loop that serves the app)."""
    pool = state.get("render_pool")
    if pool is None:
        pool = state["render_pool"] = CapacityLimiter(RENDER_THREADS)
    picture: str = await anyio.to_thread.run_sync(partial(render, body, judge), limiter=pool)
    return picture


class RenderBody(StrictBody.of(RenderQuery)):  # type: ignore[misc]
    """The /v1/render body, decoded strictly (a state or a scoring position)."""

    def decode_bytes(self, value: bytes) -> Any:
        return decode(value)


__all__ = ["RENDER_THREADS", "SVG", "SWITCH_INTERVAL", "RenderBody", "RenderQuery", "decode", "drawn",
           "render"]
