"""Ship a learned evaluation as a pretrained agent of the package, with its model card and results.

    python -m hive_envs.training.pretrained export-eval RUN/checkpoints/gen_NNNN.pt hive_eval \\
        --commit SHA [SHA ...] [--depth 3] [--matches REPORT.json ...] [--note TEXT]
    python -m hive_envs.training.pretrained add-matches hive_eval REPORT.json ... [--opening-seed S]

The source is a generation file of a ``hive-train-eval`` run (`hive_envs.training.eval_training`),
``RUN/checkpoints/gen_NNNN.pt`` (or ``latest.pt``), or a network fitted afresh to the run's data and
written beside them (`hive_envs.training.eval_refit`, generation N: the data of the run's first N);
``RUN`` is the folder above ``checkpoints/``, whose ``progress.jsonl`` says how the run got there.
NAME must be an `EVALUATION` agent of `hive_envs.pretrained.PRETRAINED`. Written into the package's pretrained folder:

- ``NAME.pt``: the file's compiled network (``evaluation``, what a search reads) and what loading it
  needs (game, options, features, sizes, generation, positions, the training config), re-saved in the
  safe format (`hive_envs.agents.eval_checkpoint`). The trainer's torch module (``model``, left empty)
  and ``train_state`` (the optimizer, for --resume) are dropped: training goes on from the run's
  files, and they are most of the bytes;
- ``NAME.json``, its model card: ``kind`` "evaluation", what it is, the file's size and sha256, game,
  features and network; ``generations``, ``positions`` and ``training_minutes`` as the run's
  ``progress.jsonl`` recorded them at that generation (the minutes include the run's per-generation
  matches), with those lines (``training``); ``code_commits`` (``--commit``: the commits the run ran
  from, which the trainer's files do not record, then a refit's); ``config``, the training config;
  ``default_depth``, the depth ``pretrained:NAME`` searches to (``--depth``, `DEFAULT_DEPTH`); ``usage``; ``results``;
  ``note``.

``results`` are measured, never written by hand: ``--matches`` takes arena reports (``hive-arena PLAYER
OPPONENT ... --out REPORT.json``, `hive_envs.evaluation.arena`) whose PLAYER (the first) is an
alpha-beta search with this network, ``alphabeta:...,eval=learned:PATH`` with PATH holding the same
compiled arrays (the generation file, or any copy), or ``pretrained:NAME[@T=S]`` /
``alphabeta:...,eval=pretrained:NAME`` while the shipped file already holds it (an export again). Each
match becomes a row (its counts by seat, score and intervals, move times, the search and the arena's
limit, the opening book's seed, the report's path) in the card and in the agent's results file,
``docs/results/pretrained_NAME.json`` (its games in the records file beside it, when the report's are
at hand). A row replaces one of the same search, opponent and opening book (`row_key`; a row whose
book is not known, from a report written before arena reports recorded their seed, only one from the
same report); a file with another network drops the rows of the one it replaces, and its results
file. Anything refused is refused before anything is written.

``add-matches`` (`add_matches`) adds matches to the card of the evaluation the package ships, without
its training run: a match measured after the export, when the run's folder may be gone. Its reports
must have played the shipped file's network, as above; ``--opening-seed`` gives the book of a report
that does not record it (``hive-arena --seed``, 0 by default).
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import torch

from hive_envs.agents.eval_checkpoint import load_eval_checkpoint, save_eval_checkpoint
from hive_envs.core.learned_eval import ARRAY_NAMES
from hive_envs.evaluation import results_files
from hive_envs.evaluation.agent_results import results_file
from hive_envs.evaluation.provenance import ROOT
from hive_envs.games import GAMES
from hive_envs.players.alphabeta import AlphaBetaPlayer, parse_settings
from hive_envs.players.specs import evaluation_argument, parse_spec
from hive_envs.pretrained import (
    EVALUATION,
    MAX_BYTES,
    PRETRAINED,
    pretrained_folder,
    pretrained_kind,
    pretrained_names,
    pretrained_path,
)

DEFAULT_DEPTH = 3
"""How deep ``pretrained:NAME`` searches by default. A depth, not a time: a depth-limited search plays
the same move on any machine at any load, so its games and results can be played again, where a
timed one's depend on the machine (``pretrained:NAME@T=S`` is there for that). Depth 3: the depth the
hand evaluation's ``alphabeta`` plays by default, the depth of the trainer's self-play (``play_depth``)
and of the fixed-depth match a learned evaluation is measured by (against ``alphabeta:3``)."""
_COMMIT = re.compile(r"[0-9a-f]{7,40}")
_DROPPED = ("model", "train_state", "sha256")  # the trainer's module, its --resume state, load's digest


def export_evaluation(
    checkpoint: str,
    name: str,
    commit: str | list[str],
    depth: int = DEFAULT_DEPTH,
    matches: list[str] | None = None,
    note: str = "",
) -> tuple[Path, Path]:
    """Write NAME.pt and NAME.json into the package's pretrained folder (module docstring); returns
    both paths. ValueError, writing nothing, for a name that is no evaluation agent, a bad commit or
    depth, a file that is no learned evaluation, a run folder whose progress.jsonl does not describe
    it, or a match report that did not play this network."""
    check_evaluation_name(name)
    commits = [full_commit(one) for one in ([commit] if isinstance(commit, str) else commit)]
    data = load_eval_checkpoint(checkpoint)
    # its game has a search that reads it, the depth is in range, the network fits the features
    AlphaBetaPlayer.from_spec(f"{depth},eval=learned:{checkpoint}", str(data["game"]))
    training = progress_lines(Path(checkpoint), data)
    rows, games = match_rows(name, data, matches or [])
    weights = _write_file(
        name, {key: value for key, value in data.items() if key not in _DROPPED}, checkpoint
    )
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()
    card_path = weights.with_suffix(".json")
    previous = json.loads(card_path.read_text()) if card_path.is_file() else {}
    same_network = previous.get("file_sha256") == digest
    kept = previous.get("results", []) if same_network else []
    if not same_network:  # another network under this name: the old one's results do not describe it
        for path in (results_file(name), results_files.records_path(results_file(name))):
            path.unlink(missing_ok=True)
    card = {
        "name": name,
        "kind": EVALUATION,
        "description": PRETRAINED[name].description,
        "file": weights.name,
        "bytes": weights.stat().st_size,
        "file_sha256": digest,
        "game": data["game"],
        "game_options": data["game_options"],
        "features": data["features"],
        "network": data["network"],
        "generations": data["generation"],
        "positions": data["positions"],
        "training_minutes": round(training[-1]["elapsed_s"] / 60.0, 1),
        "training": training,
        "code_commits": commits,
        "config": data.get("config"),
        "default_depth": depth,
        "usage": {
            "alpha-beta to the default depth": f"pretrained:{name}",
            "alpha-beta for S seconds a move": f"pretrained:{name}@T=S",
            "any alpha-beta spec": f"alphabeta:D,eval=pretrained:{name}",
            "python": f'hive_envs.players.make_player("pretrained:{name}")',
        },
        "results": merged_rows(kept, rows),
        "note": note,
    }
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    if rows:
        _record(name, card, rows, games)
    return weights, card_path


def _write_file(name: str, payload: dict[str, Any], source: str) -> Path:
    """``NAME.pt`` of ``payload`` without the trainer's module; ValueError, the shipped file left as it
    was, when it would be larger than `MAX_BYTES`."""
    path = pretrained_folder() / f"{name}.pt"
    written = save_eval_checkpoint(path.with_name(f".{path.name}.new"), {**payload, "model": {}})
    size = written.stat().st_size
    if size > MAX_BYTES:
        written.unlink()
        raise ValueError(
            f"{source!r} makes a {size:,}-byte file; a pretrained agent must stay under {MAX_BYTES:,}"
        )
    return written.replace(path)


def full_commit(commit: str) -> str:
    """The full sha of ``commit`` (7 to 40 hex digits) in the package's git checkout; ValueError when it
    is not one of its commits."""
    if _COMMIT.fullmatch(commit):
        found = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if found.returncode == 0:
            return found.stdout.strip()
    raise ValueError(
        f"--commit: the git commit the run ran from, 7 to 40 hex digits of a commit of this checkout "
        f"({ROOT}), got {commit!r}"
    )


def progress_lines(checkpoint: Path, data: dict[str, Any]) -> list[dict]:
    """The run's ``progress.jsonl`` lines of generations 1 to the file's (the last line of each);
    ValueError when the run folder has none, misses one, or counts other positions than the file."""
    run_dir = checkpoint.resolve().parent.parent
    path = run_dir / "progress.jsonl"
    try:
        lines = [json.loads(text) for text in path.read_text().splitlines() if text.strip()]
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(
            f"cannot read the run's progress {str(path)!r} (the folder above the file's checkpoints/): {error}"
        ) from None
    by_generation = {line.get("generation"): line for line in lines if isinstance(line, dict)}
    wanted = range(1, data["generation"] + 1)
    missing = [generation for generation in wanted if generation not in by_generation]
    if missing:
        raise ValueError(f"{str(path)!r} has no line for generation(s) {missing} of {str(checkpoint)!r}")
    training = [by_generation[generation] for generation in wanted]
    positions = sum(int(line["positions"]) for line in training)
    if positions != data["positions"]:
        raise ValueError(
            f"{str(path)!r} counts {positions:,} positions up to generation {data['generation']}; the file "
            f"{str(checkpoint)!r} was trained on {data['positions']:,}: another run's progress"
        )
    return training


def check_evaluation_name(name: str) -> None:
    """ValueError unless ``name`` is a learned-evaluation agent of the package (an unknown name's
    error lists the known ones)."""
    if pretrained_kind(name) != EVALUATION:
        raise ValueError(
            f"{name!r} is no learned-evaluation agent of the package "
            f"({', '.join(pretrained_names(EVALUATION))}); a policy checkpoint is exported with `export`"
        )


def add_matches(name: str, matches: list[str], opening_seed: int | None = None) -> Path:
    """Add the arena reports' matches of the shipped evaluation ``name`` to its card and results file
    (module docstring, ``add-matches``); returns the card's path. ValueError, writing nothing, for a
    name that is no evaluation agent, no reports, or a report that did not play the shipped network."""
    check_evaluation_name(name)
    if not matches:
        raise ValueError("add-matches: give the arena reports to add")
    if opening_seed is not None and (
        isinstance(opening_seed, bool) or not isinstance(opening_seed, int) or opening_seed < 0
    ):
        raise ValueError(f"--opening-seed must be an int >= 0 (hive-arena's --seed), got {opening_seed!r}")
    weights = pretrained_path(name)
    rows, games = match_rows(name, load_eval_checkpoint(weights), matches, opening_seed)
    card_path = weights.with_suffix(".json")
    card = json.loads(card_path.read_text())
    card["results"] = merged_rows(card.get("results", []), rows)
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    _record(name, card, rows, games)
    return card_path


def row_key(row: dict) -> tuple:
    """What a result row measured: the search's depth and seconds a move, the opponent and the opening
    book (its seed; where the row does not know it, the report it came from)."""
    book = row.get("opening_seed")
    return (
        row["depth"],
        row["move_time_s"],
        row["opponent"],
        book if book is not None else row.get("matches_report"),
    )


def merged_rows(earlier: list[dict], rows: list[dict]) -> list[dict]:
    """``earlier`` without the rows ``rows`` measure again (`row_key`), then ``rows``."""
    replaced = {row_key(row) for row in rows}
    return [row for row in earlier if row_key(row) not in replaced] + rows


def match_rows(
    name: str, data: dict[str, Any], reports: list[str], opening_seed: int | None = None
) -> tuple[list[dict], list[list[dict]]]:
    """The result rows of the arena reports' matches (module docstring) and each row's games (empty
    when a report's records file is not at hand); ``opening_seed``: the book of a report that does not
    record its seed. ValueError for a report of another game or variant, or a match whose first player
    is not an alpha-beta search with ``data``'s network."""
    game = str(data["game"])
    definition = GAMES[game]
    trained_on = definition.label(definition.parse_options(dict(data["game_options"])))
    rows, games = [], []
    for path in reports:
        try:
            report, _ = results_files.read_report(path)
        except (OSError, json.JSONDecodeError) as error:
            raise ValueError(f"--matches: cannot read {path!r}: {error}") from None
        if not isinstance(report, dict) or not isinstance(report.get("matches"), list):
            raise ValueError(f"--matches: {path!r} is no arena report (hive-arena ... --out REPORT.json)")
        played_on = report.get("game") == game and definition.label(
            definition.parse_options(dict(report.get("game_options") or {}))
        )
        if played_on != trained_on:
            raise ValueError(
                f"--matches: {path!r} was played on {report.get('game')!r} {report.get('game_options')}; "
                f"the evaluation plays {trained_on}"
            )
        for match in report["matches"]:
            depth, move_time_s = _searched_with(name, data, match["player"], game, path)
            arena_time_s = report.get("move_time_s")
            if arena_time_s:  # the arena's limit replaces the player's own (`AlphaBetaPlayer.choose`)
                depth, move_time_s = None, float(arena_time_s)
            summary, _ = results_files.without_games(match)
            rows.append(
                {
                    **summary,
                    "depth": depth,
                    "move_time_s": move_time_s,
                    "opening_plies": report.get("opening_plies"),
                    "opening_seed": report.get("seed", opening_seed),
                    "matches_report": str(path),
                }
            )
            games.append(list(match.get(results_files.GAMES, [])))
    return rows, games


def _searched_with(name: str, data: dict[str, Any], player: str, game: str, path: str) -> tuple:
    """(depth, seconds a move) of the match's first player, after checking that it searched with
    ``data``'s network (ValueError otherwise)."""
    said = f"--matches: {path!r}: its player {player!r}"
    spec = parse_spec(player)
    argument = evaluation_argument(spec.argument) if spec.kind == "pretrained" else spec.argument
    if spec.kind not in ("alphabeta", "pretrained") or argument is None:
        raise ValueError(
            f"{said} is no alpha-beta search (the learned evaluation must be the arena's PLAYER)"
        )
    depth, move_time_s, file, _ = parse_settings(argument, game)
    if file is None:
        raise ValueError(f"{said} searched with the hand evaluation, not a learned one")
    try:
        played = load_eval_checkpoint(file)["evaluation"]
    except ValueError as error:
        raise ValueError(f"{said}: cannot check which network it played: {error}") from None
    exported = data["evaluation"]
    same = played.keys() == exported.keys() and all(torch.equal(played[k], exported[k]) for k in ARRAY_NAMES)
    if not same:
        shipped = (
            f" (the shipped {pretrained_path(name).name} before this export)"
            if "pretrained:" in player
            else ""
        )
        raise ValueError(f"{said} played another network than this file's: {file!r}{shipped}")
    return depth, move_time_s


def _record(name: str, card: dict, rows: list[dict], games: list[list[dict]]) -> None:
    """The agent's results file: the card's rows, with their games where the reports' were at hand."""
    path = results_file(name)
    earlier = results_files.read_report(path)[0].get("results", []) if path.is_file() else []
    played = [{**row, results_files.GAMES: g} if g else row for row, g in zip(rows, games)]
    results_files.write(
        path,
        {
            "name": name,
            "game": card["game"],
            "game_options": card["game_options"],
            "results": merged_rows(earlier, played),
        },
    )
