"""The payload of a learned-evaluation file for the tests that save one (`save_eval_checkpoint`)."""

from __future__ import annotations

import torch

from hive_envs.hive.search.eval_features import HIVE_FEATURES
from hive_envs.training.eval_network import EvalNetwork


def eval_payload(network: EvalNetwork, positions: int = 0) -> dict:
    """Hive's network ``network`` (its compiled arrays and its torch weights) with every key a file
    needs, after one generation trained on ``positions`` positions."""
    return {
        "game": "hive",
        "game_options": {},
        "features": HIVE_FEATURES.name,
        "evaluation": {name: torch.from_numpy(array) for name, array in network.export().items()},
        "model": network.state_dict(),
        "network": {"width": network.width, "hidden": network.hidden.out_features},
        "generation": 1,
        "positions": positions,
    }
