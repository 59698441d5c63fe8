"""The web server under load: 100 concurrent "legal moves" requests, one per game, each a different game.

    python -m benchmarks.web_requests [--games 100] [--rounds 5] [--json docs/results/web_requests.json]

The server (`hive_envs.web.server`, Flask served by waitress, as ``hive-web`` runs it) listens on
127.0.0.1 in this process; one client (one cookie) starts ``--games`` Hive games through the API, each
is played a different number of random plies (so every request asks for another position). Then
``--games`` client threads, released together, each send ``GET /api/games/<id>/moves`` and read the
answer; the figure is the wall time from the release to the last answer (the clients run on the same
cores as the server, so the figure includes their cost). Beside it, as the peer measured in the same
run, the same positions' legal moves named in-process without HTTP (`Game.legal_move_ids` +
``move_name``), one after the other. The engine caches a position's move list once it is generated
(the request that played the last move did), so both measure naming the moves and, over HTTP, the
request itself. The target: the 100 requests within 2 s on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import threading
import time
import urllib.request

import numpy as np

from hive_envs.web.caps import Caps
from hive_envs.web.guards import COOKIE
from hive_envs.web.server import MAX_BODY, create_app
from hive_envs.web.serving import bound_addresses, make_server
from hive_envs.web.tables import Tables

TARGET_S = 2.0
CLIENT = secrets.token_urlsafe(16)  # the one client, as its cookie names it
HEADERS = {"Cookie": f"{COOKIE}={CLIENT}"}


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), headers={"Content-Type": "application/json", **HEADERS}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def start_games(base: str, count: int, seed: int) -> list[str]:
    """``count`` games still running, game k after 4 + k % 20 random plies (ended ones are replaced)."""
    rng = np.random.default_rng(seed)
    ids: list[str] = []
    while len(ids) < count:
        state = post(base + "api/games", {"game": "hive", "options": {}, "players": ["human", "human"]})
        for _ in range(4 + len(ids) % 20):
            move = state["moves"][int(rng.integers(len(state["moves"])))]["name"]
            state = post(base + f"api/games/{state['id']}/play", {"move": move})
            if state["over"]:
                break
        if not state["over"]:
            ids.append(state["id"])
    return ids


def concurrent_round(base: str, ids: list[str]) -> float:
    """Seconds from releasing one thread per id to the last answer."""
    barrier = threading.Barrier(len(ids) + 1)
    failures: list[str] = []

    def ask(table_id: str) -> None:
        barrier.wait()
        try:
            request = urllib.request.Request(base + f"api/games/{table_id}/moves", headers=HEADERS)
            with urllib.request.urlopen(request, timeout=60) as answer:
                if not json.loads(answer.read())["moves"]:
                    failures.append(f"{table_id}: no moves")
        except (OSError, ValueError, KeyError) as error:  # a failed request is reported, not timed
            failures.append(f"{table_id}: {error}")

    threads = [threading.Thread(target=ask, args=(table_id,)) for table_id in ids]
    for thread in threads:
        thread.start()
    barrier.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if failures:
        raise RuntimeError(f"{len(failures)} request(s) failed, e.g. {failures[0]}")
    return elapsed


def in_process_round(tables: Tables, ids: list[str]) -> float:
    began = time.perf_counter()
    for table_id in ids:
        with tables.use(table_id, CLIENT) as table:
            game = table.game
            [game.move_name(m) for m in game.legal_move_ids().tolist()]
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="also write the figures, with the command, commit and load, here")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    tables = Tables(caps=Caps(games_per_client=args.games + 10))
    server = make_server(create_app(tables), "127.0.0.1", 0, MAX_BODY)
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{bound_addresses(server)[0][1]}/"
    try:
        ids = start_games(base, args.games, seed=0)
        concurrent_round(base, ids)  # warm-up: kernels, threads, sockets
        http, direct = [], []
        for _ in range(args.rounds):  # interleaved, so that a change of load hits both
            http.append(concurrent_round(base, ids))
            direct.append(in_process_round(tables, ids))
    finally:
        server.close()
        tables.close()
    load = os.getloadavg()
    median = statistics.median(http)
    print(
        f"{args.games} concurrent legal-moves requests ({args.games} different Hive games), {args.rounds} rounds"
    )
    print(f"  over HTTP:       median {median:.3f} s, best {min(http):.3f} s (target < {TARGET_S:.0f} s)")
    print(f"  in-process peer: median {statistics.median(direct):.3f} s (the same positions, no HTTP)")
    print(f"  HTTP / in-process: {median / statistics.median(direct):.1f}x")
    print(f"  cpus {os.cpu_count()}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if args.json:
        write_results(args, http, direct, load_before, load)
    return 0 if median < TARGET_S else 1


def write_results(args, http: list[float], direct: list[float], load_before, load_after) -> None:
    """The run's figures as a results file (`benchmarks.results`: machine, commit, date beside them)."""
    from datetime import datetime, timezone

    from benchmarks import results

    commit, dirty = results.git_commit(untracked=False)
    results.write(
        args.json,
        {
            "command": "python -m benchmarks.web_requests "
            + " ".join(f"--{k} {v}" for k, v in vars(args).items()),
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "commit": commit,
            "dirty": dirty,
            "machine": results.machine(),
            "load_average": {"before": list(load_before), "after": list(load_after)},
            "games": args.games,
            "http_seconds": http,
            "in_process_seconds": direct,
            "median_http_seconds": statistics.median(http),
            "target_seconds": TARGET_S,
        },
    )


if __name__ == "__main__":
    raise SystemExit(main())
