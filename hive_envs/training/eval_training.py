"""Train a learned evaluation for a game's alpha-beta search, generation by generation of self-play.

    hive-train-eval --config experiments/hive_eval [--key value ...] [--resume | --overwrite]
    python -m hive_envs.training.eval_training --config experiments/hive_eval      # the same

Read top to bottom (one generation; `generations` of them, or until `time_limit_minutes`):
  1. self-play (`hive_envs.training.eval_selfplay`): ``games_per_generation`` games of the game's
     alpha-beta searcher at ``play_depth`` plies against itself, from random openings, in ``workers``
     processes. Generation 0 searches with the hand evaluation; every later one with the network the
     generation before trained, so learning, not the hand weights, carries the strength forward. Each
     searched position is kept: the features the learned evaluation reads, the search's root score and
     the game's result; the generation's positions go to ``data/gen_NNNN.npz`` in the run folder;
  2. targets (`hive_envs.training.eval_targets`): the scale that turns this generation's scores into
     win probabilities is fitted to its results (Texel's K), and each target is ``score_weight`` x that
     probability + (1 - ``score_weight``) x the result (why the mix: that module);
  3. training: the network (`hive_envs.training.eval_network`; generation 1 starts as the hand
     evaluation: its skip weights the hand weights times the fitted scale, the rest of its output
     zero) is trained ``epochs`` passes over the last ``window_generations`` generations' positions
     (Adam, binary cross-entropy against the soft targets); ``validation_share`` of each generation's
     games are held out, and their loss is logged beside the hand evaluation's (its score through the
     first generation's scale) on the same positions;
  4. the checkpoint: ``checkpoints/gen_NNNN.pt`` and ``checkpoints/latest.pt``
     (`hive_envs.agents.eval_checkpoint`: the compiled form's arrays, the torch module, the optimizer
     for --resume), then, with ``eval_games``, a match of the new network's search against the hand
     evaluation's (``alphabeta:D,eval=learned:PATH`` vs ``alphabeta:D``, or both at ``eval_move_time``
     seconds a move; the arena's paired openings): one point of the learning curve;
  5. a line of ``progress.jsonl`` (the generation, positions, its games' mean length and draws, scale,
     losses, the match's score, the time, the load and the code's commit) and TensorBoard scalars (``losses/...``, ``data/...``, ``eval/vs_hand/score``).

What a trainer does around it, as `hive_envs.training.run`'s: the run folder ``<runs_dir>/<name>/`` is
refused when it holds a run, without --resume (continue: the next generation from
``checkpoints/latest.pt``, the data window read back from ``data/``) or --overwrite (delete its
checkpoints, logs and data first); it is locked while the run lasts (`run_dir.run_lock`); a start that
fails before its first generation ends leaves the folder as it found it; a progress bar counts the
self-play games. The network then plays in any tool as ``alphabeta:D,eval=learned:PATH``.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # run as a script without an extra: one line, not a traceback
    import torch
    from torch.utils.tensorboard import SummaryWriter
    from tqdm import tqdm

    from hive_envs.agents.eval_checkpoint import load_eval_checkpoint, save_eval_checkpoint
    from hive_envs.core.learned_eval import LearnedFeatures
    from hive_envs.evaluation.provenance import git_commit
    from hive_envs.training.cli import train_main
    from hive_envs.training.eval_config import EvalTrainConfig, describe_keys, load_config
    from hive_envs.training.eval_network import EvalNetwork
    from hive_envs.training.eval_selfplay import FIELDS, searcher_class, self_play
    from hive_envs.training.eval_targets import cross_entropy, fit_scale, targets
    from hive_envs.training.run_dir import (
        CHECKPOINTS,
        check_run_dir,
        folder_state,
        prepare_run_dir,
        run_lock,
        undo_start,
    )

DATA = "data"


def data_path(run_dir: Path, generation: int) -> Path:
    return run_dir / DATA / f"gen_{generation:04d}.npz"


def save_data(path: Path, data: dict[str, np.ndarray], scale: float) -> None:
    """The generation's positions and fitted scale, written atomically (numpy arrays only: read back
    without pickle)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "wb") as handle:
        arrays: dict[str, Any] = {
            "scale": np.float64(scale),
            **data,
        }  # Any: numpy's stub reads a bool keyword
        np.savez(handle, **arrays)
    os.replace(temporary, path)


def load_data(path: Path, features: LearnedFeatures) -> tuple[dict[str, np.ndarray], float]:
    """A generation's positions and scale (`save_data`); ValueError naming the file when it is missing,
    not ours or its arrays do not fit ``features``."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            data = {name: stored[name] for name in FIELDS}
            scale = float(stored["scale"])
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"cannot read the self-play data {str(path)!r}: {error}") from None
    n = data["score"].shape[0]
    shapes = {
        "indices": (n, 2, features.max_active),
        "dense": (n, features.num_dense),
        "result": (n,),
        "game": (n,),
        "ply": (n,),
    }
    if any(data[name].shape != shape for name, shape in shapes.items()) or (
        n and not (0 <= data["indices"].min() and data["indices"].max() <= features.num_features)
    ):
        raise ValueError(f"the self-play data {str(path)!r} does not fit the features {features.name!r}")
    return data, scale


def game_lengths(data: dict[str, np.ndarray]) -> dict[str, float]:
    """The generation's games: their mean length in plies (to the last searched position, the opening
    included) and how many were drawn (a draw at the turn cap most often: a search without a way
    forward)."""
    games = np.unique(data["game"])
    if games.size == 0:
        return {"mean_plies": 0.0, "draws": 0}
    last = np.zeros(int(games.max()) + 1, dtype=np.int64)
    np.maximum.at(last, data["game"], data["ply"].astype(np.int64) + 1)
    drawn = np.ones(last.shape, dtype=bool)
    np.logical_and.at(drawn, data["game"], data["result"] == 0)
    return {"mean_plies": float(last[games].mean()), "draws": int(drawn[games].sum())}


def held_out(games: np.ndarray, generation: int, share: float) -> np.ndarray:
    """Which positions belong to the held-out games (a fixed share of each generation's games)."""
    if share <= 0:
        return np.zeros(games.shape, dtype=bool)
    draw = np.random.default_rng([generation, 7]).random(int(games.max()) + 1 if games.size else 0)
    return draw[games] < share


class Window:
    """The positions of the last generations as tensors: inputs, targets, and the hand evaluation's
    logits beside them (for the held-out comparison)."""

    def __init__(self, parts: list[tuple[int, dict[str, np.ndarray], float]], config, features, hand_scale):
        indices, dense, target, validation = [], [], [], []
        for generation, data, scale in parts:
            indices.append(data["indices"].astype(np.int64))
            dense.append(data["dense"])
            target.append(targets(data["score"], data["result"], scale, config.score_weight))
            validation.append(held_out(data["game"], generation, config.validation_share))
        self.indices = torch.as_tensor(np.concatenate(indices))
        self.dense = torch.as_tensor(np.concatenate(dense))
        self.target = torch.as_tensor(np.concatenate(target))
        self.validation = torch.as_tensor(np.concatenate(validation))
        hand = self.dense.numpy() @ features.hand_weights.astype(np.float64)
        self.hand_logits = hand * hand_scale / 100.0


def train_generation(
    network, optimizer, window: Window, config: EvalTrainConfig, generator
) -> dict[str, float]:
    """``epochs`` passes over the window's training positions; the losses."""
    train = torch.nonzero(~window.validation).squeeze(1)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    network.train()
    total, steps = 0.0, 0
    for _ in range(config.epochs):
        order = train[torch.randperm(train.numel(), generator=generator)]
        for start in range(0, order.numel(), config.batch_size):
            rows = order[start : start + config.batch_size]
            loss = loss_fn(network(window.indices[rows], window.dense[rows]), window.target[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * rows.numel()
            steps += rows.numel()
    network.eval()
    metrics = {"losses/train": total / max(steps, 1), "data/train_positions": float(train.numel())}
    held = torch.nonzero(window.validation).squeeze(1)
    if held.numel():
        with torch.no_grad():
            logits = network(window.indices[held], window.dense[held]).numpy().astype(np.float64)
        target = window.target[held].numpy()
        metrics["losses/validation"] = cross_entropy(1 / (1 + np.exp(-logits)), target)
        hand = np.clip(window.hand_logits[held.numpy()], -50, 50)
        metrics["losses/validation_hand"] = cross_entropy(1 / (1 + np.exp(-hand)), target)
    return metrics


def payload(config, network, optimizer, generation: int, positions: int, state: dict) -> dict:
    features = searcher_class(config.game).learned_features
    return {
        "game": config.game,
        "game_options": dict(config.game_options),
        "features": features.name,
        "evaluation": {name: torch.from_numpy(array) for name, array in network.export().items()},
        "model": {name: tensor.detach().clone() for name, tensor in network.state_dict().items()},
        "network": {"width": config.width, "hidden": config.hidden},
        "generation": generation,
        "positions": positions,
        "config": config.to_dict(),
        "train_state": {"optimizer": optimizer.state_dict(), **state},
    }


def evaluation_match(config: EvalTrainConfig, checkpoint: Path, generation: int) -> dict:
    """The new network's search against the hand evaluation's (module docstring, step 4)."""
    from hive_envs.evaluation.arena import Settings, play_match

    limit = f"T={config.eval_move_time:g}" if config.eval_move_time else f"{config.eval_depth}"
    learned, hand = f"alphabeta:{limit},eval=learned:{checkpoint}", f"alphabeta:{limit}"
    settings = Settings(
        game=config.game,
        game_options=dict(config.game_options),
        opening_plies=config.eval_opening_plies,
        move_time_s=config.eval_move_time or None,
        seed=config.seed + generation,
    )
    result, _ = play_match(learned, hand, config.eval_games, settings, workers=config.workers)
    return {"score": result.score, "wins": result.wins, "draws": result.draws, "losses": result.losses}


def _resume(path: Path, config, network, optimizer, features) -> dict:
    data = load_eval_checkpoint(path, game=config.game, features=features)
    if data["network"] != {"width": config.width, "hidden": config.hidden} or data["game_options"] != dict(
        config.game_options
    ):
        raise ValueError(
            f"cannot resume {str(path)!r}: it was trained with network {data['network']} and game_options "
            f"{data['game_options']}, the config asks for width {config.width}, hidden {config.hidden}, "
            f"game_options {config.game_options}"
        )
    state = data.get("train_state")
    if not isinstance(state, dict) or not {"optimizer", "elapsed_s", "scales"} <= state.keys():
        raise ValueError(f"cannot resume {str(path)!r}: it holds no complete train_state")
    try:
        network.load_state_dict(data["model"])
        optimizer.load_state_dict(state["optimizer"])
    except (KeyError, TypeError, ValueError, RuntimeError) as error:
        raise ValueError(
            f"cannot resume {str(path)!r}: its weights do not fit the network: {error}"
        ) from None
    return {
        "generation": data["generation"],
        "positions": data["positions"],
        "elapsed_s": float(state["elapsed_s"]),
        "scales": [float(s) for s in state["scales"]],
    }


def train(config: EvalTrainConfig, resume: bool = False, overwrite: bool = False) -> dict:
    """Run the trainer (module docstring); returns the run's summary. ValueError, changing nothing,
    for a game without a learned evaluation or a run folder that may not be used as asked."""
    cls = searcher_class(config.game)
    features = cls.learned_features
    run_dir = Path(config.runs_dir) / config.name
    check_run_dir(run_dir, resume=resume, overwrite=overwrite)
    if config.num_threads:
        torch.set_num_threads(config.num_threads)
    random.seed(config.seed)
    np.random.seed(config.seed)
    torch.manual_seed(config.seed)
    network = EvalNetwork(features, config.width, config.hidden)
    optimizer = torch.optim.Adam(network.parameters(), lr=config.learning_rate)
    state = {"generation": 0, "positions": 0, "elapsed_s": 0.0, "scales": []}
    if resume:
        state = _resume(run_dir / CHECKPOINTS / "latest.pt", config, network, optimizer, features)
    done_before = state["generation"]
    found = folder_state(run_dir)
    found_data = set((run_dir / DATA).glob("*.npz")) if (run_dir / DATA).is_dir() else set()
    started = False  # the lock is ours: from here a failed start is taken back (never another run's files)
    try:
        with run_lock(run_dir), contextlib.ExitStack() as stack:
            started = True
            check_run_dir(run_dir, resume=resume, overwrite=overwrite)
            prepare_run_dir(run_dir, overwrite=overwrite)
            if overwrite:
                for path in found_data:
                    path.unlink(missing_ok=True)
                found_data = set()
            return _generations(config, run_dir, network, optimizer, features, state, stack)
    except BaseException:
        if started and state["generation"] == done_before:  # no generation ended: take the start back
            _undo_start(run_dir, found, found_data)
        raise


def _undo_start(run_dir: Path, found, found_data: set[Path]) -> None:
    """What a start that failed before its first generation ended added: its data files, then
    `run_dir.undo_start`'s (its other outputs, and the folders it made, if empty)."""
    for path in set((run_dir / DATA).glob("*.npz")) - found_data:
        path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        (run_dir / DATA).rmdir()
    undo_start(run_dir, found)


def _log_generation(
    config, run_dir: Path, writer, bar, generation: int, checkpoint: Path, data, scale, metrics, started, code
) -> None:
    """Generation ``generation``'s (counted from 1) line of progress.jsonl and its TensorBoard scalars,
    with its match against the hand search when ``config.eval_games``; ``checkpoint``: its file;
    ``code``: (commit, dirty) of the tree this process loaded at the run's start."""
    line = {
        "generation": generation,
        "positions": int(data["score"].shape[0]),
        "games": config.games_per_generation,
        "scale": scale,
        "score_weight": config.score_weight,  # a resumed run may change its targets' mix
        **game_lengths(data),
        **{key.split("/")[-1]: value for key, value in metrics.items() if key.startswith("losses/")},
    }
    if config.eval_games:
        bar.set_description(f"generation {generation} evaluation")
        line["vs_hand"] = evaluation_match(config, checkpoint, generation)
        writer.add_scalar("eval/vs_hand/score", line["vs_hand"]["score"], generation)
    line["elapsed_s"] = round(time.time() - started, 1)
    line["load_average"] = list(os.getloadavg())
    line["code_commit"], line["code_dirty"] = code
    with open(run_dir / "progress.jsonl", "a") as handle:
        handle.write(json.dumps(line) + "\n")
    for key, value in metrics.items():
        writer.add_scalar(key, value, generation)
    writer.add_scalar("data/scale", scale, generation)
    writer.add_scalar("data/positions", line["positions"], generation)
    bar.set_postfix(val=f"{metrics.get('losses/validation', float('nan')):.4f}")


def _generations(config, run_dir: Path, network, optimizer, features, state: dict, stack) -> dict:
    writer = SummaryWriter(str(run_dir))
    stack.callback(writer.close)
    pool = None
    if config.workers > 1:
        pool = stack.enter_context(ProcessPoolExecutor(config.workers, mp_context=get_context("spawn")))
    done = state["generation"]
    bar = stack.enter_context(
        tqdm(
            total=config.generations * config.games_per_generation,
            initial=min(done, config.generations) * config.games_per_generation,
            unit="game",
            dynamic_ncols=True,
        )
    )
    started = time.time() - state["elapsed_s"]
    code = git_commit()  # the code this process runs, whatever the tree holds later
    longest = 0.0
    limit_s = config.time_limit_minutes * 60
    generator = torch.Generator().manual_seed(config.seed + done)
    for generation in range(done, config.generations):
        if limit_s and time.time() - started + longest >= limit_s:
            break
        began = time.time()
        bar.set_description(f"generation {generation + 1} self-play")
        player = None if generation == 0 else network.export()
        seeds = np.random.SeedSequence([config.seed, generation]).generate_state(config.games_per_generation)
        data = self_play(
            pool,
            config.game,
            dict(config.game_options),
            player,
            config.play_depth,
            [int(seed) for seed in seeds],
            (config.opening_plies_min, config.opening_plies_max),
            on_games=bar.update,
        )
        scale = fit_scale(data["score"], data["result"])
        save_data(data_path(run_dir, generation), data, scale)
        scales = [*state["scales"], scale]
        if generation == 0:
            network.start_from_hand(scale)
        bar.set_description(f"generation {generation + 1} training")
        first = max(0, generation + 1 - config.window_generations)
        parts = [(g, *load_data(data_path(run_dir, g), features)) for g in range(first, generation)]
        parts.append((generation, data, scale))
        window = Window(parts, config, features, scales[0])
        metrics = train_generation(network, optimizer, window, config, generator)
        positions = state["positions"] + int(data["score"].shape[0])
        elapsed = time.time() - started
        record = {"scales": scales, "elapsed_s": elapsed}
        checkpoint = run_dir / CHECKPOINTS / f"gen_{generation + 1:04d}.pt"
        for path in (checkpoint, run_dir / CHECKPOINTS / "latest.pt"):
            save_eval_checkpoint(path, payload(config, network, optimizer, generation + 1, positions, record))
        state.update(generation=generation + 1, positions=positions, scales=scales)
        _log_generation(
            config, run_dir, writer, bar, generation + 1, checkpoint, data, scale, metrics, started, code
        )
        longest = max(longest, time.time() - began)
    bar.set_description("done")
    summary = {
        "run_dir": str(run_dir),
        "generations": state["generation"],
        "positions": state["positions"],
        "train_seconds": round(time.time() - started, 1),
    }
    print(
        f"\nRun folder: {run_dir}/ (checkpoints/, data/, progress.jsonl, TensorBoard logs); each generation "
        f"against the hand search:\n"
        f"  python -m hive_envs.training.eval_curve {run_dir} --move-time 0 --depth {config.play_depth} --games 200"
    )
    return summary


def main(argv: list[str] | None = None) -> int:
    return train_main(argv, "hive-train-eval", __doc__, describe_keys(), load_config, train)


if __name__ == "__main__":
    sys.exit(command(main)())
