"""PUCT search: finds forced wins the uniform prior does not see, keeps signs right across extra
turns, honours its limits, and leaves the position as it found it."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from hive_envs.agents.search import SearchConfig, choose, search, search_root, tempered


class Nim:
    """Take 1 or 2 stones; whoever takes the last stone wins. With ``extra_turn_on_two`` taking two
    stones lets the same player move again (like a Hoyito capture). The search needs only these
    members of the game protocol."""

    def __init__(self, stones: int, extra_turn_on_two: bool = False):
        self.stones, self.to_move, self.extra = stones, 0, extra_turn_on_two
        self._stack: list[tuple[int, int]] = []
        self._last_mover = -1

    @property
    def is_terminal(self) -> bool:
        return self.stones == 0

    @property
    def result(self) -> float | None:
        return None if self.stones else (1.0 if self._last_mover == 0 else -1.0)

    def legal_move_ids(self) -> np.ndarray:
        return np.array([k for k in (1, 2) if k <= self.stones])

    def play_id(self, k: int) -> None:
        self._stack.append((self.stones, self.to_move, self._last_mover))
        self.stones -= k
        self._last_mover = self.to_move
        if not (self.extra and k == 2):
            self.to_move = 1 - self.to_move

    def undo(self) -> None:
        self.stones, self.to_move, self._last_mover = self._stack.pop()


def uniform(game):
    """No knowledge: equal priors, value 0."""
    moves = game.legal_move_ids()
    return moves, np.full(len(moves), 1.0 / len(moves)), 0.0


@functools.cache
def mover_wins(stones: int, extra: bool) -> bool:
    """Exact solution: can the player to move force a win?"""
    for k in (1, 2):
        if k > stones:
            continue
        if k == stones:
            return True
        again = extra and k == 2
        if mover_wins(stones - k, extra) == again:
            return True
    return False


def winning_moves(stones: int, extra: bool) -> set[int]:
    out = set()
    for k in (1, 2):
        if k == stones or (k < stones and mover_wins(stones - k, extra) == (extra and k == 2)):
            out.add(k)
    return out


@pytest.mark.parametrize("extra", [False, True])
@pytest.mark.parametrize("stones", [4, 5, 7, 8])
def test_search_finds_the_winning_take_in_nim(stones, extra):
    best = winning_moves(stones, extra)
    if not best:
        pytest.skip("lost position: every move loses")
    game = Nim(stones, extra)
    moves, visits, priors = search(game, uniform, SearchConfig(simulations=400))
    assert choose(moves, visits, priors) in best
    assert (game.stones, game.to_move, game._stack) == (stones, 0, [])  # left as found


@pytest.mark.parametrize("extra", [False, True])
@pytest.mark.parametrize("stones", [2, 4, 5, 7])
def test_root_values_are_each_moves_mean_outcome_for_the_root_mover(stones, extra):
    root = search_root(Nim(stones, extra), uniform, SearchConfig(simulations=600))
    means = {int(m): w / n for m, n, w in zip(root.moves, root.n, root.w)}
    if stones in means:  # taking the last stones wins at once: every visit backs up +1
        assert means[stones] == 1.0
    best, others = winning_moves(stones, extra), set(means) - winning_moves(stones, extra)
    assert all(means[w] > 0.8 for w in best)  # the search's value of a won position, near +1
    assert all(means[loss] < min(means[w] for w in best) for loss in others)


def test_zero_simulations_is_the_raw_policy():
    def evaluator(game):
        return np.array([1, 2]), np.array([0.3, 0.7]), 0.0

    moves, visits, priors = search(Nim(5), evaluator, SearchConfig(simulations=0))
    assert visits.sum() == 0 and choose(moves, visits, priors) == 2


def test_visits_add_up_to_the_simulations():
    _, visits, _ = search(Nim(9), uniform, SearchConfig(simulations=37))
    assert visits.sum() == 37


def test_depth_limit_scores_the_cut_node_with_the_value_head():
    calls = []

    def evaluator(game):
        calls.append(game.stones)
        return uniform(game)

    search(Nim(9), evaluator, SearchConfig(simulations=50, max_depth=1))
    assert set(calls) <= {9, 8, 7}  # the root and its children only, never deeper


def test_time_limit_stops_the_search():
    ticks = iter(range(1000))
    _, visits, _ = search(
        Nim(30), uniform, SearchConfig(simulations=500, time_s=5), clock=lambda: next(ticks)
    )
    assert 1 <= visits.sum() <= 6


@pytest.mark.parametrize(
    "bad",
    [
        {"simulations": -1},
        {"simulations": 1.5},
        {"c_puct": 0},
        {"max_depth": -2},
        {"time_s": -1.0},
        {"prior_temperature": 0},
        {"prior_temperature": float("inf")},
        {"prior_temperature": float("nan")},
        {"prior_temperature": True},
    ],
)
def test_bad_search_settings_are_refused(bad):
    with pytest.raises(ValueError):
        SearchConfig(**bad)


def test_tempered_priors_are_the_softmax_of_the_logits_over_the_temperature():
    logits = np.array([2.0, -1.0, 0.5, 0.0])
    softmax = np.exp(logits) / np.exp(logits).sum()
    for temperature in (0.5, 1.0, 3.0):
        expected = np.exp(logits / temperature) / np.exp(logits / temperature).sum()
        np.testing.assert_allclose(tempered(softmax, temperature), expected)


def test_a_flat_prior_lets_the_search_try_what_the_policy_dislikes():
    """With priors 0.999 / 0.001 and no values, 20 simulations all go to the liked move; at
    temperature 5 (priors ~0.8 / 0.2) the other one is tried too."""

    def sure(game):
        return np.array([1, 2]), np.array([0.999, 0.001]), 0.0

    for temperature, tried in ((1.0, False), (5.0, True)):
        _, visits, _ = search(Nim(20), sure, SearchConfig(simulations=20, prior_temperature=temperature))
        assert (visits[1] > 0) == tried


def test_search_on_a_finished_game_is_refused():
    with pytest.raises(ValueError, match="over"):
        search(Nim(0), uniform, SearchConfig())


# -- on the real engines, through the game views ----------------------------------------------
def _hive_position_with_a_winning_move(seed: int):
    from hive_envs.hive import HiveGame
    from hive_envs.hive.engine.heuristics import WIN_SCORE

    rng = random.Random(seed)
    for _ in range(200):
        game = HiveGame("Base")
        while not game.is_terminal and game.ply < 250:
            ids, scores = game.greedy_move_scores()
            if scores.max() == WIN_SCORE and scores.min() < WIN_SCORE:
                return game, {int(m) for m, s in zip(ids, scores) if s == WIN_SCORE}
            game.play_id(int(ids[rng.randrange(len(ids))]))
    raise AssertionError("no position with a winning move found")


def test_hive_search_finds_a_move_that_surrounds_the_queen():
    game, winning = _hive_position_with_a_winning_move(seed=3)
    before = game.gamestring
    moves, visits, priors = search(game, uniform, SearchConfig(simulations=3 * len(game.legal_move_ids())))
    assert choose(moves, visits, priors) in winning
    assert game.gamestring == before  # searched in place with play_id / undo, left as found


def test_hoyito_search_leaves_the_game_as_found():
    from hive_envs.hoyito import HoyitoGame

    rng = random.Random(0)
    game = HoyitoGame()
    for _ in range(20):
        game.play_id(rng.choice(game.legal_move_ids().tolist()))
    before = (game.record(), game.state.tolist())
    moves, visits, _ = search(game, uniform, SearchConfig(simulations=200))
    assert visits.sum() == 200 and set(moves.tolist()) == set(game.legal_move_ids().tolist())
    assert (game.record(), game.state.tolist()) == before
