"""The console scripts `pip install` puts on PATH (pyproject's ``[project.scripts]``).

Each imports its module only when run, so that a command whose extra is not installed ends with one
line naming the extra (`hive_envs.extras.command`) instead of an import traceback. Each takes the
same arguments as its module's ``main`` (``python -m MODULE`` runs the same).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from hive_envs.extras import command


def _main_of(script: str, module: str, what: str) -> Callable[[list[str] | None], int]:
    """The console script ``script``: ``module``'s ``main``, the module imported when it runs."""

    def main(argv: list[str] | None = None) -> int:
        return importlib.import_module(module).main(argv)

    main.__name__ = main.__qualname__ = script.replace("-", "_")
    main.__doc__ = f"``{script}``: {what} (`{module}`)."
    return command(main)


hive_play = _main_of("hive-play", "hive_envs.play", "play in the terminal")
hive_uhp = _main_of("hive-uhp", "hive_envs.hive.uhp", "the Universal Hive Protocol engine on stdin/stdout")
hive_web = _main_of("hive-web", "hive_envs.web.server", "the local web page; the ``web`` extra")
hive_train = _main_of("hive-train", "hive_envs.training.ppo_selfplay", "self-play PPO; the ``train`` extra")
hive_evaluate = _main_of(
    "hive-evaluate",
    "hive_envs.evaluation.evaluate",
    "checkpoints against players, Elo, the ladder; checkpoints need the ``train`` extra",
)
hive_arena = _main_of("hive-arena", "hive_envs.evaluation.arena", "games one by one between any players")
hive_train_rllib = _main_of(
    "hive-train-rllib", "hive_envs.training.rllib_selfplay", "self-play PPO on Ray RLlib; the ``rllib`` extra"
)
hive_train_eval = _main_of(
    "hive-train-eval",
    "hive_envs.training.eval_training",
    "the learned evaluation of the alpha-beta search; the ``train`` extra",
)
