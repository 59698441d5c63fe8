"""RLlib RLModules (new API stack) over the package's own policy-value networks.

`MaskedPolicyModule` wraps the very network class native training uses
(`hive_envs.agents.network_kinds.build_network`) as its only submodule, `self.net`, so exporting a
trained module to our checkpoint format is a copy of `self.net.state_dict()`.

Observations are the PettingZoo dict `{"observation", "action_mask"}`. The logits of illegal
actions are replaced by the dtype's minimum (`mask_logits`, as native training does) before
RLlib builds its Categorical distribution from them, so an illegal action has probability
exactly 0: it is never sampled, in exploration or in argmax play.

The network computes logits and value in one pass. `_forward_train` hands the value to the PPO
learner under `Columns.EMBEDDINGS`, and `compute_values` returns it as is when given, so one
training forward pass serves both the policy and the value loss.

`MaskedRandomModule` is the league's first opponent: uniform over the legal actions, no weights.
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule

from hive_envs.agents.distributions import mask_logits
from hive_envs.agents.network_kinds import build_network


def _split(batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
    obs = batch[Columns.OBS]
    return obs["observation"], obs["action_mask"]


class MaskedPolicyModule(TorchRLModule, ValueFunctionAPI):
    """model_config: {"network": NetworkSpec (see hive_envs.agents.networks), "init_from_rule": bool
    (optional: `HiveLookaheadPolicy.init_from_rule`, as native training's key)}."""

    def setup(self):
        inner = self.observation_space["observation"]
        self.net = build_network(
            dict(self.model_config["network"]), tuple(inner.shape), int(self.action_space.n)
        )
        if self.model_config.get("init_from_rule"):
            self.net.init_from_rule()

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        observation, action_mask = _split(batch)
        logits, _ = self.net(observation)
        return {Columns.ACTION_DIST_INPUTS: mask_logits(logits, action_mask)}

    def _forward_train(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        observation, action_mask = _split(batch)
        logits, value = self.net(observation)
        return {Columns.ACTION_DIST_INPUTS: mask_logits(logits, action_mask), Columns.EMBEDDINGS: value}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is not None:
            return embeddings
        observation, _ = _split(batch)
        return self.net(observation)[1]


class MaskedRandomModule(TorchRLModule):
    """Uniform over the legal actions (all-zero logits, masked). Never trained."""

    def setup(self):
        self._dummy = torch.nn.Parameter(torch.zeros(1), requires_grad=False)  # RLlib wants a device

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        _, action_mask = _split(batch)
        logits = torch.zeros(action_mask.shape, dtype=torch.float32, device=action_mask.device)
        return {Columns.ACTION_DIST_INPUTS: mask_logits(logits, action_mask)}

    def _forward_train(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        raise NotImplementedError("the random league opponent is never trained")
