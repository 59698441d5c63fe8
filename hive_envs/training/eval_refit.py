"""Fit a learned evaluation afresh to a run's stored self-play data: a new network from the hand start,
a few passes over several generations' positions at a learning rate that decays to zero.

    python -m hive_envs.training.eval_refit RUN_DIR --generations 0-4 --out RUN_DIR/checkpoints/refit_0004.pt

Why beside the generations (`hive_envs.training.eval_training`): the trainer carries one network and
its optimizer from generation to generation, ``epochs`` passes over the last ``window_generations``
generations each time, so the same positions are seen again and again and its held-out loss bottoms out
after a pass or two (docs/experiments/hive_eval.md, "Fitted afresh"). A network started again from the
hand evaluation and trained briefly over all of a run's good data generalises better, and its search
plays better; what each generation's search learned is kept in the data it made.

The run folder gives everything else: the network's sizes, the targets' mix (``score_weight``), the
held-out share and the batch size from ``checkpoints/latest.pt``'s config, the hand start's scale
from its first generation (`eval_training.Window`: the hand evaluation's logits through it). The file
written is a learned-evaluation file like a generation's (`hive_envs.agents.eval_checkpoint`), without
an optimizer (a refit is not resumed); its ``config`` holds the run's plus ``refit``: the data's
generations, the passes, the learning rate, the seed and each pass's losses; its ``generation`` is the
last data generation's + 1 (the data of the run's generations up to that one). It plays as
``alphabeta:D,eval=learned:FILE``, and ships as a pretrained agent like a generation's file
(`hive_envs.training.pretrained_eval`, which reads the run's progress.jsonl: write the refit into the
run's checkpoints/ folder).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from pathlib import Path

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # run as a script without an extra: one line, not a traceback
    import torch

    from hive_envs.agents.eval_checkpoint import load_eval_checkpoint, save_eval_checkpoint
    from hive_envs.evaluation.cli import exit_code
    from hive_envs.training.eval_config import config_from_dict
    from hive_envs.training.eval_network import EvalNetwork
    from hive_envs.training.eval_selfplay import searcher_class
    from hive_envs.training.eval_training import Window, data_path, load_data, payload, train_generation
    from hive_envs.training.run_dir import CHECKPOINTS


def generation_range(text: str) -> list[int]:
    """``"A-B"`` (inclusive) or ``"A"`` as a list of generation numbers; ValueError otherwise."""
    first, _, last = text.partition("-")
    try:
        start, stop = int(first), int(last or first)
    except ValueError:
        raise ValueError(f"--generations takes A-B or A (data generations, from 0), got {text!r}") from None
    if start < 0 or stop < start:
        raise ValueError(f"--generations {text!r}: needs 0 <= A <= B")
    return list(range(start, stop + 1))


def cosine_rate(learning_rate: float, epoch: int, epochs: int) -> float:
    """The learning rate of pass ``epoch`` (from 0) of ``epochs``: from ``learning_rate`` down a half
    cosine, so that the last passes settle the weights instead of moving them."""
    return float(learning_rate * 0.5 * (1 + math.cos(math.pi * epoch / epochs)))


def refit(
    run_dir: str | Path,
    generations: list[int],
    out: str | Path,
    epochs: int = 2,
    learning_rate: float = 1e-3,
    seed: int = 1,
    num_threads: int = 2,
    score_weight: float | None = None,
) -> dict:
    """Fit a fresh network to ``generations``' data of ``run_dir`` (module docstring) and write it to
    ``out`` (``score_weight``: the targets' mix, default the run's config's); returns the refit's
    record. ValueError, writing nothing, for a run folder without a checkpoint or a generation's data,
    bad numbers, or an ``out`` that is one of the run's own checkpoints."""
    if epochs < 1 or not learning_rate > 0 or num_threads < 0:
        raise ValueError(
            f"--epochs must be >= 1, --learning_rate > 0 and --num_threads >= 0, got {epochs}, "
            f"{learning_rate} and {num_threads}"
        )
    run_dir = Path(run_dir)
    latest = run_dir / CHECKPOINTS / "latest.pt"
    if not latest.is_file():
        raise ValueError(f"{str(run_dir)!r} holds no learned-evaluation run ({latest} is missing)")
    out = Path(out)
    if out.resolve().parent == latest.resolve().parent and (
        out.name == latest.name or out.name.startswith("gen_")
    ):
        raise ValueError(f"--out {str(out)!r} would replace the run's own checkpoint (--resume reads it)")
    stored = load_eval_checkpoint(latest)
    config = config_from_dict(stored["config"])
    if score_weight is not None:  # the run's last generations may have used another mix than the data's
        config = dataclasses.replace(config, score_weight=score_weight)
    features = searcher_class(config.game).learned_features
    scales = (stored.get("train_state") or {}).get("scales")
    if not scales:
        raise ValueError(f"{str(latest)!r} records no generation's scale (train_state['scales'])")
    parts = [(g, *load_data(data_path(run_dir, g), features)) for g in generations]
    torch.manual_seed(seed)
    if num_threads:
        torch.set_num_threads(num_threads)
    window = Window(parts, config, features, scales[0])
    network = EvalNetwork(features, config.width, config.hidden)
    network.start_from_hand(scales[0])
    optimizer = torch.optim.Adam(network.parameters(), lr=learning_rate)
    one_pass = dataclasses.replace(config, epochs=1)
    generator = torch.Generator().manual_seed(seed)
    passes, started = [], time.time()
    for epoch in range(epochs):
        for group in optimizer.param_groups:
            group["lr"] = cosine_rate(learning_rate, epoch, epochs)
        metrics = train_generation(network, optimizer, window, one_pass, generator)
        passes.append(
            {key.split("/")[-1]: value for key, value in metrics.items() if key.startswith("losses/")}
        )
        print(f"pass {epoch + 1}/{epochs}: " + ", ".join(f"{k} {v:.4f}" for k, v in passes[-1].items()))
    positions = int(window.target.shape[0])
    record = {
        "run": str(run_dir),
        "data_generations": generations,
        "positions": positions,
        "epochs": epochs,
        "learning_rate": learning_rate,
        "score_weight": config.score_weight,
        "schedule": "cosine",
        "seed": seed,
        "passes": passes,
        "seconds": round(time.time() - started, 1),
    }
    written = payload(config, network, optimizer, generations[-1] + 1, positions, {})
    written.pop("train_state")  # nothing to resume: a refit is a file to play, not a run
    written["config"] = {**written["config"], "refit": record}
    save_eval_checkpoint(out, written)
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="eval_refit", description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", help="a learned-evaluation run folder (<runs_dir>/<name>)")
    parser.add_argument("--generations", required=True, help="its data generations to fit, A-B (from 0)")
    parser.add_argument("--out", required=True, help="the learned-evaluation file to write")
    parser.add_argument("--epochs", type=int, default=2, help="passes over the positions (default 2)")
    parser.add_argument("--learning_rate", type=float, default=1e-3, help="Adam's first rate (default 1e-3)")
    parser.add_argument(
        "--score_weight",
        type=float,
        default=None,
        help="the targets' share of the score (default: the run's)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--num_threads", type=int, default=2, help="torch CPU threads (0: torch's default)")
    args = parser.parse_args(argv)

    def run() -> None:
        record = refit(
            args.run_dir,
            generation_range(args.generations),
            args.out,
            args.epochs,
            args.learning_rate,
            args.seed,
            args.num_threads,
            args.score_weight,
        )
        print(json.dumps({key: record[key] for key in ("data_generations", "positions", "seconds")}))
        print(f"wrote {args.out}; play it as alphabeta:D,eval=learned:{args.out}")

    return exit_code(run)


if __name__ == "__main__":
    sys.exit(command(main)())
