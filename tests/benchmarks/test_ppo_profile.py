"""`benchmarks.ppo_profile` on a tiny Hive config: every part is counted, and the parts add up to the
process's CPU time of the timed updates; the patched methods are restored afterwards."""

from __future__ import annotations

import json

import yaml

from benchmarks.ppo_profile import PARTS, format_profile, main, profile
from hive_envs.hive import HiveBatch
from hive_envs.hive.agent.network import HiveLookaheadPolicy
from hive_envs.training import ppo_selfplay, selfplay
from hive_envs.training.config import load_config


def test_a_tiny_profile_counts_every_part_and_restores_what_it_wrapped(tmp_path):
    values = load_config("hive_base").to_dict()
    values.update(num_games=4, rollout_steps=4, teacher_share=1.0, pool_share=0.5, device="cpu")
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(values))
    originals = (HiveLookaheadPolicy.rule_features, selfplay.batch_actions, ppo_selfplay.ppo_update)
    figures = profile(str(path), updates=1, num_threads=1)
    assert figures["steps"] == 16
    parts = figures["cpu_s_by_part"]
    assert list(parts) == list(PARTS)
    assert all(parts[part] > 0 for part in ("rule features", "players (teacher, pool)", "env step", "update"))
    assert abs(sum(parts.values()) + figures["unaccounted_cpu_s"] - figures["cpu_s"]) < 1e-9
    assert 0 <= figures["unaccounted_cpu_s"] < figures["cpu_s"]
    assert (HiveLookaheadPolicy.rule_features, selfplay.batch_actions, ppo_selfplay.ppo_update) == originals
    assert "step" not in vars(HiveBatch)  # inherited: the wrapper is removed, not left in its place
    assert "rule features" in format_profile(figures)


def test_the_results_file_keeps_the_other_labels_runs(tmp_path):
    values = load_config("hive_base").to_dict()
    values.update(num_games=2, rollout_steps=2, teacher_share=0.0, pool_share=0.0, device="cpu")
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(values))
    out = tmp_path / "profile.json"
    out.write_text(json.dumps({"runs": {"before": {"steps": 1}}}))
    assert (
        main(
            [
                "--config",
                str(config),
                "--updates",
                "1",
                "--num-threads",
                "1",
                "--json",
                str(out),
                "--label",
                "after",
            ]
        )
        == 0
    )
    runs = json.loads(out.read_text())["runs"]
    assert runs["before"] == {"steps": 1}
    assert runs["after"]["steps"] == 4 and runs["after"]["command"].startswith(
        "python -m benchmarks.ppo_profile"
    )
