"""A command whose extra is not installed ends with one line naming the extra, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hive_envs.extras import MissingExtra, command, missing_extra

ROOT = Path(__file__).resolve().parent.parent
WEB_LINE = "error: flask is not installed; it comes with the web extra: pip install 'hive_envs[web]'"
TRAIN_HINT = "it comes with the train extra: pip install 'hive_envs[train]'"

# A sitecustomize that makes the extras' packages unimportable: an installation without the extras.
WITHOUT_EXTRAS = textwrap.dedent(
    """
    import importlib.abc, sys
    BLOCKED = {"torch", "yaml", "tensorboard", "tqdm", "matplotlib", "flask", "werkzeug", "ray"}
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None
    sys.meta_path.insert(0, Block())
    """
)


@pytest.fixture(scope="module")
def without_extras(tmp_path_factory):
    """Run ``python ARGS`` in the checkout where no extra's package can be imported."""
    folder = tmp_path_factory.mktemp("without_extras")
    (folder / "sitecustomize.py").write_text(WITHOUT_EXTRAS)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, *args],
            check=False,
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    return run


def test_the_web_command_and_its_module_say_which_extra_to_install(without_extras):
    for args in (
        ["-c", "import sys; from hive_envs.commands import hive_web; sys.exit(hive_web(['--no-browser']))"],
        ["-m", "hive_envs.web.server", "--no-browser"],
    ):
        done = without_extras(*args)
        assert (done.returncode, done.stderr, done.stdout) == (1, WEB_LINE + "\n", ""), args


@pytest.mark.parametrize(
    "args",
    [
        [
            "-c",
            "import sys; from hive_envs.commands import hive_train; sys.exit(hive_train(['--config', 'quickstart']))",
        ],
        ["-m", "hive_envs.training.ppo_selfplay", "--config", "quickstart"],
        ["-m", "hive_envs.evaluation.evaluate", "pretrained:hoyito_2x6"],
        ["training/expert_iteration.py", "--config", "experiments/hoyito_2x6_exit"],  # a checkout's script
        # torch is first needed deep inside the command: when the checkpoint player is made
        [
            "-c",
            "import sys; from hive_envs.commands import hive_play; sys.exit(hive_play(['hoyito', '--agent', 'pretrained:hoyito_2x6']))",
        ],
    ],
)
def test_the_training_commands_say_which_extra_to_install(without_extras, args):
    done = without_extras(*args)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("error: ")
    assert TRAIN_HINT in done.stderr


def test_the_arena_of_classical_players_needs_no_extra(without_extras):
    """The evaluation needs torch only for checkpoints: an arena match of classical players runs in an
    installation without any extra (no torch, tqdm, yaml or matplotlib)."""
    done = without_extras(
        "-c",
        "import sys; from hive_envs.commands import hive_arena; "
        "sys.exit(hive_arena(['alphabeta:1', 'random', '--games', '2']))",
    )
    assert done.returncode == 0, done.stderr
    assert "alphabeta:1" in done.stdout and "random" in done.stdout


def test_imported_as_a_library_a_module_raises_the_message(without_extras):
    done = without_extras(
        "-c",
        "from hive_envs.extras import MissingExtra\n"
        "try:\n    import hive_envs.training.pretrained\n"
        "except MissingExtra as error:\n    print(isinstance(error, ModuleNotFoundError), error)",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("True torch is not installed; " + TRAIN_HINT)


def test_a_missing_module_of_no_extra_is_not_dressed_up(capsys):
    @command
    def main(argv=None) -> int:
        import hive_envs_no_such_module  # noqa: F401

        return 0

    with pytest.raises(ModuleNotFoundError) as error:
        main()
    assert not isinstance(error.value, MissingExtra)
    assert missing_extra(ModuleNotFoundError("No module named 'x'", name="x")) is None
    assert capsys.readouterr().err == ""
