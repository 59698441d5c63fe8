"""How ``hive-web`` serves the app: by waitress, which reads each request whole on one event loop
before one of a fixed number of worker threads runs it, so a slow or silent client holds a socket,
never a thread.

- `THREADS` worker threads run requests (the computer's moves take at most ``Caps.thinking`` of them,
  so the others stay free for quick requests);
- at most `CONNECTIONS` connections are open at once (past that, new ones wait to be accepted); one
  that sends nothing for `IDLE_S` seconds, whether between requests or in the middle of one, is
  closed (checked every `IDLE_S` seconds);
- a request body over `server.MAX_BODY` bytes is refused before it is read.

`make_server` binds, then tells the app the address it listens on (`guards.OwnAddress`).
"""

from __future__ import annotations

from flask import Flask
from waitress.server import create_server

from hive_envs.web.guards import OwnAddress

THREADS = 8
CONNECTIONS = 1_000
IDLE_S = 30.0


def make_server(app: Flask, host: str, port: int, max_body: int, idle_s: float = IDLE_S):
    """A waitress server of ``app`` bound to (``host``, ``port``; 0: any free port), not yet serving
    (``.run()`` serves until ``.close()``); ``app`` answers to the bound address only."""
    server = create_server(
        app,
        host=host,
        port=port,
        threads=THREADS,
        connection_limit=CONNECTIONS,
        channel_timeout=idle_s,
        cleanup_interval=idle_s,
        max_request_body_size=max_body,
        asyncore_use_poll=True,  # select() cannot watch more than 1,024 sockets
        ident="hive-web",
    )
    app.config["OWN_ADDRESS"] = OwnAddress.of(bound_addresses(server))
    return server


def bound_addresses(server) -> list[tuple[str, int]]:
    """The (host, port) pairs ``server`` listens on (one per socket: ``localhost`` may bind two)."""
    if hasattr(server, "effective_port"):
        return [(str(server.effective_host), int(server.effective_port))]
    return [(str(host), int(port)) for host, port in server.effective_listen]
