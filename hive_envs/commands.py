"""The console scripts `pip install` puts on PATH (pyproject's ``[project.scripts]``).

Each imports its module only when run, so that a command whose extra is not installed ends with one
line naming the extra (`hive_envs.extras.command`) instead of an import traceback. Each takes the
same arguments as its module's ``main`` (``python -m MODULE`` runs the same).
"""

from __future__ import annotations

from hive_envs.extras import command


@command
def hive_play(argv: list[str] | None = None) -> int:
    """``hive-play``: play in the terminal (`hive_envs.play`)."""
    from hive_envs.play import main

    return main(argv)


@command
def hive_uhp(argv: list[str] | None = None) -> int:
    """``hive-uhp``: the Universal Hive Protocol engine on stdin/stdout (`hive_envs.hive.uhp`)."""
    from hive_envs.hive.uhp import main

    return main(argv)


@command
def hive_web(argv: list[str] | None = None) -> int:
    """``hive-web``: the local web page (`hive_envs.web.server`; the ``web`` extra)."""
    from hive_envs.web.server import main

    return main(argv)


@command
def hive_train(argv: list[str] | None = None) -> int:
    """``hive-train``: self-play PPO (`hive_envs.training.ppo_selfplay`; the ``train`` extra)."""
    from hive_envs.training.ppo_selfplay import main

    return main(argv)


@command
def hive_evaluate(argv: list[str] | None = None) -> int:
    """``hive-evaluate``: checkpoints against players, Elo, the ladder (`hive_envs.evaluation.evaluate`;
    checkpoints need the ``train`` extra)."""
    from hive_envs.evaluation.evaluate import main

    return main(argv)


@command
def hive_arena(argv: list[str] | None = None) -> int:
    """``hive-arena``: games one by one between any players (`hive_envs.evaluation.arena`)."""
    from hive_envs.evaluation.arena import main

    return main(argv)


@command
def hive_train_rllib(argv: list[str] | None = None) -> int:
    """``hive-train-rllib``: self-play PPO on Ray RLlib (`hive_envs.training.rllib_selfplay`)."""
    from hive_envs.training.rllib_selfplay import main

    return main(argv)


@command
def hive_train_eval(argv: list[str] | None = None) -> int:
    """``hive-train-eval``: the learned evaluation of the alpha-beta search (`hive_envs.training.eval_training`;
    the ``train`` extra)."""
    from hive_envs.training.eval_training import main

    return main(argv)
