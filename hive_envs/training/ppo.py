"""The PPO update: clipped policy objective, (clipped) value loss, entropy over legal actions, and
(with teacher labels in the rollout) an imitation loss: the cross-entropy of the teacher's move
under the policy, averaged over the labelled decisions of each minibatch, weighted by
``config.teacher_coef``."""

from __future__ import annotations

import functools
from typing import Any, Protocol, runtime_checkable

import numpy as np
import torch
from torch import nn

from hive_envs.agents.distributions import MaskedCategorical
from hive_envs.training.selfplay import Rollout, legal_distribution, take_rows


@runtime_checkable
class LegalActionForm(Protocol):
    """A network with a legal-action form (`hive_envs.agents.networks.LegalActionNetwork`), which the
    update trains in that form."""

    def rule_features(self, observation: torch.Tensor) -> tuple[torch.Tensor, ...]: ...

    def legal_policy(
        self, observation, rule_features: tuple[torch.Tensor, ...]
    ) -> tuple[torch.Tensor, ...]: ...


@runtime_checkable
class SparsePlanes(Protocol):
    """A network that can read its observations as their entries (`agents.networks.PlaneEntries`, or
    None where it reads the planes), found once for every minibatch."""

    def plane_entries(self, observation: torch.Tensor) -> Any: ...


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
    flat = trained_decisions(rollout, config, masks=not trains_in_legal_form(network))
    data = {key: torch.as_tensor(value, device=device) for key, value in flat.items()}
    features, entries = legal_action_inputs(network, rollout, data["obs"], device)
    size = len(flat["actions"])
    minibatch = max(1, size // config.num_minibatches)
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _ in range(config.update_epochs):
        order = generator.permutation(size)
        for start in range(0, size - minibatch + 1, minibatch):
            mb = torch.as_tensor(order[start : start + minibatch], device=device)
            loss, losses = minibatch_losses(network, data, features, entries, mb, config)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(network.parameters(), config.max_grad_norm)
            optimizer.step()
            for key, value in losses.items():
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


def trained_decisions(rollout: Rollout, config, masks: bool = True) -> dict[str, np.ndarray]:
    """The rollout's trained decisions as flat arrays (observation, mask, action, log-probability,
    value, advantage, return) and, when the update imitates a teacher, the teacher's action
    (``"teacher"``, -1 where it was not asked). ``masks`` False leaves the masks out: a network
    trained in its legal-action form reads the rollout's action lists instead, and a Hive rollout's
    masks are ~100 MB to copy."""
    if rollout.advantages is None or rollout.returns is None:
        raise ValueError("the PPO update needs the rollout's advantages and returns (compute_gae)")
    keep = rollout.trained.reshape(-1)
    flat = {
        "obs": rollout.observations.reshape(-1, *rollout.observations.shape[2:])[keep],
        "actions": rollout.actions.reshape(-1)[keep],
        "log_probs": rollout.log_probs.reshape(-1)[keep],
        "values": rollout.values.reshape(-1)[keep],
        "advantages": rollout.advantages.reshape(-1)[keep],
        "returns": rollout.returns.reshape(-1)[keep],
    }
    if masks:
        flat["mask"] = rollout.action_masks.reshape(-1, rollout.action_masks.shape[-1])[keep]
    if rollout.teacher_actions is not None and config.teacher_coef > 0:
        flat["teacher"] = rollout.teacher_actions.reshape(-1)[keep]
    return flat


def trains_in_legal_form(network: nn.Module) -> bool:
    """Whether the update scores only each decision's legal actions (`legal_action_inputs` gives it
    features): a network that reads action lists, or one with a legal-action form."""
    return getattr(network, "reads_action_lists", False) or isinstance(network, LegalActionForm)


def legal_action_inputs(
    network: nn.Module, rollout: Rollout, observations: torch.Tensor, device: torch.device
):
    """(rule features, plane entries) of the decisions for a network with a legal-action form
    (hive_lookahead), which is trained in it, or that reads action lists (hive_pieces: the rollout's);
    (None, None) for the others. The rule features depend on
    the observation only, so the rollout's are reused (or computed once here); the observations'
    plane entries are found once for every minibatch."""
    features, entries = None, None
    if getattr(network, "reads_action_lists", False):  # its action lists come with the rollout
        if rollout.rule_features is None:
            raise ValueError("a network that reads action lists trains on a rollout that lists them")
        features = tuple(x.to(device) for x in rollout.rule_features)
    elif isinstance(network, LegalActionForm):
        features = rollout.rule_features or network.rule_features(observations)
        features = tuple(x.to(device) for x in features)
    if isinstance(network, SparsePlanes):
        entries = network.plane_entries(observations)
    return features, entries


def minibatch_losses(
    network: nn.Module, data: dict[str, torch.Tensor], features, entries, mb: torch.Tensor, config
) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """The loss to minimise on the minibatch ``mb`` (rows of ``data``) and its parts, by metric name."""
    rows = functools.partial(take_rows, index=mb)
    dist, new_value, new_log_prob, mb_features = minibatch_policy(network, data, features, entries, mb)
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
    with torch.no_grad():
        losses = {
            "losses/policy_loss": policy_loss,
            "losses/value_loss": value_loss,
            "losses/entropy": entropy,
            "losses/approx_kl": ((ratio - 1) - log_ratio).mean(),
            "losses/clipfrac": ((ratio - 1).abs() > config.clip_coef).float().mean(),
        }
    if "teacher" in data:
        imitation = imitation_loss(dist, rows(data["teacher"]), mb_features)
        if imitation is not None:
            cross_entropy, agreement = imitation
            loss = loss + config.teacher_coef * cross_entropy
            losses["losses/teacher_cross_entropy"] = cross_entropy
            losses["losses/teacher_agreement"] = agreement
    return loss, losses


def minibatch_policy(network: nn.Module, data: dict[str, torch.Tensor], features, entries, mb: torch.Tensor):
    """(the policy over the minibatch's legal actions, its values, the log-probability of the actions
    taken, the minibatch's rule features or None): in the network's legal-action form where it has
    one (`legal_action_inputs`), else over the masked action layout."""
    rows = functools.partial(take_rows, index=mb)
    if features is None:
        logits, new_value = network(rows(data["obs"]))
        dist = MaskedCategorical(logits, rows(data["mask"]))
        return dist, new_value, dist.log_prob(rows(data["actions"])), None
    mb_features = tuple(rows(x) for x in features)
    observations = rows(data["obs"]) if entries is None else entries.take(mb)
    dist, new_value = legal_distribution(network, observations, mb_features)
    return dist, new_value, dist.log_prob(action_places(mb_features, rows(data["actions"]))), mb_features


def imitation_loss(
    dist: MaskedCategorical, teacher: torch.Tensor, mb_features
) -> tuple[torch.Tensor, torch.Tensor] | None:
    """(cross-entropy of the teacher's moves under ``dist``, the share of them it would play) over the
    labelled decisions of the minibatch (``teacher`` >= 0); None when none is labelled."""
    labelled = teacher >= 0
    if not bool(labelled.any()):
        return None
    index = teacher.clamp(min=0)
    if mb_features is not None:
        index = action_places(mb_features, index)
    imitation = -(dist.log_prob(index) * labelled).sum() / labelled.sum()
    agreement = (dist.mode() == index).float()[labelled].mean()
    return imitation, agreement
