"""Self-play rollouts over a batch of games, and GAE along each seat's own decisions.

Every batch step is one ply in every game, made by the player to move there. Games are either
self-play (the learner plays both seats; both seats' decisions are trained) or pool games (the
learner holds one seat, the other a past policy or any player of `hive_envs.players`, e.g. an
alpha-beta searcher; only the learner's decisions are trained).

Teacher labels (optional): for a random share of the learner's decisions a teacher player (e.g.
`alphabeta:2`) is asked which move it would make in the same position; `Rollout.teacher_actions`
holds its action there (-1 elsewhere) for the PPO update's imitation loss (hive_envs/training/ppo.py).
The teacher sees the positions the learner reaches, as in DAgger (Ross et al. 2011), so the
labels cover the states the learner's own play leads to.

Per-seat trajectories: a transition of seat p runs from one decision of p to p's next decision
in the same game, or to the game's end, where it gets p's final reward. Seats alternate, but a
seat may decide several times in a row (Hoyito: a capture gives another move; automatic
passes), so "the next step" of a transition is found per (game, seat), not per game.

GAE runs backwards over the rollout keeping, per (game, seat), the value and advantage of that
seat's next decision (or the terminal reward). At the end of the rollout an unfinished
transition is bootstrapped with the value of the current position: V(obs) for the seat to
move, -V(obs) for the other seat (zero-sum, and the observation is always the mover's view).

Optional potential-based reward shaping (Ng, Harada & Russell 1999): with a game that reports a
per-seat potential Phi (`batch.potentials()`, Hive's Queen margin), a transition of seat p from
position s to its next decision s' gets the extra reward c * (gamma * Phi_p(s') - Phi_p(s)), with
Phi = 0 once the game is over. The best policy is unchanged for any gamma (that paper's result);
with gamma = 1 the extra rewards of a whole game even sum to -c * Phi_p(start) = 0 (no Queen is in
play at the start). What changes is that progress towards the Queen is credited when it
happens, not 100 plies later when the game ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from hive_envs.agents.distributions import MaskedCategorical
from hive_envs.agents.networks import action_lists
from hive_envs.players import batch_actions


@dataclass
class Rollout:
    """Arrays of shape (T, N, ...) for T batch steps of N games."""

    observations: np.ndarray
    action_masks: np.ndarray
    actions: np.ndarray
    log_probs: np.ndarray
    values: np.ndarray
    movers: np.ndarray  # seat that decided
    trained: np.ndarray  # the learner made this decision (its data is trained on)
    terminated: np.ndarray  # the step ended the game
    rewards: np.ndarray  # (T, N, 2)
    final_values: np.ndarray  # (N, 2): bootstrap value of the position after the rollout, per seat
    potentials: np.ndarray | None = None  # (T, N, 2) shaping potential of each seat before step t
    final_potentials: np.ndarray | None = None  # (N, 2) the same after the rollout
    rule_features: tuple | None = None  # a lookahead network's rule features of the trained decisions
    teacher_actions: np.ndarray | None = None  # (T, N) the teacher's action, -1 where not asked
    advantages: np.ndarray | None = None
    returns: np.ndarray | None = None


def compute_gae(
    rollout: Rollout, gamma: float, gae_lambda: float, shaping_coef: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns (T, N) for the trained decisions (zero elsewhere); with
    `shaping_coef` > 0 the rewards include the potential-based shaping of the module doc."""
    steps, games = rollout.actions.shape
    idx = np.arange(games)
    shaping = shaping_coef > 0
    potentials = rollout.potentials if shaping else None
    final_potentials = rollout.final_potentials if shaping else None
    if shaping and (potentials is None or final_potentials is None):
        raise ValueError("shaping_coef > 0 needs a rollout collected with potentials")
    next_phi = (
        np.zeros((games, 2)) if final_potentials is None else final_potentials.astype(np.float64).copy()
    )
    next_value = rollout.final_values.astype(np.float64).copy()
    next_adv = np.zeros((games, 2))
    next_done = np.zeros((games, 2))
    next_reward = np.zeros((games, 2))
    advantages = np.zeros((steps, games), dtype=np.float32)
    for t in range(steps - 1, -1, -1):
        ended = rollout.terminated[t]
        next_done[ended] = 1.0
        next_reward[ended] = rollout.rewards[t][ended]
        next_value[ended] = 0.0
        next_adv[ended] = 0.0
        next_phi[ended] = 0.0
        seat = rollout.movers[t].astype(np.int64)
        value = rollout.values[t].astype(np.float64)
        alive = 1.0 - next_done[idx, seat]
        phi = np.zeros(games) if potentials is None else potentials[t][idx, seat].astype(np.float64)
        shaped = shaping_coef * (gamma * next_phi[idx, seat] - phi)
        delta = next_reward[idx, seat] + shaped + gamma * next_value[idx, seat] * alive - value
        adv = delta + gamma * gae_lambda * alive * next_adv[idx, seat]
        rows = np.flatnonzero(rollout.trained[t])
        advantages[t, rows] = adv[rows]
        s = seat[rows]
        next_value[rows, s] = value[rows]
        next_adv[rows, s] = adv[rows]
        next_done[rows, s] = 0.0
        next_reward[rows, s] = 0.0
        next_phi[rows, s] = phi[rows]
    returns = advantages + rollout.values * rollout.trained
    return advantages, returns.astype(np.float32)


def concat_rule_features(
    parts: list[tuple[torch.Tensor, ...]], padding_action: int
) -> tuple[torch.Tensor, ...]:
    """Stack per-step (actions (R, K), features (R, K, F), position (R, G)) along the rows, padding
    every step to the widest K (padding: action `padding_action`, all-zero features)."""
    width = max(part[0].shape[1] for part in parts)
    actions = torch.cat(
        [torch.nn.functional.pad(a, (0, width - a.shape[1]), value=padding_action) for a, _, _ in parts]
    )
    features = torch.cat([torch.nn.functional.pad(f, (0, 0, 0, width - f.shape[1])) for _, f, _ in parts])
    return actions, features, torch.cat([p for _, _, p in parts])


def legal_distribution(network, obs: torch.Tensor, features: tuple) -> tuple[MaskedCategorical, torch.Tensor]:
    """A legal-action network's policy over each row's legal actions (in `features`' order) and value.

    The same probabilities as the dense masked distribution (illegal actions have none) with
    ~100 entries per row instead of the whole action layout, so the entropy is the same too.
    """
    logits, value = network.legal_policy(obs, features)
    return MaskedCategorical(logits, network.legal_mask(features)), value


def take_rows(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """``x[index]`` for a 1-D index: `index_select` copies a batch of Hive observations in a tenth
    of the time advanced indexing takes (the rollout's decisions, the PPO update's minibatches)."""
    return x.index_select(0, index)


class SelfPlayCollector:
    """Steps a batch with the learner (and optionally a pool opponent) and records rollouts."""

    def __init__(
        self, batch, network: torch.nn.Module, device: torch.device, seed: int, potentials: bool = False
    ):
        if potentials:
            try:  # a BatchGame subclass has the method, and raises NotImplementedError without potentials
                batch.potentials()
            except (AttributeError, NotImplementedError):
                raise ValueError(
                    f"reward shaping (shaping_coef > 0) needs a game whose batch reports potentials(); "
                    f"{type(batch).__name__} does not"
                ) from None
        self.batch = batch
        self.record_potentials = potentials
        self.network = network
        self.device = device
        self.rng = np.random.default_rng(seed)
        self.generator = torch.Generator(device=device).manual_seed(seed)
        batch.reset(seed=seed)
        # Statistics of games finished since the last call to pop_stats().
        self.lengths: list[int] = []
        self.pool_outcomes: dict[str, list[float]] = {}  # opponent ("pool": a past policy) -> rewards

    @torch.no_grad()
    def _decide(self, network, rows: np.ndarray, obs: torch.Tensor, masks: np.ndarray):
        """(actions, log-probabilities, values, rule features or None) for the given rows of the
        observations ``obs`` and action masks ``masks`` (numpy: a network that reads action lists finds
        them there)."""
        if hasattr(network, "legal_policy"):  # scores the legal actions only
            index = torch.as_tensor(rows, device=obs.device)
            chosen = take_rows(obs, index)
            if getattr(network, "reads_action_lists", False):
                features = action_lists(masks[rows], obs.device)
            else:
                features = network.rule_features(chosen)
            dist, value = legal_distribution(network, chosen, features)
            choice = dist.sample(self.generator)
            action = features[0].gather(1, choice.unsqueeze(1)).squeeze(1)
            return action, dist.log_prob(choice), value, features
        logits, value = network(obs[rows])
        dist = MaskedCategorical(logits, torch.as_tensor(masks[rows], device=obs.device))
        action = dist.sample(self.generator)
        return action, dist.log_prob(action), value, None

    def _values(self, obs: torch.Tensor, mask: np.ndarray) -> np.ndarray:
        """The learner's values of the positions ``obs`` (a network that reads action lists: from its
        listed form, which costs a fraction of its every-action form)."""
        network: Any = self.network
        if getattr(network, "reads_action_lists", False):
            return network.legal_policy(obs, action_lists(mask, self.device))[1].cpu().numpy()
        return network(obs)[1].cpu().numpy()

    def _opponent_actions(self, opponent, rows: np.ndarray, obs: torch.Tensor, masks: np.ndarray):
        """The pool opponent's actions in ``rows``: a network samples its policy, a player chooses."""
        if isinstance(opponent, torch.nn.Module):
            return self._decide(opponent, rows, obs, masks)[0].cpu().numpy()
        return batch_actions(opponent, self.batch, rows)

    @torch.no_grad()
    def collect(
        self,
        steps: int,
        opponent=None,
        pool_games: int = 0,
        teacher=None,
        teacher_share: float = 0.0,
    ) -> Rollout:
        """Play `steps` plies in every game. Games [0, pool_games) face `opponent` this rollout (a
        network or a player), the learner taking a random seat in each; the others are self-play.
        With a `teacher` (a player), a `teacher_share` of the learner's decisions get its label."""
        batch, n = self.batch, self.batch.num_games
        pool_games = pool_games if opponent is not None else 0
        label = "pool" if isinstance(opponent, torch.nn.Module) else str(getattr(opponent, "name", "player"))
        learner_seat = self.rng.integers(0, 2, size=n).astype(np.int8)
        is_pool = np.arange(n) < pool_games
        obs_buf = np.empty((steps, n, *batch.observation_shape), dtype=batch.observation.dtype)
        mask_buf = np.empty((steps, n, batch.num_actions), dtype=np.int8)
        actions = np.zeros((steps, n), dtype=np.int64)
        log_probs = np.zeros((steps, n), dtype=np.float32)
        values = np.zeros((steps, n), dtype=np.float32)
        movers = np.zeros((steps, n), dtype=np.int8)
        trained = np.zeros((steps, n), dtype=bool)
        terminated = np.zeros((steps, n), dtype=bool)
        rewards = np.zeros((steps, n, 2), dtype=np.float32)
        potentials = np.zeros((steps, n, 2), dtype=np.float32) if self.record_potentials else None
        step_features: list[tuple[torch.Tensor, ...]] = []
        teacher_actions = np.full((steps, n), -1, dtype=np.int64) if teacher is not None else None
        for t in range(steps):
            if potentials is not None:
                potentials[t] = batch.potentials()
            obs_buf[t] = batch.observation
            mask_buf[t] = batch.action_mask
            movers[t] = batch.to_move
            learner_rows = ~is_pool | (batch.to_move == learner_seat)
            trained[t] = learner_rows
            obs = torch.as_tensor(obs_buf[t], device=self.device)
            rows = np.flatnonzero(learner_rows)
            if teacher_actions is not None:
                asked = rows[self.rng.random(rows.size) < teacher_share]
                if asked.size:
                    teacher_actions[t, asked] = batch_actions(teacher, batch, asked)
            action, log_prob, value, features = self._decide(self.network, rows, obs, mask_buf[t])
            if features is not None:
                step_features.append(features)
            actions[t, rows] = action.cpu().numpy()
            log_probs[t, rows] = log_prob.cpu().numpy()
            values[t, rows] = value.cpu().numpy()
            rows = np.flatnonzero(~learner_rows)
            if rows.size:
                actions[t, rows] = self._opponent_actions(opponent, rows, obs, mask_buf[t])
            batch.step(actions[t])
            terminated[t] = batch.terminated
            rewards[t] = batch.rewards
            ended = np.flatnonzero(batch.terminated)
            self.lengths.extend(batch.episode_length[ended].tolist())
            ended_pool = ended[is_pool[ended]]
            if ended_pool.size:
                outcomes = batch.rewards[ended_pool, learner_seat[ended_pool]].tolist()
                self.pool_outcomes.setdefault(label, []).extend(outcomes)
        last_value = self._values(torch.as_tensor(batch.observation, device=self.device), batch.action_mask)
        final_values = np.empty((n, 2), dtype=np.float32)
        mover = batch.to_move.astype(np.int64)
        final_values[np.arange(n), mover] = last_value
        final_values[np.arange(n), 1 - mover] = -last_value
        rollout = Rollout(
            obs_buf, mask_buf, actions, log_probs, values, movers, trained, terminated, rewards, final_values
        )
        if potentials is not None:
            rollout.potentials, rollout.final_potentials = potentials, batch.potentials()
        if step_features:
            rollout.rule_features = concat_rule_features(step_features, padding_action=batch.num_actions)
        rollout.teacher_actions = teacher_actions
        return rollout

    def pop_stats(self) -> dict[str, float]:
        stats = {}
        if self.lengths:
            stats["charts/episode_length"] = float(np.mean(self.lengths))
            stats["charts/episodes"] = float(len(self.lengths))
        for label, outcomes in self.pool_outcomes.items():
            stats[f"charts/vs_{label}_win_rate"] = float(np.mean(np.array(outcomes) > 0))
        self.lengths, self.pool_outcomes = [], {}
        return stats
