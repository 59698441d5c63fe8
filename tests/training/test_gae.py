"""GAE along each seat's own decisions in alternating and extra-turn self-play."""

import numpy as np
import pytest

from hive_envs.training.selfplay import Rollout, compute_gae


def one_game_rollout(movers, values, terminated_at, rewards_at_end, final_values=(0.0, 0.0), trained=None):
    """A rollout of one game (N = 1) from plain lists."""
    steps = len(movers)
    terminated = np.zeros((steps, 1), dtype=bool)
    rewards = np.zeros((steps, 1, 2), dtype=np.float32)
    if terminated_at is not None:
        terminated[terminated_at, 0] = True
        rewards[terminated_at, 0] = rewards_at_end
    return Rollout(
        observations=np.zeros((steps, 1, 1), dtype=np.uint8),
        action_masks=np.ones((steps, 1, 2), dtype=np.int8),
        actions=np.zeros((steps, 1), dtype=np.int64),
        log_probs=np.zeros((steps, 1), dtype=np.float32),
        values=np.array(values, dtype=np.float32)[:, None],
        movers=np.array(movers, dtype=np.int8)[:, None],
        trained=np.ones((steps, 1), dtype=bool) if trained is None else np.array(trained)[:, None],
        terminated=terminated,
        rewards=rewards,
        final_values=np.array([final_values], dtype=np.float32),
    )


def test_monte_carlo_limit_gives_each_seat_its_own_final_reward():
    # seats 0,1,0,0 (seat 0 gets an extra turn), 1; seat 1's last move wins the game
    values = [0.1, -0.2, 0.3, 0.4, 0.5]
    rollout = one_game_rollout([0, 1, 0, 0, 1], values, terminated_at=4, rewards_at_end=(-1.0, 1.0))
    adv, ret = compute_gae(rollout, gamma=1.0, gae_lambda=1.0)
    expected_returns = [-1.0, 1.0, -1.0, -1.0, 1.0]
    np.testing.assert_allclose(ret[:, 0], expected_returns, atol=1e-6)
    np.testing.assert_allclose(adv[:, 0], np.array(expected_returns) - values, atol=1e-6)


def test_one_step_td_uses_the_same_seats_next_value():
    values = [0.1, -0.2, 0.3, 0.4, 0.5]
    rollout = one_game_rollout([0, 1, 0, 0, 1], values, terminated_at=4, rewards_at_end=(-1.0, 1.0))
    adv, _ = compute_gae(rollout, gamma=1.0, gae_lambda=0.0)
    # seat 0: 0 -> 2 -> 3 -> end(-1); seat 1: 1 -> 4 -> end(+1)
    expected = [0.3 - 0.1, 0.5 - (-0.2), 0.4 - 0.3, -1.0 - 0.4, 1.0 - 0.5]
    np.testing.assert_allclose(adv[:, 0], expected, atol=1e-6)


def test_unfinished_game_bootstraps_with_the_mover_value_and_its_negation():
    # seat 1 is to move after the rollout, with value 0.6: seat 0's bootstrap is -0.6
    rollout = one_game_rollout(
        [0, 1, 0], [0.1, 0.2, 0.3], terminated_at=None, rewards_at_end=None, final_values=(-0.6, 0.6)
    )
    adv, _ = compute_gae(rollout, gamma=1.0, gae_lambda=0.0)
    np.testing.assert_allclose(adv[:, 0], [0.3 - 0.1, 0.6 - 0.2, -0.6 - 0.3], atol=1e-6)


def test_a_new_game_after_termination_does_not_leak_into_the_old_one():
    # game ends at step 1 (seat 1 wins); steps 2, 3 belong to the next game
    values = [0.0, 0.0, 0.7, 0.9]
    rollout = one_game_rollout(
        [0, 1, 0, 1], values, terminated_at=1, rewards_at_end=(-1.0, 1.0), final_values=(0.5, -0.5)
    )
    _, ret = compute_gae(rollout, gamma=1.0, gae_lambda=1.0)
    np.testing.assert_allclose(ret[:2, 0], [-1.0, 1.0], atol=1e-6)
    np.testing.assert_allclose(ret[2:, 0], [0.5, -0.5], atol=1e-6)


def test_untrained_opponent_decisions_get_no_advantage_and_do_not_break_the_chain():
    # pool game: the learner holds seat 0; seat 1's moves are the opponent's
    values = [0.2, 0.0, 0.4, 0.0]
    rollout = one_game_rollout(
        [0, 1, 0, 1], values, terminated_at=3, rewards_at_end=(1.0, -1.0), trained=[True, False, True, False]
    )
    adv, _ = compute_gae(rollout, gamma=1.0, gae_lambda=0.0)
    np.testing.assert_allclose(adv[:, 0], [0.4 - 0.2, 0.0, 1.0 - 0.4, 0.0], atol=1e-6)


@pytest.mark.parametrize("gamma", [0.9, 1.0])
def test_discount_applies_per_own_decision(gamma):
    rollout = one_game_rollout([0, 1, 0, 1], [0.0] * 4, terminated_at=3, rewards_at_end=(1.0, -1.0))
    _, ret = compute_gae(rollout, gamma=gamma, gae_lambda=1.0)
    np.testing.assert_allclose(ret[:, 0], [gamma, -1.0 * gamma, 1.0, -1.0], atol=1e-6)


def test_potential_shaping_credits_each_step_and_telescopes_to_nothing():
    # seats 0,1,0,1, seat 0's last move wins; potentials per seat before each step (Queen margins)
    values = [0.0, 0.0, 0.0, 0.0]
    rollout = one_game_rollout([0, 1, 0, 1], values, terminated_at=3, rewards_at_end=(1.0, -1.0))
    rollout.terminated[3, 0], rollout.terminated[2, 0] = False, True  # seat 0 wins on step 2
    rollout.rewards[3, 0], rollout.rewards[2, 0] = 0.0, (1.0, -1.0)
    rollout.potentials = np.array(
        [[[0.0, 0.0]], [[1 / 6, -1 / 6]], [[2 / 6, -2 / 6]], [[0.0, 0.0]]], np.float32
    )
    rollout.final_potentials = np.zeros((1, 2), np.float32)
    plain, _ = compute_gae(rollout, gamma=1.0, gae_lambda=0.0)
    shaped, _ = compute_gae(rollout, gamma=1.0, gae_lambda=0.0, shaping_coef=0.5)
    # seat 0: step 0 -> step 2 (margin 0 -> 2/6), step 2 -> end (Phi = 0); seat 1: step 1 -> end
    np.testing.assert_allclose(
        shaped[:3, 0] - plain[:3, 0], [0.5 * 2 / 6, 0.5 * 1 / 6, -0.5 * 2 / 6], atol=1e-6
    )
    # Monte Carlo returns: from a decision on, the shaping terms telescope to -c * Phi(that position),
    # 0 from the start position (no Queen in play), so the game's objective is unchanged
    _, plain_ret = compute_gae(rollout, gamma=1.0, gae_lambda=1.0)
    _, shaped_ret = compute_gae(rollout, gamma=1.0, gae_lambda=1.0, shaping_coef=0.5)
    phi_of_mover = rollout.potentials[[0, 1, 2], 0, [0, 1, 0]]
    np.testing.assert_allclose(shaped_ret[:3, 0], plain_ret[:3, 0] - 0.5 * phi_of_mover, atol=1e-6)
    assert shaped_ret[0, 0] == pytest.approx(plain_ret[0, 0])


def test_shaping_needs_recorded_potentials():
    rollout = one_game_rollout([0, 1], [0.0, 0.0], terminated_at=1, rewards_at_end=(1.0, -1.0))
    with pytest.raises(ValueError, match="potentials"):
        compute_gae(rollout, gamma=1.0, gae_lambda=0.95, shaping_coef=1.0)
