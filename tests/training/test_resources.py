"""A training config is checked against the machine before the run folder is made: network sizes,
rollouts, buffers and a PettingZoo env's memory against the memory available, thread and worker
counts against the cores; each refusal one line naming the key, and a start that fails anyway leaves
no run folder behind (hive_envs/training/resources.py, run.py, run_dir.py)."""

from __future__ import annotations

import json

import pytest
import torch

from hive_envs.training import expert_iteration, ppo_selfplay
from hive_envs.training.config import config_from_dict, load_config
from hive_envs.training.game_lookup import make_batch
from tests.bounded_run import run_bounded

TINY = {
    "num_games": 4,
    "rollout_steps": 4,
    "total_steps": 16,
    "eval_every": 0,
    "final_eval_games": 0,
    "hidden_sizes": [8],
    "num_minibatches": 1,
    "num_threads": 1,
    "device": "cpu",
}
EXIT = {"network": "hoyito_lookahead", "exit_simulations": 2}
ISSUE_CASES = {  # case: (trainer, keys, the key the refusal names)
    "wide mlp": ("ppo_selfplay", {"hidden_sizes": [1_000_000_000]}, "hidden_sizes"),
    "wide hexconv": (
        "ppo_selfplay",
        {"game": "hive", "network": "hexconv", "conv_channels": 100_000},
        "conv_channels",
    ),
    "long rollouts": ("ppo_selfplay", {"rollout_steps": 1_000_000_000}, "rollout_steps"),
    "large buffer": ("expert_iteration", {**EXIT, "exit_buffer_size": 10**11}, "exit_buffer_size"),
    "huge go board": (
        "ppo_selfplay",
        {"env": "pettingzoo.classic.go_v5", "env_options": {"board_size": 30_000}},
        "env_options",
    ),
}


@pytest.fixture(scope="module")
def issue_runs(tmp_path_factory):
    """Each case of `ISSUE_CASES` started in one interpreter capped at 4 GiB (where a run that is not
    refused fails by MemoryError instead of exhausting the machine): its error and whether a run
    folder was left."""
    runs = tmp_path_factory.mktemp("runs")
    code = f"""
        import json, pathlib
        from hive_envs.training import expert_iteration, ppo_selfplay
        from hive_envs.training.config import config_from_dict
        answers = {{}}
        for case, (trainer, keys, _) in {ISSUE_CASES!r}.items():
            name = case.replace(" ", "_")
            config = config_from_dict({{**{TINY!r}, "name": name, "runs_dir": {str(runs)!r}, **keys}})
            try:
                {{"ppo_selfplay": ppo_selfplay, "expert_iteration": expert_iteration}}[trainer].train(config)
                error = "accepted"
            except Exception as failure:
                error = f"{{type(failure).__name__}}: {{failure}}"
            answers[case] = [error, (pathlib.Path({str(runs)!r}) / name).exists()]
        print(json.dumps(answers))
    """
    result = run_bounded(code, memory_bytes=4 << 30, seconds=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize("case", list(ISSUE_CASES))
def test_a_config_past_the_machines_memory_is_refused_naming_the_key_and_makes_no_run_folder(
    issue_runs, case
):
    error, folder_left = issue_runs[case]
    key = ISSUE_CASES[case][2]
    assert error.startswith(f"ValueError: config key {key!r}"), error
    assert "\n" not in error and len(error) < 600
    assert not folder_left


def tiny_config(tmp_path, **keys):
    return config_from_dict({**TINY, "name": "run", "runs_dir": str(tmp_path), **keys})


def test_a_thread_count_past_four_per_core_is_refused_before_torch_is_told(tmp_path, monkeypatch):
    told = []
    monkeypatch.setattr(torch, "set_num_threads", told.append)
    with pytest.raises(ValueError, match=r"config key 'num_threads' = 1000000 asks for more torch threads"):
        ppo_selfplay.train(tiny_config(tmp_path, num_threads=1_000_000))
    assert told == [] and not (tmp_path / "run").exists()


def test_a_worker_count_past_two_per_core_is_refused_before_any_process_starts(tmp_path, monkeypatch):
    from hive_envs.training import alphabeta_expert

    def no_pool(workers, **_):
        raise RuntimeError(f"a pool of {workers} processes was started")

    monkeypatch.setattr(alphabeta_expert, "ProcessPoolExecutor", no_pool)
    keys = {**EXIT, "network_options": {"features": 2}, "exit_expert": "alphabeta", "exit_expert_depth": 3}
    with pytest.raises(ValueError, match=r"config key 'exit_expert_workers' = 100000 asks for more worker"):
        expert_iteration.train(tiny_config(tmp_path, **keys, exit_expert_workers=100_000))
    assert not (tmp_path / "run").exists()


def test_the_core_ceilings_are_a_small_multiple_of_the_cores(tmp_path):
    from hive_envs.training.resources import THREADS_PER_CORE, WORKERS_PER_CORE, check_cores

    check_cores(
        tiny_config(tmp_path, num_threads=8 * THREADS_PER_CORE, exit_expert_workers=8 * WORKERS_PER_CORE), 8
    )
    with pytest.raises(ValueError, match="at most 4 per core, 32 for its 8 cores"):
        check_cores(tiny_config(tmp_path, num_threads=8 * THREADS_PER_CORE + 1), 8)
    with pytest.raises(ValueError, match="at most 2 per core, 16 for its 8 cores"):
        check_cores(tiny_config(tmp_path, exit_expert_workers=8 * WORKERS_PER_CORE + 1), 8)


def test_the_refusal_names_the_largest_need_and_the_total():
    from hive_envs.training.resources import Need, check_memory

    needs = [
        Need("hidden_sizes", [64], 3 << 30, "the network"),
        Need("rollout_steps", 64, 6 << 30, "rollouts"),
    ]
    check_memory(needs, available=9 << 30)
    with pytest.raises(
        ValueError,
        match=r"'rollout_steps' = 64 needs about 6.0 GiB .* about 9.0 GiB in all, .* 8.0 GiB available",
    ):
        check_memory(needs, available=8 << 30)


@pytest.mark.parametrize(
    ("name", "trainer"),
    [
        ("hoyito_2x6", "PPO"),
        ("hoyito_2x12", "PPO"),
        ("hive_base", "PPO"),
        ("hive_mlp", "PPO"),
        ("experiments/connect_four", "PPO"),
        ("experiments/hoyito_2x6_exit", "EXPERT_ITERATION"),
        ("experiments/hive_base_exit_alphabeta", "EXPERT_ITERATION"),
    ],
)
def test_the_shipped_configs_fit_in_four_gib(name, trainer):
    from hive_envs.configs import config_path
    from hive_envs.training import resources

    config = load_config(config_path(name))
    spaces = make_batch(config.game, 1, config.game_options)
    resources.check_run(config, spaces, getattr(resources, trainer), available=4 << 30)


def test_a_start_that_fails_before_its_first_update_leaves_no_run_folder(tmp_path, monkeypatch):
    from hive_envs.training.selfplay import SelfPlayCollector

    def broken(*args, **kwargs):
        raise RuntimeError("the first rollout failed")

    real = SelfPlayCollector.collect
    monkeypatch.setattr(SelfPlayCollector, "collect", broken)
    with pytest.raises(RuntimeError, match="the first rollout failed"):
        ppo_selfplay.train(tiny_config(tmp_path))
    assert not (tmp_path / "run").exists()
    monkeypatch.setattr(SelfPlayCollector, "collect", real)
    assert ppo_selfplay.train(tiny_config(tmp_path))["update"] == 1  # the next run is not refused
