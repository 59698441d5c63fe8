"""Game records and match reports read for replay: what was played, parsed as data.

Accepted texts (`read_replay`):

- a game record, as `Game.record` writes it, read by the game whose definition's ``read_record``
  knows it (Hive's UHP GameStrings, ``Base;InProgress;White[2];wS1``; Hoyito's records,
  ``HoyitoII;holes_per_row=6;...;moves=2,11``);
- a JSON report of `training/arena.py --out`: ``{"game", "game_options", "matches": [{"player",
  "opponent", "wins", "draws", "losses", "mean_length", "repetition_draw", "games_played": [{"seat_of_a",
  "result_for_a", "plies", "reason", "record", "forfeit"}, ...]}, ...]}``;
- a JSON report of `training/evaluate.py` (``"matches"`` without ``"games_played"``), of its
  ``--ladder`` (``"pairs"`` in place of ``"matches"``, with ``"max_turns"``) or a shipped agent's
  results file (``"results"``, from ``training/pretrained.py measure``): a row without
  ``"games_played"`` is listed as its tally; a row that carries them lists its games as the arena's do.

A summary the tools wrote (`hive_envs.evaluation.results_files`) holds the tallies only and names its
records file (``"records"``: ``records/NAME.json.gz`` beside it), the same report with every game,
gzip-compressed: the page unpacks such a file when it is opened, and the listing names it.

Each game is listed with its players by seat, result, length and record; `frames` turns a record into
the positions after each ply. Anything else (not JSON, JSON nested deeper than `json_input.MAX_DEPTH`,
a missing or mistyped key, a record the rules refuse, more than `MAX_GAMES` games) is a ValueError
naming what is wrong: a report is data, read by its keys, and nothing in it names code to run.
"""

from __future__ import annotations

import math
from typing import Any

from hive_envs.core.game import Game
from hive_envs.core.short_repr import short_repr
from hive_envs.games import game_entry
from hive_envs.web.boards import drawn_games, position
from hive_envs.web.json_input import parse_json

MAX_TEXT = 16_000_000  #: characters of a pasted or uploaded record or report
MAX_GAMES = 20_000  #: games listed from one report
MAX_PLIES = 5_000  #: plies of one replayed record (far above any game's turn cap)


def game_of_record(record: str, options: dict | None = None) -> Game:
    """The finished (or stopped) game a record describes, read by the first drawn game whose
    ``read_record`` knows it; ``options``: the rules it was played under that the text does not carry
    (a report's). ValueError if it is no record of such a game, or one its rules refuse."""
    if not isinstance(record, str) or not record.strip():
        raise ValueError("a game record must be a non-empty text (a record as its game writes it)")
    if len(record) > MAX_TEXT:
        raise ValueError(f"a game record is at most {MAX_TEXT:,} characters, got {len(record):,}")
    record = record.strip()
    readers = {
        entry.title: read
        for entry in drawn_games().values()
        if (read := entry.presentation.read_record) is not None
    }
    for read in readers.values():
        game = read(record, dict(options or {}))
        if game is not None:
            break
    else:
        raise ValueError(
            f"not a record of a game the page replays ({', '.join(readers)}): {short_repr(record, 80)}"
        )
    if game.ply > MAX_PLIES:
        raise ValueError(f"a replayed record has at most {MAX_PLIES} plies, this one {game.ply}")
    return game


def frames(record: str, options: dict | None = None) -> list[dict]:
    """The position before the first ply and after each ply of ``record`` (`boards.position`)."""
    game = game_of_record(record, options)
    out = [position(game)]
    for _ in range(game.ply):
        game.undo()
        out.append(position(game))
    out.reverse()
    return out


def read_replay(text: str) -> dict:
    """A record or a report as ``{"source", "game", "options", "games": [...], "pairs": [...]}``.

    ``games``: ``{"match", "players": [seat 0, seat 1], "result", "length", "reason", "record",
    "options"}`` (``result`` from seat 0's side, None for a forfeit; ``options``: the rules to replay
    it under, for `frames`); ``pairs``: the tallies of a report's
    matches (``player``, ``opponent``, ``wins``, ``draws``, ``losses``, ``mean_length``, ``games``).
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("nothing to replay: paste a game's record or a report's JSON")
    if len(text) > MAX_TEXT:
        raise ValueError(f"a replay text is at most {MAX_TEXT:,} characters, got {len(text):,}")
    if not text.lstrip().startswith(("{", "[")):
        game = game_of_record(text)
        return {
            "source": "record",
            "game": game.game_name,
            "options": {},
            "pairs": [],
            "games": [
                {**_game_row(None, ["?", "?"], game.result, game.ply, "", game.record()), "options": {}}
            ],
        }
    return read_report(parse_json(text, "the report"))


def read_report(report) -> dict:
    """`read_replay` of a parsed JSON report (see the module docstring)."""
    if not isinstance(report, dict):
        raise ValueError(f"a report is a JSON object, got {type(report).__name__}")
    game = _field(report, "game", str, "report")
    game_entry(game)  # ValueError naming the known games
    options = dict(_field(report, "game_options", dict, "report"))
    if "matches" in report:
        source, rows = "arena / evaluate report", _field(report, "matches", list, "report")
        if game_entry(game).has_option("max_turns"):
            options.setdefault("max_turns", 300)  # the arena's default cap, which its reports do not repeat
    elif "pairs" in report:
        source, rows = "ladder report", _field(report, "pairs", list, "report")
        if report.get("max_turns") is not None:
            options.setdefault("max_turns", _field(report, "max_turns", int, "report"))
    elif "results" in report:
        source, rows = "shipped agent's results", _field(report, "results", list, "report")
        if game_entry(game).has_option("max_turns"):
            options.setdefault("max_turns", 300)  # measured in the arena, with its default cap
    else:
        raise ValueError(
            "not a report of training/arena.py or training/evaluate.py: it has neither 'matches' nor 'pairs'"
        )
    records = report.get("records")
    if isinstance(records, dict) and isinstance(records.get("file"), str):
        source += f" (a summary: its games are in {records['file']} beside it)"
    pairs: list[dict] = []
    games: list[dict] = []
    for m, row in enumerate(rows):
        where = f"match {m + 1}"
        if not isinstance(row, dict):
            raise ValueError(f"{where} is not a JSON object")
        a, b = _field(row, "player", str, where), _field(row, "opponent", str, where)
        pair = {"player": a, "opponent": b}
        for key in ("games", "wins", "draws", "losses"):
            pair[key] = _field(row, key, int, where)
        pair["mean_length"] = _field(row, "mean_length", float, where)
        played = row.get("games_played")
        if played is None:
            pair["replayable"] = 0
            pairs.append(pair)
            continue
        if not isinstance(played, list):
            raise ValueError(f"{where}: 'games_played' must be a list, got {type(played).__name__}")
        if len(games) + len(played) > MAX_GAMES:
            raise ValueError(f"a report lists at most {MAX_GAMES:,} games for replay")
        rules = dict(options)
        if isinstance(row.get("repetition_draw"), bool):  # the arena's per-match Hive rule
            rules["repetition_draw"] = row["repetition_draw"]
        for g, entry in enumerate(played):
            games.append({**_played_game(m, a, b, entry, f"{where} game {g + 1}"), "options": rules})
        pair["replayable"] = len(played)
        pairs.append(pair)
    return {"source": source, "game": game, "options": options, "pairs": pairs, "games": games}


def _played_game(match: int, a: str, b: str, entry, where: str) -> dict:
    if not isinstance(entry, dict):
        raise ValueError(f"{where} is not a JSON object")
    seat_of_a = _field(entry, "seat_of_a", int, where)
    if seat_of_a not in (0, 1):
        raise ValueError(f"{where}: 'seat_of_a' must be 0 or 1, got {seat_of_a}")
    result_for_a = entry.get("result_for_a")
    if result_for_a is not None and (
        isinstance(result_for_a, bool) or not isinstance(result_for_a, (int, float))
    ):
        raise ValueError(f"{where}: 'result_for_a' must be a number or null, got {result_for_a!r}")
    if result_for_a is not None and result_for_a not in (-1, 0, 1):
        raise ValueError(f"{where}: 'result_for_a' must be -1, 0, 1 or null, got {result_for_a!r}")
    players = [a, b] if seat_of_a == 0 else [b, a]
    result = None if result_for_a is None else float(result_for_a if seat_of_a == 0 else -result_for_a) + 0.0
    return _game_row(
        match,
        players,
        result,
        _field(entry, "plies", int, where),
        _field(entry, "reason", str, where),
        _field(entry, "record", str, where),
    )


def _game_row(match, players, result, length, reason, record) -> dict:
    return {
        "match": match,
        "players": players,
        "result": result,
        "length": length,
        "reason": reason,
        "record": record,
    }


def _field(row: dict, key: str, kind: type, where: str) -> Any:
    """``row[key]``, checked to be of ``kind`` (an int counts as a float; a bool as neither)."""
    if key not in row:
        raise ValueError(f"{where} lacks the key {key!r}")
    value: Any = row[key]
    kinds = (int, float) if kind is float else (kind,)
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise ValueError(f"{where}: {key!r} must be {kind.__name__}, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        return math.nan
    return value
