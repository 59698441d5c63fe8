"""Masked sampling: illegal actions are never picked, entropy counts legal actions only."""

import math

import numpy as np
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hive_envs.agents.distributions import MaskedCategorical, mask_logits


@st.composite
def logits_and_masks(draw):
    rows = draw(st.integers(1, 6))
    actions = draw(st.integers(1, 40))
    logits = draw(
        arrays(np.float32, (rows, actions), elements=st.floats(-1e4, 1e4, width=32, allow_nan=False))
    )
    mask = draw(arrays(np.int8, (rows, actions), elements=st.integers(0, 1)))
    legal_one = draw(st.lists(st.integers(0, actions - 1), min_size=rows, max_size=rows))
    mask[np.arange(rows), legal_one] = 1  # a mask is never all zero
    return torch.as_tensor(logits), torch.as_tensor(mask)


@settings(max_examples=200, deadline=None)
@given(logits_and_masks(), st.integers(0, 2**31 - 1))
def test_sampling_never_picks_an_illegal_action(data, seed):
    logits, mask = data
    dist = MaskedCategorical(logits, mask)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(5):
        action = dist.sample(generator)
        assert mask[torch.arange(len(action)), action].all()
    assert mask[torch.arange(len(logits)), dist.mode()].all()
    assert torch.isfinite(dist.log_prob(dist.mode())).all()
    assert torch.isfinite(dist.entropy()).all()


def test_illegal_actions_get_the_dtype_minimum_and_zero_probability():
    logits = torch.tensor([[5.0, 1.0, 2.0]])
    mask = torch.tensor([[0, 1, 1]], dtype=torch.int8)
    assert mask_logits(logits, mask)[0, 0] == torch.finfo(torch.float32).min
    assert MaskedCategorical(logits, mask).probs[0, 0] == 0.0


def test_entropy_is_over_legal_actions_only():
    logits = torch.zeros(1, 10)
    mask = torch.zeros(1, 10, dtype=torch.int8)
    mask[0, :4] = 1
    assert math.isclose(float(MaskedCategorical(logits, mask).entropy()), math.log(4), rel_tol=1e-6)


def test_single_legal_action_has_zero_entropy_and_log_prob_zero():
    dist = MaskedCategorical(torch.randn(1, 7), torch.tensor([[0, 0, 0, 1, 0, 0, 0]], dtype=torch.int8))
    assert int(dist.sample()) == 3
    assert float(dist.entropy()) == 0.0
    assert float(dist.log_prob(torch.tensor([3]))) == 0.0
