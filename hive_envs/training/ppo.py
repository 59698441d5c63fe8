"""The PPO update: clipped policy objective, (clipped) value loss, entropy over legal actions, and
(with teacher labels in the rollout) an imitation loss: the cross-entropy of the teacher's move
under the policy, averaged over the labelled decisions of each minibatch, weighted by
``config.teacher_coef``."""

from __future__ import annotations

import functools

import numpy as np
import torch
from torch import nn

from hive_envs.agents.distributions import MaskedCategorical
from hive_envs.training.selfplay import Rollout, legal_distribution, take_rows


def action_places(rule_features: tuple[torch.Tensor, ...], actions: torch.Tensor) -> torch.Tensor:
    """Each action's place in its row's list of legal actions (a legal-action network's order)."""
    return (rule_features[0] == actions.unsqueeze(1)).long().argmax(dim=1)


def ppo_update(
    network: nn.Module,
    optimizer: torch.optim.Optimizer,
    rollout: Rollout,
    config,
    device: torch.device,
    generator: np.random.Generator,
) -> dict[str, float]:
    """Train on the rollout's trained decisions; returns the `losses/...` metrics."""
    keep = rollout.trained.reshape(-1)
    flat = {
        "obs": rollout.observations.reshape(-1, *rollout.observations.shape[2:])[keep],
        "mask": rollout.action_masks.reshape(-1, rollout.action_masks.shape[-1])[keep],
        "actions": rollout.actions.reshape(-1)[keep],
        "log_probs": rollout.log_probs.reshape(-1)[keep],
        "values": rollout.values.reshape(-1)[keep],
        "advantages": rollout.advantages.reshape(-1)[keep],
        "returns": rollout.returns.reshape(-1)[keep],
    }
    imitate = rollout.teacher_actions is not None and config.teacher_coef > 0
    if imitate:
        flat["teacher"] = rollout.teacher_actions.reshape(-1)[keep]
    data = {key: torch.as_tensor(value, device=device) for key, value in flat.items()}
    # A network with a legal-action form (hive_lookahead) is trained in it; its rule features
    # depend on the observation only, so the rollout's are reused (or computed once here).
    features, entries = None, None
    if hasattr(network, "legal_policy"):
        features = rollout.rule_features or network.rule_features(data["obs"])
        features = tuple(x.to(device) for x in features)
    if hasattr(network, "plane_entries"):  # the observations' entries, found once for every minibatch
        entries = network.plane_entries(data["obs"])
    size = int(keep.sum())
    minibatch = max(1, size // config.num_minibatches)
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _ in range(config.update_epochs):
        order = generator.permutation(size)
        for start in range(0, size - minibatch + 1, minibatch):
            mb = torch.as_tensor(order[start : start + minibatch], device=device)
            rows = functools.partial(take_rows, index=mb)
            if features is None:
                logits, new_value = network(rows(data["obs"]))
                dist = MaskedCategorical(logits, rows(data["mask"]))
                new_log_prob = dist.log_prob(rows(data["actions"]))
                mb_features = None
            else:
                mb_features = tuple(rows(x) for x in features)
                observations = rows(data["obs"]) if entries is None else entries.take(mb)
                dist, new_value = legal_distribution(network, observations, mb_features)
                new_log_prob = dist.log_prob(action_places(mb_features, rows(data["actions"])))
            entropy = dist.entropy().mean()
            log_ratio = new_log_prob - rows(data["log_probs"])
            ratio = log_ratio.exp()
            adv = rows(data["advantages"])
            if config.norm_adv and adv.numel() > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            policy_loss = torch.max(
                -adv * ratio, -adv * ratio.clamp(1 - config.clip_coef, 1 + config.clip_coef)
            ).mean()
            returns = rows(data["returns"])
            if config.clip_value:
                old_value = rows(data["values"])
                clipped = old_value + (new_value - old_value).clamp(-config.clip_coef, config.clip_coef)
                value_loss = 0.5 * torch.max((new_value - returns) ** 2, (clipped - returns) ** 2).mean()
            else:
                value_loss = 0.5 * ((new_value - returns) ** 2).mean()
            loss = policy_loss + config.vf_coef * value_loss - config.ent_coef * entropy
            extra = {}
            if imitate:
                teacher = rows(data["teacher"])
                labelled = teacher >= 0
                if bool(labelled.any()):
                    index = teacher.clamp(min=0)
                    if mb_features is not None:
                        index = action_places(mb_features, index)
                    imitation = -(dist.log_prob(index) * labelled).sum() / labelled.sum()
                    loss = loss + config.teacher_coef * imitation
                    agree = (dist.mode() == index).float()[labelled].mean()
                    extra = {"losses/teacher_cross_entropy": imitation, "losses/teacher_agreement": agree}
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(network.parameters(), config.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                approx_kl = ((ratio - 1) - log_ratio).mean()
                clipfrac = ((ratio - 1).abs() > config.clip_coef).float().mean()
            for key, value in (
                ("losses/policy_loss", policy_loss),
                ("losses/value_loss", value_loss),
                ("losses/entropy", entropy),
                ("losses/approx_kl", approx_kl),
                ("losses/clipfrac", clipfrac),
                *extra.items(),
            ):
                sums[key] = sums.get(key, 0.0) + float(value.detach())
                counts[key] = counts.get(key, 0) + 1
    metrics = {key: total / counts[key] for key, total in sums.items()}
    returns, values = flat["returns"], flat["values"]
    variance = np.var(returns)
    metrics["losses/explained_variance"] = (
        float(1 - np.var(returns - values) / variance) if variance > 0 else 0.0
    )
    metrics["charts/trained_decisions"] = float(size)
    return metrics
