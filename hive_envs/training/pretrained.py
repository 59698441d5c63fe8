"""Ship a trained checkpoint as a pretrained agent of the package, with its model card; measure it.

    python -m hive_envs.training.pretrained export runs/hive_base/checkpoints/latest.pt hive_base --simulations 16 \\
        --note "trained with --config hive_base, then --resume ..."
    python -m hive_envs.training.pretrained export-eval runs/hive_eval/checkpoints/gen_0016.pt hive_eval \\
        --commit SHA --matches depth3.json time1.json
    python -m hive_envs.training.pretrained add-matches hive_eval time1_book1.json
    python -m hive_envs.training.pretrained measure hive_base --opponents random alphabeta:1 --games 200 --workers 2
    python -m hive_envs.training.pretrained measure hive_base --play search --opponents alphabeta:2 --games 20

Writes ``hive_envs/agents/pretrained/NAME.pt``: the checkpoint without its ``train_state`` (optimizer
and opponent pool: only --resume needs them, and they are most of the file) and ``search``, re-saved
in the safe format (`hive_envs.agents.checkpoint`: a sha256 of the content is checked at load), and
``NAME.json``, its model card: what it plays, the network, the full training config, the code
commit(s), plies, updates and wall time of every run that trained it (``training_segments``, kept
across --resume), its default search (``default_search``: ``--simulations N``, ``@N``, or
``--move-time S``, ``@T=S``) and how every ``@N`` / ``@T=S`` of it searches
(``search``: ``--prior-temperature``, ``--rule-value-share``, by default the checkpoint's own, from
its training config's ``search_*`` keys, and kept in the card only, so that the file stays the same
file whatever its search; changing them drops its searched results), its measured
results (kept from the card it replaces when the weights are the same file, else dropped, with the
agent's results file) and ``--note`` (free text). NAME must be a policy agent of
`hive_envs.pretrained.PRETRAINED`; the file must stay under `hive_envs.pretrained.MAX_BYTES`.

``measure`` adds the agent's arena matches against ``--opponents`` to its model card and results file
(`hive_envs.evaluation.agent_results`, whose docstring says how they are played and kept);
``measure NAME --from-ladder REPORT`` takes them from a ladder report (``evaluate.py --ladder ...
pretrained:NAME pretrained:NAME@N``) instead. The cards and results become docs/pretrained.md and the
tables of the README and docs/results.md through ``python -m tools.render_docs``.

``export-eval`` ships a learned evaluation (a ``hive-train-eval`` run's generation file) as an agent of
kind ``EVALUATION``, with its card and, from arena reports, its results (`hive_envs.training.pretrained_eval`,
whose docstring says what it writes); ``add-matches NAME REPORT ...`` adds arena matches of the one
shipped to its card and results, without its training run; ``export`` and ``measure`` take the policy
agents.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from hive_envs.evaluation import results_files
from hive_envs.evaluation.agent_results import (
    PLAYS,
    drop_search_rows,
    measure,
    record_rows,
    results_file,
    rows_from_ladder,
    search_suffix,
)
from hive_envs.evaluation.cli import exit_code
from hive_envs.evaluation.match import format_table
from hive_envs.extras import command, script_imports
from hive_envs.players.specs import split_agent_spec
from hive_envs.pretrained import (
    EVALUATION,
    MAX_BYTES,
    POLICY,
    PRETRAINED,
    pretrained_folder,
    pretrained_kind,
    pretrained_names,
)

with script_imports(__name__):  # run as a script without an extra: one line, not a traceback
    from hive_envs.agents.checkpoint import DEFAULT_SEARCH, load_checkpoint, save_checkpoint, stored_search
    from hive_envs.players.checkpoint import AgentPlayer
    from hive_envs.training.pretrained_eval import DEFAULT_DEPTH, add_matches, export_evaluation


def training_minutes(segments: list[dict]) -> float:
    """Wall time of training (evaluations during training included) over every run, in minutes."""
    return sum(s.get("end_seconds", s["start_seconds"]) - s["start_seconds"] for s in segments) / 60.0


def export(
    checkpoint: str,
    name: str,
    simulations: int,
    note: str = "",
    prior_temperature: float | None = None,
    rule_value_share: float | None = None,
    move_time_s: float | None = None,
) -> tuple[Path, Path]:
    """Write NAME.pt and NAME.json into the package's pretrained folder; returns both paths.
    The card's default search is ``@simulations``, or with ``move_time_s`` ``@T=move_time_s``.
    ``prior_temperature`` and ``rule_value_share`` are the card's ``search``: how every ``@N`` /
    ``@T=S`` of the agent searches (`hive_envs.agents.search`); None: the checkpoint's own (its
    training config's ``search_*`` keys; a card without ``search`` is the plain PUCT)."""
    if pretrained_kind(name) == EVALUATION:  # ValueError for an unknown name, listing the known ones
        raise ValueError(f"{name!r} is a learned evaluation, not a policy agent: export it with export-eval")
    if simulations < 0:
        raise ValueError(f"--simulations must be >= 0, got {simulations}")
    suffix = search_suffix(simulations, move_time_s)
    split_agent_spec(f"pretrained:{name}{suffix}")  # ValueError for seconds out of (0, 3600]
    data = load_checkpoint(checkpoint)
    search = stored_search(
        data, checkpoint, prior_temperature=prior_temperature, rule_value_share=rule_value_share
    )
    AgentPlayer.load(  # ValueError for settings the network cannot use
        checkpoint,
        simulations,
        prior_temperature=search["prior_temperature"],
        rule_value_share=search["rule_value_share"],
    )
    # the card is the one place of a shipped agent's search: the file stays the same file whatever it is
    payload = {key: value for key, value in data.items() if key not in ("train_state", "search")}
    folder = pretrained_folder()
    weights = save_checkpoint(folder / f"{name}.pt", payload)
    size = weights.stat().st_size
    if size > MAX_BYTES:
        weights.unlink()
        raise ValueError(
            f"{checkpoint!r} makes a {size:,}-byte file; a pretrained agent must stay under {MAX_BYTES:,}"
        )
    segments = list(data.get("training_segments", []))
    card_path = folder / f"{name}.json"
    previous = json.loads(card_path.read_text()) if card_path.is_file() else {}
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()
    same_agent = previous.get("file_sha256") == digest
    results = previous.get("results", []) if same_agent else []
    if not same_agent:  # another agent under this name: the old one's results do not describe it
        for path in (results_file(name), results_files.records_path(results_file(name))):
            path.unlink(missing_ok=True)
    elif previous.get("search", DEFAULT_SEARCH) != search:  # its searched results are another search's
        results = drop_search_rows(name, results)
    card = {
        "name": name,
        "description": PRETRAINED[name].description,
        "file": weights.name,
        "bytes": size,
        "file_sha256": digest,
        "game": data["game"],
        "game_options": data["game_options"],
        "network": data["network"],
        "plies_trained": data["global_step"],
        "updates": data["update"],
        "training_minutes": round(training_minutes(segments), 1),
        "training_segments": segments,
        "code_commits": sorted({s["code_commit"] for s in segments if s.get("code_commit")}),
        "config": data.get("config"),
        "default_search": suffix,
        "search": search,
        "usage": {
            "raw policy": f"pretrained:{name}",
            "with search": f"pretrained:{name}{suffix}",
            "python": f'hive_envs.agents.load_pretrained("{name}")',
        },
        "results": results,
        "note": note,
    }
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    return weights, card_path


def _export_eval_arguments(commands) -> None:
    """The ``export-eval`` command's arguments (`hive_envs.training.pretrained_eval`)."""
    evaluation = commands.add_parser(
        "export-eval", help="write a learned evaluation into the package as agent NAME, with its results"
    )
    evaluation.add_argument(
        "checkpoint",
        help="a hive-train-eval generation file (RUN/checkpoints/gen_NNNN.pt), or a refit of the run's data "
        "written beside them (hive_envs.training.eval_refit)",
    )
    evaluation.add_argument("name", help=f"one of {', '.join(pretrained_names(EVALUATION))}")
    evaluation.add_argument(
        "--commit",
        required=True,
        nargs="+",
        help="the git commit(s) the run ran from (its files do not record them): the run's, then a refit's",
    )
    evaluation.add_argument(
        "--depth",
        type=int,
        default=DEFAULT_DEPTH,
        help="plies pretrained:NAME searches to (default: %(default)s)",
    )
    evaluation.add_argument(
        "--matches",
        nargs="+",
        default=[],
        metavar="REPORT",
        help="arena reports (hive-arena ... --out REPORT) whose first player searched with this network: "
        "its results",
    )
    evaluation.add_argument("--note", default="", help="free text for the model card (how it was trained)")
    added = commands.add_parser(
        "add-matches", help="add arena matches of a shipped learned evaluation to its card and results"
    )
    added.add_argument("name", help=f"one of {', '.join(pretrained_names(EVALUATION))}")
    added.add_argument(
        "matches",
        nargs="+",
        metavar="REPORT",
        help="arena reports (hive-arena ... --out REPORT) whose first player searched with the shipped network",
    )
    added.add_argument(
        "--opening-seed",
        type=int,
        metavar="S",
        help="the opening book (hive-arena --seed) of reports that do not record it",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    ship = commands.add_parser("export", help="write a checkpoint into the package as agent NAME")
    ship.add_argument("checkpoint", help="a training checkpoint (e.g. runs/hive_base/checkpoints/latest.pt)")
    ship.add_argument("name", help=f"one of {', '.join(pretrained_names(POLICY))}")
    default_budget = ship.add_mutually_exclusive_group()
    default_budget.add_argument(
        "--simulations", type=int, default=16, help="its default search: N simulations a move (@N)"
    )
    default_budget.add_argument(
        "--move-time", type=float, metavar="S", help="its default search: S seconds a move (@T=S)"
    )
    ship.add_argument(
        "--prior-temperature",
        type=float,
        help="its search's prior temperature (1: the policy; default: the checkpoint's, else 1)",
    )
    ship.add_argument(
        "--rule-value-share",
        type=float,
        help="share of its search's leaf value from the network's rule value (0: the value head; "
        "default: the checkpoint's, else 0)",
    )
    ship.add_argument("--note", default="", help="free text for the model card (how it was trained)")
    _export_eval_arguments(commands)
    bench = commands.add_parser("measure", help="arena matches of a shipped agent, into its results")
    bench.add_argument("name", help=f"one of {', '.join(pretrained_names(POLICY))}")
    bench.add_argument("--opponents", nargs="+", default=[], help="player specs (random, alphabeta:2, ...)")
    bench.add_argument("--games", type=int, default=200, help="games per opponent (even), half in each seat")
    bench.add_argument("--play", default="argmax", help=f"one of {', '.join(PLAYS)}")
    bench.add_argument("--workers", type=int, default=1)
    bench.add_argument("--seed", type=int, default=0)
    budget = bench.add_mutually_exclusive_group()
    budget.add_argument(
        "--simulations", type=int, help="with --play search: simulations (default: the card's search)"
    )
    budget.add_argument(
        "--move-time", type=float, metavar="S", help="with --play search: S seconds a move (@T=S)"
    )
    bench.add_argument(
        "--from-ladder",
        metavar="REPORT",
        help="play nothing: take the agent's matches from this ladder report (evaluate.py --ladder)",
    )
    args = parser.parse_args(argv)

    def run() -> None:
        if args.command == "export":
            search = (args.prior_temperature, args.rule_value_share)
            written = export(
                args.checkpoint, args.name, args.simulations, args.note, *search, move_time_s=args.move_time
            )
            for path in written:
                print(f"wrote {path}")
        elif args.command == "export-eval":
            shipped = export_evaluation(
                args.checkpoint, args.name, args.commit, args.depth, args.matches, args.note
            )
            for path in shipped:
                print(f"wrote {path}")
        elif args.command == "add-matches":
            print(f"wrote {add_matches(args.name, args.matches, args.opening_seed)}")
        elif args.from_ladder:
            results, rows = rows_from_ladder(args.name, args.from_ladder)
            record_rows(args.name, rows)
            print(format_table(results, forfeits=True))
        elif not args.opponents:
            raise ValueError("measure: give --opponents (or --from-ladder REPORT)")
        else:
            budget = (args.simulations, args.move_time)
            measure(args.name, args.opponents, args.games, args.play, args.workers, args.seed, *budget)

    return exit_code(run)


if __name__ == "__main__":
    sys.exit(command(main)())
