"""Two reductions of the sparse network paths whose stock PyTorch backward passes cost more than
the rest of their work: the same values and gradients, written for the shapes the PPO update
has (a few hundred thousand entries, a table of a few hundred rows, rows of ~60 entries).

- `weighted_bag_sum`: ``F.embedding_bag(..., mode="sum", per_sample_weights=...)`` over a small
  table. Its stock backward sorts every index to build the table's gradient; here the gradient
  is one ``index_add`` of the weighted output gradients into the table's rows (the weights are
  observations: they get no gradient).
- `row_max`: the max of zero and each row's entries, as
  ``zeros.scatter_reduce(0, row, values, "amax")`` gives it, with that op's gradient convention
  (shared equally among the entries equal to the max, the zero it starts from counting as one).
  The stock backward gathers, compares and scatters through an index expanded to the values'
  full shape; here the index stays one number per entry.
"""

from __future__ import annotations

from typing import Any

import torch
from torch.nn import functional as F


class _WeightedBagSum(torch.autograd.Function):
    @staticmethod
    def forward(
        ctx: Any, table: torch.Tensor, index: torch.Tensor, offsets: torch.Tensor, weights: torch.Tensor
    ) -> torch.Tensor:
        out = F.embedding_bag(index, table, offsets, mode="sum", per_sample_weights=weights)
        ctx.save_for_backward(index, offsets, weights)
        ctx.table_rows = table.shape[0]
        return out

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor | None, None, None, None]:
        index, offsets, weights = ctx.saved_tensors
        sizes = torch.diff(offsets, append=offsets.new_tensor([len(index)]))
        bag = torch.repeat_interleave(torch.arange(len(offsets), device=grad.device), sizes)
        weighted = grad.index_select(0, bag).mul_(weights.unsqueeze(1))
        table_grad = grad.new_zeros(ctx.table_rows, grad.shape[1]).index_add_(0, index, weighted)
        return table_grad, None, None, None


def weighted_bag_sum(
    table: torch.Tensor, index: torch.Tensor, offsets: torch.Tensor, weights: torch.Tensor
) -> torch.Tensor:
    """Bag b (entries ``offsets[b]`` up to the next offset) sums ``weights[i] * table[index[i]]``:
    ``F.embedding_bag(index, table, offsets, mode="sum", per_sample_weights=weights)``, with the
    gradient for ``table`` only."""
    return _WeightedBagSum.apply(table, index, offsets, weights)


class _RowMax(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, values: torch.Tensor, row: torch.Tensor, rows: int) -> torch.Tensor:
        index = row.unsqueeze(1).expand_as(values)
        peak = values.new_zeros(rows, values.shape[1]).scatter_reduce(0, index, values, "amax")
        ctx.save_for_backward(values, row, peak)
        return peak

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor, None, None]:
        values, row, peak = ctx.saved_tensors
        at_peak = (values == peak.index_select(0, row)).to(grad.dtype)
        # the zero the max starts from ties with a peak of zero and takes a share
        shares = (peak == 0).to(grad.dtype).index_add_(0, row, at_peak)
        return at_peak.mul_((grad / shares).index_select(0, row)), None, None


def row_max(values: torch.Tensor, row: torch.Tensor, rows: int) -> torch.Tensor:
    """(rows, D): the max of 0 and the entries of ``values`` (N, D) in each row (``row`` (N,): the
    row of each entry, in any order); the gradient as ``scatter_reduce``'s "amax" shares it."""
    return _RowMax.apply(values, row, rows)
