"""The learned evaluation in torch, for training: the network of `hive_envs.core.learned_eval` over any
game's `LearnedFeatures`, and its export to the compiled form the search reads.

    network = EvalNetwork(features, width=32, hidden=32)
    network.start_from_hand(scale)         # the skip weights: the hand evaluation, as a logit
    logits = network(indices, dense)       # indices: int64[B, 2, max active], padded with F; dense: [B, D]
    arrays = network.export()              # name -> float32 numpy array (`learned_eval.ARRAY_NAMES`)

Same layers as the compiled pass, in float32: a shared feature table summed per perspective (an
`EmbeddingBag`, the padding row F left out), clipped to [0, 1], beside the dense terms times their
scale; one hidden layer clipped to [0, 1]; the logit plus the dense terms' skip weights. `export`
folds the dense scale into the hidden layer's dense rows and the skip weights and lays the hidden layer
out input-major, so that the compiled pass computes the same function (to float32 rounding: the sums
run in another order).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from hive_envs.core.learned_eval import SCORE_PER_LOGIT, LearnedFeatures


class EvalNetwork(nn.Module):
    """The learned evaluation's network (module docstring)."""

    dense_scale: torch.Tensor  # buffers (register_buffer), typed for the checker
    hand_weights: torch.Tensor

    def __init__(self, features: LearnedFeatures, width: int = 32, hidden: int = 32):
        super().__init__()
        self.num_features, self.num_dense, self.width = features.num_features, features.num_dense, width
        self.table = nn.EmbeddingBag(
            features.num_features + 1, width, mode="sum", padding_idx=features.num_features
        )
        nn.init.normal_(self.table.weight, 0.0, 0.05)
        with torch.no_grad():
            self.table.weight[features.num_features].zero_()
        self.feature_bias = nn.Parameter(torch.full((width,), 0.5))
        self.hidden = nn.Linear(2 * width + features.num_dense, hidden)
        self.output = nn.Linear(hidden, 1)
        nn.init.zeros_(self.output.weight)  # the network starts as its skip weights alone
        nn.init.zeros_(self.output.bias)
        self.skip = nn.Linear(features.num_dense, 1, bias=False)
        nn.init.zeros_(self.skip.weight)
        self.register_buffer("dense_scale", torch.as_tensor(features.dense_scale, dtype=torch.float32))
        self.register_buffer("hand_weights", torch.as_tensor(features.hand_weights, dtype=torch.float32))

    def start_from_hand(self, scale: float) -> None:
        """Set the skip weights so that they alone give the hand evaluation's score times ``scale`` / 100
        (``scale``: the fitted logit per 100 score units of the hand evaluation), as a logit."""
        with torch.no_grad():
            self.skip.weight[0] = self.hand_weights * (scale / SCORE_PER_LOGIT) / self.dense_scale

    def forward(self, indices: torch.Tensor, dense: torch.Tensor) -> torch.Tensor:
        """The logits [B] of B positions: ``indices`` int64[B, 2, A] (side to move first, padded with F),
        ``dense`` float32[B, D]."""
        batch, _, active = indices.shape
        summed = self.table(indices.reshape(batch * 2, active)).reshape(batch, 2, self.width)
        perspectives = torch.clamp(summed + self.feature_bias, 0.0, 1.0).reshape(batch, 2 * self.width)
        scaled = dense * self.dense_scale
        hidden = torch.clamp(self.hidden(torch.cat([perspectives, scaled], dim=1)), 0.0, 1.0)
        return (self.output(hidden) + self.skip(scaled)).squeeze(1)

    def export(self) -> dict[str, np.ndarray]:
        """The compiled form's arrays (`hive_envs.core.learned_eval.LearnedNetwork`), float32."""
        with torch.no_grad():
            scale = self.dense_scale
            weight = self.hidden.weight  # [L, 2H + D]
            folded = torch.cat([weight[:, : 2 * self.width], weight[:, 2 * self.width :] * scale], dim=1)
            arrays = {
                "feature_weights": self.table.weight[: self.num_features],
                "feature_bias": self.feature_bias,
                "hidden_weights": folded.t(),
                "hidden_bias": self.hidden.bias,
                "output_weights": self.output.weight[0],
                "output_bias": self.output.bias,
                "skip_weights": self.skip.weight[0] * scale,
            }
            return {
                key: np.ascontiguousarray(value.detach().cpu().numpy(), dtype=np.float32)
                for key, value in arrays.items()
            }
