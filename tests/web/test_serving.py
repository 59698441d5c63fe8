"""How ``hive-web`` is served (`hive_envs.web.serving`): a fixed number of threads whatever the clients
do, silent connections closed, and only the bound address answered."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest

pytest.importorskip("flask")
pytest.importorskip("waitress")

from hive_envs.web.server import MAX_BODY, create_app
from hive_envs.web.serving import THREADS, bound_addresses, make_server
from hive_envs.web.tables import Tables

SILENT_CLIENTS = 800
IDLE_S = 1.0


@pytest.fixture
def port():
    tables = Tables()
    server = make_server(create_app(tables), "127.0.0.1", 0, MAX_BODY, idle_s=IDLE_S)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield bound_addresses(server)[0][1]
    server.close()
    tables.close()


def get(port: int, path: str, host: str | None = None, timeout_s: float = 10.0):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout_s)
    connection.putrequest("GET", path, skip_host=True)
    connection.putheader("Host", host or f"127.0.0.1:{port}")
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, json.loads(body)


def test_silent_clients_hold_no_thread_and_normal_requests_are_served_meanwhile(port):
    threads = threading.active_count()  # the server's, made when it started
    silent = []
    for _ in range(SILENT_CLIENTS):  # a request's headers, then nothing of the body they announce
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(
            f"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 100\r\n\r\n".encode()
        )
        silent.append(sock)
    began = time.monotonic()
    status, meta = get(port, "/api/meta")
    assert status == 200 and "hive" in meta["games"] and time.monotonic() - began < 5
    assert threading.active_count() <= threads
    assert threads >= THREADS
    time.sleep(2 * IDLE_S + 1)  # the server closes what stayed silent past IDLE_S
    for sock in silent[:: SILENT_CLIENTS // 20]:
        sock.settimeout(5)
        try:
            assert sock.recv(1) == b""
        except ConnectionResetError:
            pass
    for sock in silent:
        sock.close()


def test_the_bound_address_is_served_and_another_host_refused(port):
    assert get(port, "/api/meta", f"localhost:{port}")[0] == 200
    status, body = get(port, "/api/meta", f"attacker.example:{port}")
    assert status == 403 and "does not answer to the host" in body["error"]
