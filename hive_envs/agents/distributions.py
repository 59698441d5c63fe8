"""Masked categorical distribution over a fixed action space.

Illegal actions get the smallest finite logit of the dtype (not -inf), so a softmax over a
row never produces NaN, and their probability underflows to exactly 0. Entropy is summed over
legal actions only: an illegal action contributes nothing, rather than 0 * log(0).

`check_finite_outputs` is the play-time guard: a network whose outputs for the legal actions are
NaN or infinite (weights changed in memory, an overflow) would otherwise yield an arbitrary or
illegal action downstream; it raises ValueError naming the network instead.
"""

from __future__ import annotations

import torch


def check_finite_outputs(
    source: str, logits: torch.Tensor, legal: torch.Tensor | None = None, value=None
) -> None:
    """ValueError naming ``source`` when ``logits`` (only where ``legal`` is nonzero, if given) or
    ``value`` hold NaN or infinite entries."""
    bad = ~torch.isfinite(logits)
    if legal is not None:
        bad &= legal.bool()
    if bool(bad.any()):
        raise ValueError(
            f"{source} produced NaN or infinite logits for legal actions (its weights hold NaN or "
            f"infinite values, or its arithmetic overflowed): no action can be chosen"
        )
    if value is not None and not bool(torch.isfinite(value).all()):
        raise ValueError(
            f"{source} produced a NaN or infinite value (its weights hold NaN or infinite values)"
        )


def mask_logits(logits: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
    """Replace the logits of illegal actions (mask == 0) by the dtype's minimum."""
    legal = action_mask.bool()
    return logits.masked_fill(~legal, torch.finfo(logits.dtype).min)


class MaskedCategorical:
    """Categorical distribution restricted to the legal actions of each row."""

    def __init__(self, logits: torch.Tensor, action_mask: torch.Tensor):
        self.legal = action_mask.bool()
        masked = mask_logits(logits, action_mask)
        self.log_probs = torch.log_softmax(masked, dim=-1)
        self.probs = self.log_probs.exp()

    def sample(self, generator: torch.Generator | None = None) -> torch.Tensor:
        return torch.multinomial(self.probs, 1, generator=generator).squeeze(-1)

    def mode(self) -> torch.Tensor:
        """The most probable legal action of each row (greedy play)."""
        return self.log_probs.argmax(dim=-1)

    def log_prob(self, actions: torch.Tensor) -> torch.Tensor:
        return self.log_probs.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)

    def entropy(self) -> torch.Tensor:
        terms = torch.where(self.legal, self.probs * self.log_probs, torch.zeros_like(self.probs))
        return -terms.sum(dim=-1)
