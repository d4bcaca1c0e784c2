"""The yardstick of bench/http_bench.py: a bare litestar + msgspec app, nothing else.

What a user could run instead of the referee with the same stack: one route that decodes the
body into a Struct (the same `Move` of a state and an action the referee reads, so the decoding
work is the same) and encodes it back. No middleware, no cache, no metrics, no logs, no engine.

The route reads the body's bytes and decodes them with msgspec straight into the Struct, the
fastest way litestar offers (measured in-process on the 3.3 kB mid-game body: about 30 us a
request less than declaring `data: Move` and returning it, which litestar decodes and encodes
through its own signature model); `/echo-data` is that slower, more usual form, for comparison.
The yardstick is the fast one, so the referee is measured against the best the stack can do.

    uvicorn --factory bench.echo_app:create_app     (or granian --interface asgi --factory ...)
"""

from __future__ import annotations

import msgspec
from litestar import Litestar, Request, Response, post

from service.api.bodies import Move

_DECODE = msgspec.json.Decoder(Move).decode
_ENCODE = msgspec.json.Encoder().encode


@post("/echo", status_code=200)
async def echo(request: Request) -> Response[bytes]:  # type: ignore[type-arg]
    return Response(_ENCODE(_DECODE(await request.body())), media_type="application/json")


@post("/echo-data", status_code=200)
async def echo_data(data: Move) -> Move:
    return data


def create_app() -> Litestar:
    return Litestar(route_handlers=[echo, echo_data], debug=False, openapi_config=None)
