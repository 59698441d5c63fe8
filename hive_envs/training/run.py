"""What a trainer does around its loop, shared by ppo_selfplay.py and expert_iteration.py: the run
folder (refused when it holds a run, without --resume or --overwrite; locked while the run lasts),
seeds and device, the network and its resumption from ``checkpoints/latest.pt``, TensorBoard scalars,
the time budget and progress bar, periodic evaluation, checkpoints, and the final evaluation.

A trainer reads:

    with TrainingRun(config, resume, overwrite, PPO) as run:  # cores, env, run folder checked; seeds set
        network, optimizer = run.build(spaces)             # the memory checked first (resources.py)
        opponents = run.evaluation_players()               # every spec checked
        pool = run.start()                                 # resumed from latest.pt with --resume
        ...                                                # the trainer's own set-up
        run.open()                                         # locked, prepared, logging
        while run.continues():
            ...                                            # one update
            run.advance(steps, tick)
            run.log(metrics, tick)
            run.evaluate_if_due(opponents)
            run.checkpoint_if_due(pool)
            run.show_progress()
        summary = run.finish(pool)                         # the last checkpoint
        return run.final_evaluation(summary, opponents, sampled)

A run that fails before its first update ends (a start that could not be made) leaves the run folder
as it found it (`run_dir.undo_start`): no half-made folder refuses the next run.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
import shlex
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Protocol, final, runtime_checkable

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from hive_envs.agents.checkpoint import load_checkpoint, load_weights, save_checkpoint
from hive_envs.agents.network_kinds import build_network, network_kind
from hive_envs.core.short_repr import short_repr
from hive_envs.evaluation.match import format_table
from hive_envs.evaluation.provenance import git_commit, machine
from hive_envs.play import play_command
from hive_envs.training.budget import TimeBudget, expected_final_step, resume_note
from hive_envs.training.config import TrainConfig
from hive_envs.training.eval_matches import evaluate_now, evaluation_opponents, make_players
from hive_envs.training.game_lookup import encoding_version, network_spec
from hive_envs.training.network_choice import network_options
from hive_envs.training.resources import PPO, Estimate, check_cores, check_env, check_run
from hive_envs.training.run_dir import (
    FolderState,
    check_run_dir,
    folder_state,
    prepare_run_dir,
    run_lock,
    undo_start,
)


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("config key 'device' is 'cuda' but no CUDA device is available")
    return torch.device(name)


def run_dir_of(config: TrainConfig) -> Path:
    return Path(config.runs_dir) / config.name


def checkpoint_payload(
    config, batch, network, optimizer, global_step, update, pool, elapsed, segments=()
) -> dict:
    """A checkpoint's content; `segments`: `training_segments` (one per run of the script that
    trained it, see `start_segment`), kept by --resume and copied into model cards."""
    return {
        "game": config.game,
        "game_options": dict(config.game_options),
        "encoding_version": encoding_version(batch),
        "observation_shape": tuple(batch.observation_shape),
        "num_actions": int(batch.num_actions),
        "network": network_spec(config, batch),
        "model": {k: v.detach().cpu() for k, v in network.state_dict().items()},
        "config": config.to_dict(),
        "search": config.search(),
        "global_step": global_step,
        "update": update,
        "train_state": {"optimizer": optimizer.state_dict(), "pool": pool, "elapsed_s": elapsed},
        "training_segments": [dict(segment) for segment in segments],
    }


def start_segment(global_step: int, elapsed: float) -> dict:
    """A record of this run of the script: the code's commit (and whether the tree had uncommitted
    changes), when and where it started, the plies and seconds it started from, the load average;
    its ends are filled in at each checkpoint (`end_step`, `end_seconds`, `end_load_average`)."""
    commit, dirty = git_commit()
    return {
        "code_commit": commit,
        "code_dirty": dirty,
        "started_utc": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
        "cpu": machine()["cpu_model"],
        "cpus": os.cpu_count(),
        "start_step": global_step,
        "start_seconds": round(elapsed, 1),
        "start_load_average": list(os.getloadavg()),
    }


def resume_from(path: Path, data: dict, network, optimizer) -> tuple[list, float]:
    """Load a checkpoint's weights and train_state into `network` and `optimizer`; returns
    (opponent pool, elapsed seconds). ValueError naming `path` for a checkpoint that cannot."""
    state = data.get("train_state")
    if state is None:
        raise ValueError(
            f"cannot resume {str(path)!r}: it has no train_state (optimizer state and opponent pool; "
            f"checkpoints exported by rllib_selfplay.py have none); start a new run instead "
            f"(another --name, or --overwrite)"
        )
    missing = [key for key in ("optimizer", "pool", "elapsed_s") if key not in state]
    if missing:
        raise ValueError(f"cannot resume {str(path)!r}: its train_state lacks {missing}")
    load_weights(network, data)
    opponent = copy.deepcopy(network)
    try:
        optimizer.load_state_dict(state["optimizer"])
        for snapshot in state["pool"]:
            opponent.load_state_dict(snapshot)
    except (KeyError, TypeError, ValueError, RuntimeError) as error:
        raise ValueError(
            f"cannot resume {str(path)!r}: its train_state does not fit the network: {error}"
        ) from None
    return list(state["pool"]), float(state["elapsed_s"])


@runtime_checkable
class StartsFromRule(Protocol):
    """A network that can start from its game's rule (``init_from_rule``)."""

    def init_from_rule(self) -> None: ...


@runtime_checkable
class LearnsBoardValues(Protocol):
    """A network that reads a table of board values (``hoyito_board_values_games``)."""

    def set_board_values(self, table) -> None: ...


@final
class TrainingRun:
    """One run of a trainer in ``runs/<name>/``: a context manager that holds the run folder's lock
    (taken by `open`) until the run ends.

    Every check (the cores, the env and the run folder here, the memory, the game and the network in
    `build`, the player specs in `evaluation_players`, the checkpoint in `start`) runs before `open`
    writes or deletes anything. ``estimates``: what the trainer holds in memory (`resources.PPO`,
    `resources.EXPERT_ITERATION`)."""

    def __init__(
        self, config: TrainConfig, resume: bool, overwrite: bool, estimates: tuple[Estimate, ...] = PPO
    ):
        """Check the cores and env (`resources`) and the run folder (`run_dir.check_run_dir`), then set
        the threads, seeds and device."""
        self.config, self.resume, self.overwrite, self.estimates = config, resume, overwrite, estimates
        self.dir = run_dir_of(config)
        self.checkpoint_dir = self.dir / "checkpoints"
        check_cores(config)
        check_env(config)
        check_run_dir(self.dir, resume=resume, overwrite=overwrite)
        if config.num_threads:
            torch.set_num_threads(config.num_threads)
        self.device = pick_device(config.device)
        random.seed(config.seed)
        np.random.seed(config.seed)
        torch.manual_seed(config.seed)
        self.global_step, self.update, self.elapsed = 0, 0, 0.0
        self.segments: list[dict] = []
        self.latest_eval: dict[str, float] = {}
        self._cleanup = contextlib.ExitStack()
        self._found: FolderState | None = (
            None  # the run folder as `open` found it, until the first update ends
        )
        self._writer: SummaryWriter | None = None

    def __enter__(self) -> TrainingRun:
        return self

    @property
    def writer(self) -> SummaryWriter:
        """The run's TensorBoard writer, which `open` starts."""
        if self._writer is None:
            raise RuntimeError("the run writes its logs once open() has started it")
        return self._writer

    def __exit__(self, failure, *exc) -> None:
        """Release the lock; after a failure before the first update ended, take back what `open`
        added to the run folder."""
        try:
            if failure is not None and self._found is not None and self._writer is not None:
                self._writer.close()
        finally:
            self._cleanup.close()
            if failure is not None and self._found is not None:
                undo_start(self.dir, self._found)

    def build(self, spaces) -> tuple[torch.nn.Module, torch.optim.Optimizer]:
        """The config's network for the game of `spaces` (a batch of one game: the spaces and options
        checkpoints record), started from the rule if `init_from_rule`, and its Adam optimizer; first
        the memory the run will need is checked against the machine's (`resources.check_run`)."""
        config = self.config
        check_run(config, spaces, self.estimates)
        network = build_network(
            network_spec(config, spaces), tuple(spaces.observation_shape), spaces.num_actions
        ).to(self.device)
        if config.init_from_rule:  # a network with a rule: the config checks it
            assert isinstance(network, StartsFromRule)
            network.init_from_rule()
        optimizer = torch.optim.Adam(network.parameters(), lr=config.learning_rate, eps=1e-5)
        self.spaces, self.network, self.optimizer = spaces, network, optimizer
        return network, optimizer

    def evaluation_players(self) -> list[str]:
        """The specs of `eval_opponents` this game plays, each made once now so that a bad spec fails
        before anything is written."""
        opponents = evaluation_opponents(self.config, self.spaces)
        for player in make_players(self.config, opponents, self.config.seed + 1):
            player.close()
        return opponents

    def start(self) -> list:
        """With --resume, load ``checkpoints/latest.pt`` into the network and optimizer and continue its
        step count; open this run's training segment. Returns the opponent pool (empty for a new run)."""
        pool: list = []
        if self.resume:
            pool = self._resume(self.checkpoint_dir / "latest.pt")
            limit_s = self.config.time_limit_minutes * 60
            print(resume_note(self.global_step, self.update, self.elapsed, self.config.total_steps, limit_s))
        self.segments.append(start_segment(self.global_step, self.elapsed))
        return pool

    def _resume(self, latest: Path) -> list:
        config, spaces = self.config, self.spaces
        data = load_checkpoint(
            latest,
            game=config.game,
            encoding_version=encoding_version(spaces),
            observation_shape=tuple(spaces.observation_shape),
            num_actions=spaces.num_actions,
        )
        if data["game_options"] != dict(config.game_options) or data["network"] != network_spec(
            config, spaces
        ):
            raise ValueError(
                f"cannot resume {str(latest)!r}: it was trained with game_options="
                f"{short_repr(data['game_options'])} network={short_repr(data['network'])}, the config asks "
                f"for game_options={short_repr(config.game_options)} network={short_repr(network_spec(config, spaces))}"
            )
        pool, self.elapsed = resume_from(latest, data, self.network, self.optimizer)
        self.global_step, self.update = data["global_step"], data["update"]
        self.segments = list(data.get("training_segments", []))
        return pool

    def open(self) -> None:
        """Lock the run folder (a second run of it is refused), check it again now that no twin can
        write, clear it for --overwrite, and start the TensorBoard writer, time budget and progress bar."""
        found = folder_state(self.dir)
        self._cleanup.enter_context(run_lock(self.dir))
        self._found = found  # from here on a failed start is taken back (never another run's files)
        check_run_dir(self.dir, resume=self.resume, overwrite=self.overwrite)
        prepare_run_dir(self.dir, overwrite=self.overwrite)
        self._writer = SummaryWriter(str(self.dir))
        self.budget = TimeBudget(self.config.time_limit_minutes * 60.0)
        self.bar = tqdm(
            total=self._expected_final_step(),
            initial=min(self.global_step, self.config.total_steps),
            unit="step",
            dynamic_ncols=True,
            mininterval=2.0,
        )
        self.started = time.time() - self.elapsed
        if not self.resume:
            self._prepare_network()

    def _prepare_network(self) -> None:
        """A new run: what the network's kind does first (its ``new_run``: Hoyito's fits the board
        values its features' search reads), within the run's time, and the scalars it reports."""
        config = self.config
        prepare = network_kind(config.network).new_run
        if prepare is None:
            return
        scalars = prepare(
            self.network, network_options(config), dict(config.game_options), config.seed + 41,
            self.bar.set_description,
        )  # fmt: skip
        for name, value in scalars.items():
            self.writer.add_scalar(name, value, 0)
        self.bar.set_description(None)

    def continues(self) -> bool:
        """Whether another update runs: steps left and time left for one."""
        return self.global_step < self.config.total_steps and self.budget.fits(self.elapsed, "update")

    def anneal_learning_rate(self) -> None:
        """With `anneal_lr`, the learning rate falls linearly to 0 at `total_steps`."""
        if self.config.anneal_lr:
            self.optimizer.param_groups[0]["lr"] = self.config.learning_rate * max(
                0.0, 1 - self.global_step / self.config.total_steps
            )

    def advance(self, steps: int, tick: float) -> None:
        """Count one update of `steps` plies that began at `tick` (`time.time()`)."""
        self.global_step += steps
        self.update += 1
        self._found = None  # the run has started: its folder is its own from now on
        self.steps_per_update = steps
        self.elapsed = time.time() - self.started
        self.budget.record("update", time.time() - tick)

    def log(self, metrics: dict[str, float], tick: float) -> None:
        """Write the update's `metrics`, the learning rate and the steps per second as scalars."""
        metrics["charts/learning_rate"] = self.optimizer.param_groups[0]["lr"]
        metrics["charts/steps_per_second"] = self.steps_per_update / max(time.time() - tick, 1e-9)
        for key, value in metrics.items():
            self.writer.add_scalar(key, value, self.global_step)

    def evaluate_if_due(self, opponents: list[str]) -> None:
        """Every `eval_every` updates, if the time budget has room: matches vs `opponents`, written as
        ``eval/vs_<opponent>/{win_rate,score,game_length}``."""
        config = self.config
        if not (config.eval_every and self.update % config.eval_every == 0):
            return
        if not self.budget.fits(self.elapsed, "evaluation"):
            return
        evaluation_started = time.time()
        for result in evaluate_now(
            config, self.network, opponents, config.eval_games, config.seed + self.update, config.eval_sample
        ):
            self.latest_eval[result.opponent] = result.win_rate
            tag = f"eval/vs_{result.opponent}"
            self.writer.add_scalar(f"{tag}/win_rate", result.win_rate, self.global_step)
            self.writer.add_scalar(f"{tag}/score", result.score, self.global_step)
            self.writer.add_scalar(f"{tag}/game_length", result.mean_length, self.global_step)
        self.elapsed = time.time() - self.started
        self.budget.record("evaluation", time.time() - evaluation_started)

    def checkpoint_if_due(self, pool: list) -> None:
        if self.update % self.config.checkpoint_every == 0:
            self.save(pool)

    def save(self, pool: list) -> None:
        """``checkpoints/step_<global step>.pt`` and ``checkpoints/latest.pt``, this run's segment ended
        at the current step."""
        self.segments[-1].update(
            end_step=self.global_step,
            end_seconds=round(self.elapsed, 1),
            end_load_average=list(os.getloadavg()),
        )
        payload = checkpoint_payload(
            self.config,
            self.spaces,
            self.network,
            self.optimizer,
            self.global_step,
            self.update,
            pool,
            self.elapsed,
            self.segments,
        )
        save_checkpoint(self.checkpoint_dir / f"step_{self.global_step:010d}.pt", payload)
        save_checkpoint(self.checkpoint_dir / "latest.pt", payload)

    def show_progress(self) -> None:
        """The progress bar: its total is the step the run will end on (time or steps, whichever first)."""
        total_steps = self.config.total_steps
        self.bar.total = self._expected_final_step()
        self.bar.update(min(self.global_step, total_steps) - self.bar.n)
        results = sorted((f"vs_{k}", f"{v:.2f}") for k, v in self.latest_eval.items())
        self.bar.set_postfix({"sps": f"{self.global_step / max(self.elapsed, 1e-9):.0f}", **dict(results)})

    def _expected_final_step(self) -> int | None:
        return expected_final_step(
            self.global_step, self.elapsed, self.config.total_steps, self.budget.limit_s
        )

    def finish(self, pool: list) -> dict:
        """The last checkpoint; returns the run's summary (folder, steps, updates, seconds)."""
        self.bar.total = self.bar.n  # the run ends here, whichever of its limits ended it: 100%
        self.bar.close()
        self.save(pool)
        self.writer.close()
        return {
            "run_dir": str(self.dir),
            "global_step": self.global_step,
            "update": self.update,
            "train_seconds": self.elapsed,
        }

    def final_evaluation(
        self, summary: dict, opponents: list[str], sampled: bool, updates_are: str = "updates"
    ) -> dict:
        """With `final_eval_games`: matches vs `opponents`, argmax play (and sampled play beside it if
        `sampled`), printed as tables and added to `summary`, saved as ``final_eval.json``."""
        config = self.config
        if not config.final_eval_games:
            print("\n".join(next_commands(self.dir, config.game, config.game_options, evaluated=False)))
            return summary
        print(
            f"\nTrained {self.global_step} steps ({self.update} {updates_are}) in {self.elapsed / 60:.1f} min."
        )
        seed = config.seed + 1_000_003
        plays = [("argmax", False)] + ([("sampled", True)] if sampled else [])
        for play, sample in plays:
            results = evaluate_now(config, self.network, opponents, config.final_eval_games, seed, sample)
            summary["final_eval" if play == "argmax" else "final_eval_sampled"] = [
                r.to_dict() for r in results
            ]
            print(
                f"Evaluation of the final policy, {play} play, each pair of games from a random opening of "
                f"{config.eval_opening_plies} plies:"
            )
            print(format_table(results))
        (self.dir / "final_eval.json").write_text(json.dumps(summary, indent=2))
        print("\n".join(next_commands(self.dir, config.game, config.game_options, evaluated=True)))
        return summary


def next_commands(run_dir: Path, game: str, game_options: dict, evaluated: bool) -> list[str]:
    """A run's last lines: its folder, and the commands that evaluate its last checkpoint, play it in
    the terminal (for a game the terminal shows) and show its curves, each naming the folder."""
    latest = str(run_dir / "checkpoints" / "latest.pt")
    outputs = (
        "checkpoints/, final_eval.json, TensorBoard logs" if evaluated else "checkpoints/, TensorBoard logs"
    )
    lines = [
        f"\nRun folder: {run_dir}/ ({outputs}); next:",
        f"  evaluate:    hive-evaluate {shlex.quote(latest)} --games 400",
    ]
    play = play_command(game, game_options, latest)
    if play is not None:
        lines.append(f"  play:        {play}")
    lines.append(f"  TensorBoard: tensorboard --logdir {shlex.quote(str(run_dir))}")
    return lines
