"""Ship a trained checkpoint as a pretrained agent of the package, with its model card.

    python training/pretrained.py runs/hive_base/checkpoints/latest.pt hive_base --simulations 64 \\
        --results ladder_rows.json --note "trained with configs/hive_base.yaml, then --resume ..."

Writes ``hive_envs/agents/pretrained/NAME.pt``: the checkpoint without its ``train_state`` (optimizer
and opponent pool: only --resume needs them, and they are most of the file), re-saved in the safe
format (`hive_envs.agents.checkpoint`: a sha256 of the content is checked at load), and
``NAME.json``, its model card: what it plays, the network, the full training config, the code
commit(s), plies, updates and wall time of every run that trained it (``training_segments``, kept
across --resume), the search setting its ``@N`` results use, and measured results (``--results``:
a JSON list of match rows, e.g. from the ladder or evaluate.py; ``--note``: free text). NAME must be
one of `hive_envs.pretrained.PRETRAINED`; the file must stay under `MAX_BYTES`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `training` and `hive_envs` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hive_envs.agents.checkpoint import load_checkpoint, save_checkpoint
from hive_envs.pretrained import PRETRAINED, pretrained_folder
from training.cli import exit_code

MAX_BYTES = 5 * 1024 * 1024


def training_minutes(segments: list[dict]) -> float:
    """Wall time of training (evaluations during training included) over every run, in minutes."""
    return sum(s.get("end_seconds", s["start_seconds"]) - s["start_seconds"] for s in segments) / 60.0


def export(
    checkpoint: str, name: str, simulations: int, results: list | None = None, note: str = ""
) -> tuple[Path, Path]:
    """Write NAME.pt and NAME.json into the package's pretrained folder; returns both paths."""
    if name not in PRETRAINED:
        raise ValueError(
            f"unknown pretrained agent {name!r}; the pretrained agents are {', '.join(PRETRAINED)}"
        )
    if simulations < 0:
        raise ValueError(f"--simulations must be >= 0, got {simulations}")
    data = load_checkpoint(checkpoint)
    payload = {key: value for key, value in data.items() if key != "train_state"}
    folder = pretrained_folder()
    weights = save_checkpoint(folder / f"{name}.pt", payload)
    size = weights.stat().st_size
    if size > MAX_BYTES:
        weights.unlink()
        raise ValueError(
            f"{checkpoint!r} makes a {size:,}-byte file; a pretrained agent must stay under {MAX_BYTES:,}"
        )
    segments = list(data.get("training_segments", []))
    card = {
        "name": name,
        "description": PRETRAINED[name],
        "file": weights.name,
        "bytes": size,
        "file_sha256": hashlib.sha256(weights.read_bytes()).hexdigest(),
        "game": data["game"],
        "game_options": data["game_options"],
        "network": data["network"],
        "plies_trained": data["global_step"],
        "updates": data["update"],
        "training_minutes": round(training_minutes(segments), 1),
        "training_segments": segments,
        "code_commits": sorted({s["code_commit"] for s in segments if s.get("code_commit")}),
        "config": data.get("config"),
        "default_simulations": simulations,
        "usage": {
            "raw policy": f"pretrained:{name}",
            "with search": f"pretrained:{name}@{simulations}",
            "python": f'hive_envs.agents.load_pretrained("{name}")',
        },
        "results": results or [],
        "note": note,
    }
    card_path = folder / f"{name}.json"
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    return weights, card_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "checkpoint", help="a training checkpoint (e.g. runs/hive_base/checkpoints/latest.pt)"
    )
    parser.add_argument("name", help=f"one of {', '.join(PRETRAINED)}")
    parser.add_argument("--simulations", type=int, default=64, help="the search setting of its @N results")
    parser.add_argument("--results", help="a JSON file holding a list of result rows for the model card")
    parser.add_argument("--note", default="", help="free text for the model card (how it was trained)")
    args = parser.parse_args(argv)

    def run() -> None:
        results = json.loads(Path(args.results).read_text()) if args.results else None
        for path in export(args.checkpoint, args.name, args.simulations, results, args.note):
            print(f"wrote {path}")

    return exit_code(run)


if __name__ == "__main__":
    sys.exit(main())
