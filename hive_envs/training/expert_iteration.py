"""Expert iteration (AlphaZero-style) for the games of hive_envs: the policy learns what the search finds.

    python -m hive_envs.training.expert_iteration --config experiments/hoyito_2x6_exit [--key value ...] [--resume | --overwrite]

Read top to bottom:
  1. options: the PPO trainer's config (hive_envs/training/config.py: the same keys, plus the ``exit_*`` ones);
     the network may start from the rule (`init_from_rule`);
  2. `num_games` games in self-play, every move chosen by one batched PUCT search over all of them
     (`hive_envs.agents.batched_search`, ``exit_simulations`` simulations, Dirichlet noise on the
     root priors, the search's ``search_prior_temperature`` and ``search_rule_value_share``): the first
     ``exit_sample_plies`` plies of a game sampled in proportion to the visits, then the most visited
     move. With ``exit_expert: alphabeta`` the game's alpha-beta searcher is the expert instead
     (`hive_envs.training.alphabeta_expert`): every legal move scored ``exit_expert_depth`` plies
     deep, the target the softmax of the scores / ``exit_expert_temperature``, sampled the same
     first plies, then a best-scored move (ties drawn at random);
  3. each position searched is a training example: the network's inputs at the root (kept from the
     search's own root evaluation), the visit distribution, and, once its game ends, the outcome for
     the player who moved; it joins a buffer of the last ``exit_buffer_size`` at once (the policy
     learns from it at once; the value once the outcome is known: a Hive game lasts ~60-300 plies);
  4. each iteration (``rollout_steps`` plies in every game), ``update_epochs`` x (new positions /
     ``exit_batch_size``) gradient steps on minibatches drawn from the buffer: the cross-entropy of
     the visit distribution under the policy plus ``vf_coef`` x the squared error of the value against
     the outcome (over the examples whose game has ended);
  5. what PPO's trainer does around it, shared with training/ppo_selfplay.py (hive_envs/training/run.py): the
     run folder (refused without --resume / --overwrite when it holds a run, locked while the run
     lasts), TensorBoard scalars, a progress bar, periodic and final evaluations of the raw policy
     (argmax) vs ``eval_opponents``, and checkpoints in the same format (``PATH@N``, evaluate.py and
     the ladder play them). --resume continues the weights and the optimizer; the buffer starts
     empty again.

Why visit counts (not Gumbel's improved policy): the searched players (``PATH@N``) play PUCT, and the
policy trained on PUCT's visits is the prior that search expects (`hive_envs.agents.batched_search`).
Only networks with a legal-action form (a kind's ``legal_actions``: the games' lookahead kinds) are
trained here: the examples keep their rule features (a Hive position's are the costly part of the
search's work).
"""

from __future__ import annotations

import collections
import sys
import time
from dataclasses import dataclass

import numpy as np

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # run as a script without an extra: one line, not a traceback
    import torch
    from torch import nn

    from hive_envs.agents.batch_evaluators import LeafBatch, make_batch_evaluator
    from hive_envs.agents.batched_search import RootNoise, SearchResult, batched_search
    from hive_envs.agents.distributions import mask_logits
    from hive_envs.agents.network_kinds import network_kind, network_kinds
    from hive_envs.agents.search import SearchConfig, choose
    from hive_envs.agents.views import view_for
    from hive_envs.games import GAMES
    from hive_envs.training.alphabeta_expert import AlphaBetaExpert
    from hive_envs.training.cli import train_main
    from hive_envs.training.config import TrainConfig, describe_keys, load_config
    from hive_envs.training.eval_matches import game_options
    from hive_envs.training.game_lookup import make_batch
    from hive_envs.training.resources import EXPERT_ITERATION
    from hive_envs.training.run import TrainingRun


@dataclass
class Example:
    """One searched position: the network's inputs at the root (one row of `LeafBatch`), the visit
    distribution over its entries, the mover, and the outcome for the mover once the game ends (None
    before)."""

    observation: np.ndarray
    actions: np.ndarray
    features: np.ndarray
    position: np.ndarray
    target: np.ndarray
    mover: int
    outcome: float | None = None


def examples_of(roots: LeafBatch, results: list[SearchResult], movers: list[int]) -> list[Example]:
    """The training examples of one search step: row i's visits placed on its rule-feature entries
    (matched by action index, so any order of the network's entries works; padding and illegal
    entries get 0). The rows keep every entry: the Hoyito network reads entry k as hole k."""
    assert roots.rule_features is not None
    entry_actions, features, position = (x.cpu().numpy() for x in roots.rule_features)
    observations = roots.observations.cpu().numpy()
    examples = []
    for i, result in enumerate(results):
        visits_of = dict(zip(roots.actions[i].tolist(), result.visits.tolist()))
        target = np.array([visits_of.get(int(a), 0) for a in entry_actions[i]], dtype=np.float32)
        examples.append(
            Example(
                observations[i], entry_actions[i], features[i], position[i], target / target.sum(), movers[i]
            )
        )
    return examples


def stack(examples: list[Example], padding_action: int, device: torch.device) -> dict:
    """A minibatch: observations, the rule features padded to the widest row (padding: action
    ``padding_action``, zero features), targets (zero on padding) and outcomes, as tensors."""
    width = max(len(e.actions) for e in examples)
    rows = len(examples)
    actions = np.full((rows, width), padding_action, dtype=np.int64)
    features = np.zeros((rows, width, examples[0].features.shape[1]), dtype=np.float32)
    target = np.zeros((rows, width), dtype=np.float32)
    for i, e in enumerate(examples):
        k = len(e.actions)
        actions[i, :k], features[i, :k], target[i, :k] = e.actions, e.features, e.target
    tensors = {
        "obs": np.stack([e.observation for e in examples]),
        "actions": actions,
        "features": features,
        "position": np.stack([e.position for e in examples]),
        "target": target,
        "outcome": np.array([e.outcome or 0.0 for e in examples], dtype=np.float32),
        "known": np.array([e.outcome is not None for e in examples], dtype=np.float32),
    }
    return {key: torch.as_tensor(value, device=device) for key, value in tensors.items()}


def train_step(network, optimizer, batch: dict, config: TrainConfig) -> dict[str, float]:
    """One gradient step: visit cross-entropy + vf_coef x value squared error (known outcomes only)."""
    rule_features = (batch["actions"], batch["features"], batch["position"])
    logits, value = network.legal_policy(batch["obs"], rule_features)
    legal = network.legal_mask(rule_features)
    log_probs = torch.log_softmax(mask_logits(logits, legal), dim=1)
    policy_loss = -(batch["target"] * log_probs).sum(dim=1).mean()
    value_loss = (batch["known"] * (value - batch["outcome"]) ** 2).sum() / batch["known"].sum().clamp(
        min=1.0
    )
    loss = policy_loss + config.vf_coef * value_loss
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(network.parameters(), config.max_grad_norm)
    optimizer.step()
    with torch.no_grad():
        agree = (log_probs.argmax(dim=1) == batch["target"].argmax(dim=1)).float().mean()
    return {
        "losses/policy_cross_entropy": float(policy_loss.detach()),
        "losses/value_loss": float(value_loss.detach()),
        "losses/search_agreement": float(agree),
    }


def expert_of(config: TrainConfig) -> AlphaBetaExpert | None:
    """The alpha-beta expert of ``exit_expert: alphabeta`` (ValueError for a game without a searcher or
    a depth over its cap), None for PUCT."""
    if config.exit_expert != "alphabeta":
        return None
    return AlphaBetaExpert(
        config.game,
        config.exit_expert_depth,
        config.exit_expert_temperature,
        config.seed,
        config.exit_expert_workers,
    )


class SelfPlay:
    """``num_games`` games played by the batched search, each searched position an example."""

    def __init__(self, config: TrainConfig, network, rng: np.random.Generator):
        self.view = view_for(config.game, game_options(config))
        self.evaluator = make_batch_evaluator(
            network, self.view, "the trained network", config.search_rule_value_share
        )
        self.search = SearchConfig(
            simulations=config.exit_simulations, prior_temperature=config.search_prior_temperature
        )
        self.noise = RootNoise(config.exit_noise_alpha, config.exit_noise_fraction)
        self.expert = expert_of(config)
        self.sample_plies = config.exit_sample_plies
        self.rng = rng
        self.games = [self.view.new_game() for _ in range(config.num_games)]
        self.pending: list[list[Example]] = [[] for _ in self.games]
        self.lengths: list[int] = []
        self.simulations = 0

    def play(self, plies: int) -> list[Example]:
        """One move in every game, ``plies`` times; returns the new examples (their outcomes are filled
        in when their games end)."""
        new: list[Example] = []
        for _ in range(plies):
            roots = self.evaluator(self.games)
            results = self.consult(roots)
            movers = [game.to_move for game in self.games]
            for g, (game, result, example) in enumerate(
                zip(self.games, results, examples_of(roots, results, movers))
            ):
                self.pending[g].append(example)
                new.append(example)
                game.play_id(self.move(game, result))
                if game.is_terminal:
                    self.finish(g)
        return new

    def consult(self, roots: LeafBatch) -> list[SearchResult]:
        """The expert's answer for every game: PUCT's visits, or the alpha-beta expert's target in
        their place (its ``visits`` and ``priors``); ``simulations`` counts PUCT's simulations or
        the alpha-beta nodes."""
        if self.expert is None:
            results = batched_search(self.games, self.evaluator, self.search, roots, self.noise, self.rng)
            self.simulations += sum(int(r.visits.sum()) for r in results)
            return results
        nodes_before = self.expert.nodes
        results = []
        for moves, scores in zip(roots.moves, self.expert.scores_of(self.games, list(roots.moves))):
            target = self.expert.target(scores)
            results.append(SearchResult(moves, target, target, 0))
        self.simulations += self.expert.nodes - nodes_before
        return results

    def close(self) -> None:
        """Stop the alpha-beta expert's worker processes, if any."""
        if self.expert is not None:
            self.expert.close()

    def move(self, game, result: SearchResult) -> int:
        if game.ply < self.sample_plies:
            return int(
                result.moves[self.rng.choice(len(result.moves), p=result.visits / result.visits.sum())]
            )
        if self.expert is not None:  # a best-scored move, ties drawn at random (not the first listed)
            return int(self.rng.choice(result.moves[result.visits == result.visits.max()]))
        return choose(result.moves, result.visits, result.priors)

    def finish(self, g: int) -> None:
        game = self.games[g]
        result0 = float(game.result)  # type: ignore[arg-type]  # the game is over
        examples = self.pending[g]
        for example in examples:
            example.outcome = result0 if example.mover == 0 else -result0
        self.lengths.append(game.ply)
        self.games[g], self.pending[g] = self.view.new_game(), []

    def pop_stats(self) -> dict[str, float]:
        stats = {}
        if self.lengths:
            stats = {
                "charts/episode_length": float(np.mean(self.lengths)),
                "charts/episodes": len(self.lengths),
            }
        self.lengths = []
        return stats


def train(config: TrainConfig, resume: bool = False, overwrite: bool = False) -> dict:
    """Run (or resume) expert iteration; returns a summary with the final evaluation (as PPO's)."""
    if config.game not in GAMES:
        raise ValueError(
            f"expert iteration plays the package's games ({', '.join(GAMES)}); got {config.game!r}"
        )
    if not network_kind(config.network).legal_actions:
        legal = [name for name, kind in network_kinds().items() if kind.legal_actions]
        raise ValueError(
            f"config key 'network' is {config.network!r}: expert iteration trains the networks with a "
            f"legal-action form: {', '.join(map(repr, legal))}"
        )
    expert_of(config)  # a bad expert is refused before the run folder is made
    with TrainingRun(config, resume, overwrite, EXPERT_ITERATION) as run:
        spaces = make_batch(config.game, 1, config.game_options)  # the spaces and options checkpoints record
        network, optimizer = run.build(spaces)
        eval_opponents = run.evaluation_players()
        run.start()  # the buffer starts empty again

        rng = np.random.default_rng(config.seed + 7919 * run.update)
        selfplay = SelfPlay(config, network, rng)
        buffer: collections.deque[Example] = collections.deque(maxlen=config.exit_buffer_size)
        run.open()
        try:
            while run.continues():
                tick = time.time()
                run.anneal_learning_rate()

                # 1. self-play by search
                network.eval()
                search_started, simulations_before = time.time(), selfplay.simulations
                new = selfplay.play(config.rollout_steps)
                search_seconds = time.time() - search_started
                buffer.extend(new)

                # 2. the network learns the search's visits and the outcomes
                network.train()
                sums: dict[str, float] = collections.defaultdict(float)
                steps = config.update_epochs * -(-len(new) // config.exit_batch_size) if buffer else 0
                for _ in range(steps):
                    picks = rng.integers(len(buffer), size=min(config.exit_batch_size, len(buffer)))
                    batch = stack([buffer[i] for i in picks], spaces.num_actions, run.device)
                    for key, value in train_step(network, optimizer, batch, config).items():
                        sums[key] += value / steps
                run.advance(config.num_games * config.rollout_steps, tick)

                # 3. logging, evaluation, checkpoints
                metrics = {**sums, **selfplay.pop_stats()}
                rate = "alphabeta_nodes" if config.exit_expert == "alphabeta" else "simulations"
                metrics[f"charts/{rate}_per_second"] = (selfplay.simulations - simulations_before) / max(
                    search_seconds, 1e-9
                )
                metrics["charts/buffer_size"] = len(buffer)
                metrics["charts/gradient_steps"] = steps
                run.log(metrics, tick)
                run.evaluate_if_due(eval_opponents)
                run.checkpoint_if_due([])
                run.show_progress()
        finally:
            selfplay.close()
        summary = run.finish([])
        return run.final_evaluation(summary, eval_opponents, sampled=False, updates_are="iterations")


def main(argv: list[str] | None = None) -> int:
    return train_main(
        argv, "python -m hive_envs.training.expert_iteration", __doc__, describe_keys(), load_config, train
    )


if __name__ == "__main__":
    sys.exit(command(main)())
