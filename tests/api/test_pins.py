"""The private attributes the edge relies on, where uvicorn and litestar offer no public way: an
upgrade that moves one fails here (pyproject.toml bounds both versions), not in production."""

from __future__ import annotations

import asyncio
import inspect

from litestar.dto import AbstractDTO
from uvicorn.config import Config
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.server import ServerState


def test_uvicorn_still_has_what_the_timed_protocol_reads_and_writes() -> None:
    """service/server.py: the protocol's `cycle`, `pipeline`, `flow`, `headers`; the cycle's
    `response_started`, `response_complete`, `disconnected`, `message_event`, `scope`; the flow
    control's `write_paused`, `pause_reading`, `resume_reading`; the callbacks it extends."""
    config = Config(app=None)
    config.load()
    loop = asyncio.new_event_loop()
    try:
        protocol = HttpToolsProtocol(config, ServerState(), {}, _loop=loop)
    finally:
        loop.close()
    for name in ("cycle", "pipeline", "flow", "headers", "loop", "app"):
        assert hasattr(protocol, name), name
    for name in ("data_received", "on_message_begin", "on_headers_complete", "on_body",
                 "on_message_complete", "on_response_complete", "pause_writing", "resume_writing",
                 "connection_made", "connection_lost"):
        assert callable(getattr(HttpToolsProtocol, name, None)), name
    cycle = inspect.getsource(RequestResponseCycle.__init__)
    for name in ("response_started", "response_complete", "disconnected", "message_event", "scope"):
        assert f"self.{name} =" in cycle, name
    flow = inspect.getsource(FlowControl)
    assert "self.write_paused" in flow and "def pause_reading" in flow and "def resume_reading" in flow


def test_litestar_dtos_still_keep_the_maps_the_strict_body_sets() -> None:
    """service/api/decoding.py: StrictBody sets AbstractDTO's `_type_backend_map` and
    `_handler_backend_map`, and reads the connection as `asgi_connection`."""
    assert hasattr(AbstractDTO, "_type_backend_map") or "_type_backend_map" in inspect.getsource(AbstractDTO)
    assert "_handler_backend_map" in inspect.getsource(AbstractDTO)
    assert "asgi_connection" in AbstractDTO.__slots__
