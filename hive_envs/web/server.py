"""The web page's server: a Flask app over `Tables` (games by id) and `records` (replays).

    hive-web                      # serves http://127.0.0.1:8000/ and opens it in the browser
    hive-web --port 0 --no-browser
    hive-web --host 0.0.0.0       # every interface: anyone who can reach the machine can play (warned)
    hive-web --engine nokamute="nokamute uhp" --agents runs/   # offer an engine and checkpoints

A request runs no command and opens no file it names (`trust`): the page plays the built-in players
and shipped agents, and the engines and checkpoints the command line offers by name. Every request
must come to the server's own address from its own page (`guards`), and the games, engines and
moves requests hold are capped per client and in all (`caps`, `serving`).

JSON API (every error is ``{"error": message}`` with a 4xx status; the game is unchanged):

    GET  /api/meta                          the games the page draws (their options and defaults, seats
                                            and drawing script), player spec forms, the shipped agents,
                                            the engines and agents offered
    GET  /boards/<game>.js                  a game's drawing script (its definition's web_drawer)
    POST /api/games                         {"game", "options", "players": [spec|"human", ...]} -> state
    GET  /api/games/<id>                    the state: position, legal moves, status, record
    GET  /api/games/<id>/moves              the legal moves only
    POST /api/games/<id>/play               {"move": "wS1"} a human's move -> state
    POST /api/games/<id>/computer           {"think": bool} the computer's move (and thoughts) -> state
    POST /api/games/<id>/undo               back to before the last human move -> state
    DELETE /api/games/<id>                  forget the game (closed once its computer's move ends)
    GET  /api/warmup                        numba compiling now? (`compiling.CompileWatch.status`)
    POST /api/replay                        {"text": GameString | record | report JSON} -> games listed
    POST /api/replay/frames                 {"record", "options"} -> the position after each ply

Status codes: 400 a malformed request, an illegal move, a bad spec, option or report; 403 a request
to another host name or from another site's page; 404 an unknown game id (or another client's); 409
a game busy with another request or a move for the wrong side; 413 a body over `MAX_BODY`; 422 a
computer player that failed (an engine that crashed, hung past ``--move-timeout`` or answered an
illegal move); 429 a client's own cap reached (moves computed at once, engines); 503 a cap of the
whole server reached (games, engines, moves computed at once). Requests are served on threads, so a
thinking computer holds only its own game.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import threading
import webbrowser
from importlib import resources

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # run as a script without an extra: one line, not a traceback
    from flask import Flask, Response, g, jsonify, request
    from werkzeug.exceptions import HTTPException

from hive_envs.players.base import PlayerFailure
from hive_envs.players.uhp_engine import add_move_timeout_argument
from hive_envs.pretrained import pretrained_names
from hive_envs.web import guards
from hive_envs.web.boards import drawn_games
from hive_envs.web.caps import Full
from hive_envs.web.compiling import compile_watch
from hive_envs.web.json_input import parse_json
from hive_envs.web.records import frames, read_replay
from hive_envs.web.serving import bound_addresses, make_server
from hive_envs.web.tables import HUMAN, Busy, NotFound, Tables
from hive_envs.web.trust import Offer, describe_page_specs

MAX_BODY = 20 * 1024 * 1024  #: bytes of one request (a long arena report)
MAX_MESSAGE = 600  #: characters of an error message sent back
LOCAL = "127.0.0.1"


def _body() -> dict:
    """The request's JSON object (`json_input`: nesting capped); ValueError otherwise."""
    if not request.is_json:
        raise ValueError("the request body must be a JSON object (Content-Type: application/json)")
    data = parse_json(request.get_data(), "the request body")
    if not isinstance(data, dict):
        raise ValueError("the request body must be a JSON object")
    return data


def _meta(tables: Tables) -> dict:
    drawn = drawn_games()
    return {
        "games": {
            name: {
                f.name: None if f.default is dataclasses.MISSING else f.default
                for f in dataclasses.fields(entry.options)
            }
            for name, entry in drawn.items()
        },
        "seats": {name: list(entry.seat_names) for name, entry in drawn.items()},
        "boards": {name: f"boards/{name}.js" for name in drawn},
        "specs": describe_page_specs(tables.offer, tables.caps),
        "human": HUMAN,
        "pretrained": [f"pretrained:{name}" for name in pretrained_names()],
        **tables.offer.listed(),
    }


def create_app(tables: Tables | None = None, address: tuple[str, int] = (LOCAL, 80)) -> Flask:
    """The app; ``tables``: the games it serves (a fresh `Tables` by default, reachable as
    ``app.config["TABLES"]``); ``address``: where it is served, whose names a request's ``Host`` must
    carry (`guards`; `serving.make_server` sets the address it binds)."""
    app = Flask(__name__, static_folder=str(resources.files("hive_envs.web") / "static"), static_url_path="")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.json.sort_keys = False  # type: ignore[attr-defined]
    tables = tables if tables is not None else Tables()
    app.config["TABLES"] = tables
    guards.install(app, guards.OwnAddress.of([address]))
    watch = compile_watch()

    def error(status: int, message: str):
        text = " ".join(str(message).split())
        if len(text) > MAX_MESSAGE:  # an error may quote the input, which can be megabytes
            text = text[: MAX_MESSAGE - 1] + "…"
        return jsonify(error=text), status

    @app.errorhandler(ValueError)
    def bad_input(e):
        return error(400, str(e))

    @app.errorhandler(NotFound)
    def not_found(e):
        return error(404, e.args[0])

    @app.errorhandler(Busy)
    def busy(e):
        return error(409, str(e))

    @app.errorhandler(PlayerFailure)
    def player_failed(e):
        return error(422, str(e))

    @app.errorhandler(Full)
    def full(e):
        return error(e.status, str(e))

    @app.errorhandler(HTTPException)
    def http_error(e):
        return error(e.code or 500, e.description or e.name)

    @app.get("/")
    def index():
        return app.send_static_file("index.html")

    @app.get("/api/meta")
    def meta():
        return jsonify(_meta(tables))

    @app.get("/boards/<name>.js")
    def board_script(name):
        """A game's drawing script, by the game's name: a name only looked up, never a path."""
        entry = drawn_games().get(name)
        if entry is None:
            raise NotFound(f"no drawing for a game named {name!r}")
        return Response(entry.presentation.web_drawer(), mimetype="text/javascript")

    @app.post("/api/games")
    def new_game():
        data = _body()
        table = tables.create(data.get("game"), data.get("options"), data.get("players"), g.client)
        with tables.use(table.id, g.client) as table:
            return jsonify(table.state()), 201

    def answer(table_id, action):
        """``action(table)`` of the client's table, as JSON."""
        with tables.use(table_id, g.client) as table:
            return jsonify(action(table))

    @app.get("/api/games/<table_id>")
    def state(table_id):
        return answer(table_id, lambda table: table.state())

    @app.get("/api/games/<table_id>/moves")
    def moves(table_id):
        with tables.use(table_id, g.client) as table:
            game = table.game
            return jsonify(moves=[game.move_name(m) for m in game.legal_move_ids().tolist()])

    @app.post("/api/games/<table_id>/play")
    def play(table_id):
        move = _body().get("move")
        return answer(table_id, lambda table: table.play(move))

    @app.post("/api/games/<table_id>/computer")
    def computer(table_id):
        think = _body().get("think", False)
        if not isinstance(think, bool):
            raise ValueError(f"'think' must be true or false, got {think!r}")
        with tables.use(table_id, g.client) as table, tables.computing(table):
            return jsonify(table.computer(think))

    @app.post("/api/games/<table_id>/undo")
    def undo(table_id):
        return answer(table_id, lambda table: table.undo())

    @app.delete("/api/games/<table_id>")
    def drop(table_id):
        tables.drop(table_id, g.client)
        return jsonify(dropped=table_id)

    @app.get("/api/warmup")
    def warmup():
        return jsonify(watch.status())

    @app.post("/api/replay")
    def replay():
        return jsonify(read_replay(_body().get("text")))

    @app.post("/api/replay/frames")
    def replay_frames():
        data = _body()
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError(f"'options' must be a JSON object, got {options!r}")
        return jsonify(frames=frames(data.get("record"), options))

    return app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="hive-web",
        description="Play, replay and watch Hive and Hoyito II games in the browser (a local web page). "
        "The page plays the built-in players and the shipped agents; it runs an engine or loads a "
        "checkpoint only when offered here, by name.",
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (0: any free port)")
    parser.add_argument(
        "--host",
        default=LOCAL,
        help=f"interface to listen on (default {LOCAL}, this machine only; another one lets anyone "
        "who can reach it start games and the engines and agents offered here)",
    )
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="offer the UHP engine COMMAND to the page as the player engine:NAME (repeatable); a "
        "request never names a command (uhp:COMMAND is refused)",
    )
    parser.add_argument(
        "--agents",
        metavar="DIR",
        help="offer the checkpoints (*.pt) under DIR to the page as the players agent:FILE[@N | @T=S], "
        "FILE their path below DIR; a request never names a checkpoint path",
    )
    add_move_timeout_argument(parser)
    parser.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be in 0..65535, got {args.port}")
    if not 0 < args.move_timeout < float("inf"):
        parser.error(f"--move-timeout must be a positive number of seconds, got {args.move_timeout}")
    try:
        offer = Offer.from_command_line(args.engine, args.agents)
    except ValueError as error:
        parser.error(str(error))
    if args.host != LOCAL:
        print(
            f"warning: listening on {args.host}, not {LOCAL}: anyone who can reach this machine can use "
            "the page, start games and run the engines and agents offered to it",
            file=sys.stderr,
        )
    tables = Tables(move_timeout_s=args.move_timeout, offer=offer)
    server = make_server(create_app(tables), args.host, args.port, MAX_BODY)
    host, port = bound_addresses(server)[0]
    host = "127.0.0.1" if host in guards.EVERY_INTERFACE else f"[{host}]" if ":" in host else host
    url = f"http://{host}:{port}/"
    print(f"serving the Hive / Hoyito page at {url} (Ctrl-C to stop)", flush=True)
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    try:
        server.run()  # returns on Ctrl-C
        print("stopped")
    finally:
        server.close()
        tables.close()
    return 0


if __name__ == "__main__":
    sys.exit(command(main)())
