"""What every request passes before a route runs: it is addressed to this server, it comes from this
server's own page (or from no page), and it is told which client it is.

- ``Host`` must name the address the server listens on (`OwnAddress`): its host and port, plus
  ``localhost``, ``127.0.0.1`` and ``[::1]`` with that port when it listens on the loopback. A page of
  another site that has its name resolve to 127.0.0.1 (DNS rebinding) sends its own name, and is
  refused. On every interface (``--host 0.0.0.0``) the machine's name and any IP address with the
  port are accepted (an address is no name an attacker can make resolve elsewhere).
- ``Origin``, when a browser sends it, must be ``http://`` and such a host: another site's page cannot
  use the API from the user's browser.
- The client is named by a random id in a cookie the server sets (``HttpOnly``, ``SameSite=Strict``),
  ``g.client``: the games a client made are its own (`tables`), and the per-client caps count by it
  (`caps`). The id is a capability, not a login: it tells browsers apart, and a client that drops its
  cookie is a new client, within the global caps.

A refused request gets a 403 with a JSON error (`server`). Flask's ``TRUSTED_HOSTS`` is not used: it
ignores the port.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass

from flask import Flask, abort, g, request

COOKIE = "hive_web_client"
_CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
EVERY_INTERFACE = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class OwnAddress:
    """The ``Host`` values a server listening on some (host, port) addresses answers to."""

    hosts: frozenset[str]  # "name:port", and "name" alone for port 80; lower case, IPv6 in brackets
    any_ip_ports: frozenset[int] = frozenset()  # ports listened on every interface

    @classmethod
    def of(cls, addresses: Iterable[tuple[str, int]]) -> OwnAddress:
        hosts: set[str] = set()
        any_ip: set[int] = set()
        for host, port in addresses:
            host = host.lower().strip("[]")
            if host in EVERY_INTERFACE:
                names: tuple[str, ...] = (*LOOPBACK_NAMES, socket.gethostname().lower())
                any_ip.add(port)
            elif host == "localhost" or _is_loopback(host):
                names = LOOPBACK_NAMES
            else:
                names = (f"[{host}]" if ":" in host else host,)
            hosts.update(f"{name}:{port}" for name in names)
            if port == 80:
                hosts.update(names)
        return cls(frozenset(hosts), frozenset(any_ip))

    def accepts(self, host: str) -> bool:
        """Whether the ``Host`` value ``host`` (``name[:port]``) names this server."""
        host = host.lower()
        if host in self.hosts:
            return True
        name, port = _split_host(host)
        return port in self.any_ip_ports and _is_ip(name)


def _split_host(host: str) -> tuple[str, int | None]:
    name, colon, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not colon:
        name, port = host, "80"
    return name.strip("[]"), int(port) if port.isascii() and port.isdigit() and len(port) <= 5 else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    return _is_ip(name) and ipaddress.ip_address(name).is_loopback


def install(app: Flask, address: OwnAddress) -> None:
    """Check every request of ``app`` as the module docstring says; ``app.config["OWN_ADDRESS"]``
    holds ``address`` (`serving` replaces it with the address it binds)."""
    app.config["OWN_ADDRESS"] = address

    @app.before_request
    def check_request() -> None:
        own: OwnAddress = app.config["OWN_ADDRESS"]
        host = request.headers.get("Host", "")
        if not own.accepts(host):
            abort(403, f"this server does not answer to the host {host!r} (its own address: see hive-web)")
        origin = request.headers.get("Origin")
        if origin is not None and not (origin.startswith("http://") and own.accepts(origin[7:])):
            abort(403, f"requests from the page of {origin!r} are refused: only this server's page may ask")
        cookie = request.cookies.get(COOKIE, "")
        g.new_client = not _CLIENT_ID.fullmatch(cookie)
        g.client = secrets.token_urlsafe(16) if g.new_client else cookie

    @app.after_request
    def name_the_client(response):
        if g.get("new_client"):
            response.set_cookie(COOKIE, g.client, httponly=True, samesite="Strict")
        return response
