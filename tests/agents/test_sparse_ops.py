"""The sparse paths' reductions give the stock ops' values and gradients (hive_envs/agents/sparse_ops.py)."""

import torch
from torch.nn import functional as F

from hive_envs.agents.sparse_ops import row_max, weighted_bag_sum


def stock_row_max(values: torch.Tensor, row: torch.Tensor, rows: int) -> torch.Tensor:
    index = row.unsqueeze(1).expand_as(values)
    return values.new_zeros(rows, values.shape[1]).scatter_reduce(0, index, values, "amax")


def value_and_grad(fn, values: torch.Tensor, grad: torch.Tensor, *args):
    leaf = values.clone().requires_grad_()
    out = fn(leaf, *args)
    out.backward(grad)
    return out.detach(), leaf.grad


def test_row_max_matches_scatter_reduce_with_ties_zeros_negatives_and_empty_rows():
    generator = torch.Generator().manual_seed(3)
    rows = 6
    row = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2, 4, 5, 5, 1])  # row 3: no entries; row 1: out of order
    values = torch.randn(len(row), 5, generator=generator)
    values[0:2] = 5.0  # a tie at the max of row 0, in every column
    values[5:9, 2] = 0.0  # row 2, column 2: four entries tie with the zero the max starts from
    values[9] = -1.0  # row 4: its one entry below zero, so its max is the zero
    values[10:12, 0] = values[10:12, 0].abs() + 1.0
    values[11, 0] = values[10, 0]  # row 5: a positive tie
    grad = torch.randn(rows, 5, generator=generator)
    ours = value_and_grad(row_max, values, grad, row, rows)
    stock = value_and_grad(stock_row_max, values, grad, row, rows)
    assert torch.equal(ours[0], stock[0])
    assert torch.allclose(ours[1], stock[1])
    assert ours[1][0, 0] == grad[0, 0] / 2  # the tie shares the gradient, it does not double it


def test_row_max_of_relu_values_at_the_legal_policy_size():
    generator = torch.Generator().manual_seed(4)
    legal = torch.randint(0, 30, (40,), generator=generator)
    row = torch.repeat_interleave(torch.arange(40), legal)
    values = F.relu(torch.randn(len(row), 16, generator=generator))
    grad = torch.randn(40, 16, generator=generator)
    ours = value_and_grad(row_max, values, grad, row, 40)
    stock = value_and_grad(stock_row_max, values, grad, row, 40)
    assert torch.equal(ours[0], stock[0])
    assert torch.allclose(ours[1], stock[1])


def test_weighted_bag_sum_matches_embedding_bag_in_value_and_table_gradient():
    generator = torch.Generator().manual_seed(5)
    table = torch.randn(20, 7, generator=generator)
    sizes = torch.tensor([3, 1, 4, 2, 5])
    offsets = torch.cumsum(sizes, dim=0) - sizes
    index = torch.randint(0, 20, (int(sizes.sum()),), generator=generator)
    index[:3] = 4  # one table row three times in one bag
    weights = torch.rand(len(index), generator=generator) * 3
    grad = torch.randn(len(sizes), 7, generator=generator)

    def stock(t: torch.Tensor) -> torch.Tensor:
        return F.embedding_bag(index, t, offsets, mode="sum", per_sample_weights=weights)

    ours = value_and_grad(weighted_bag_sum, table, grad, index, offsets, weights)
    theirs = value_and_grad(stock, table, grad)
    assert torch.allclose(ours[0], theirs[0])
    assert torch.allclose(ours[1], theirs[1])
    assert not torch.equal(ours[1], torch.zeros_like(table))
