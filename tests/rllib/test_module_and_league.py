"""Masked RLModule, league pairings and snapshot rule, export: unit tests without starting Ray."""

import types

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed (pip install 'hive_envs[rllib]')")

import gymnasium as gym
import torch
from ray.rllib.core.columns import Columns

from hive_envs.agents import load_policy
from hive_envs.training.rllib.config import RLlibConfig
from hive_envs.training.rllib.export import export_module
from hive_envs.training.rllib.league import MAIN, RANDOM, LeagueCallback, LeagueMapping
from hive_envs.training.rllib.module import MaskedPolicyModule, MaskedRandomModule

N_ACTIONS = 6
OBS_SPACE = gym.spaces.Dict(
    {
        "observation": gym.spaces.Box(0.0, 12.0, (16,), np.float32),
        "action_mask": gym.spaces.Box(0, 1, (N_ACTIONS,), np.int8),
    }
)


def policy_module(hidden=(16,)):
    return MaskedPolicyModule(
        observation_space=OBS_SPACE,
        action_space=gym.spaces.Discrete(N_ACTIONS),
        model_config={"network": {"kind": "mlp", "hidden_sizes": list(hidden)}},
    )


def random_batch(rows=256, seed=0):
    rng = np.random.default_rng(seed)
    mask = (rng.random((rows, N_ACTIONS)) < 0.4).astype(np.int8)
    mask[np.arange(rows), rng.integers(N_ACTIONS, size=rows)] = 1  # at least one legal action per row
    obs = rng.integers(0, 12, (rows, 16)).astype(np.float32)
    return {Columns.OBS: {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(mask)}}, mask


@pytest.mark.parametrize(
    "make",
    [
        policy_module,
        lambda: MaskedRandomModule(observation_space=OBS_SPACE, action_space=gym.spaces.Discrete(N_ACTIONS)),
    ],
)
def test_illegal_actions_are_never_sampled_and_have_zero_probability(make):
    module = make()
    batch, mask = random_batch()
    out = module.forward_exploration(batch)
    dist = module.get_exploration_action_dist_cls().from_logits(out[Columns.ACTION_DIST_INPUTS])
    torch.manual_seed(0)
    for _ in range(20):
        actions = dist.sample().numpy()
        assert mask[np.arange(len(mask)), actions].all()
    probs = torch.softmax(out[Columns.ACTION_DIST_INPUTS], dim=-1).detach().numpy()
    assert (probs[mask == 0] == 0).all()
    greedy = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].argmax(-1).numpy()
    assert mask[np.arange(len(mask)), greedy].all()


def test_random_module_is_uniform_over_legal_actions():
    module = MaskedRandomModule(observation_space=OBS_SPACE, action_space=gym.spaces.Discrete(N_ACTIONS))
    batch, mask = random_batch()
    probs = torch.softmax(module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS], -1).numpy()
    np.testing.assert_allclose(probs, mask / mask.sum(axis=1, keepdims=True), atol=1e-6)


def test_train_forward_gives_the_network_value_to_the_learner():
    module = policy_module()
    batch, _ = random_batch(8)
    out = module.forward_train(batch)
    _, value = module.net(batch[Columns.OBS]["observation"])
    torch.testing.assert_close(module.compute_values(batch, embeddings=out[Columns.EMBEDDINGS]), value)
    torch.testing.assert_close(module.compute_values(batch), value)


def test_export_is_a_state_dict_copy_loadable_as_our_checkpoint(tmp_path):
    module = policy_module(hidden=(32, 32))
    config = RLlibConfig(game_options={"holes_per_row": 6}, hidden_sizes=[32, 32])
    path = export_module(module, config, tmp_path / "ck.pt", global_step=1234, update=3)
    policy = load_policy(path, greedy=True, game="hoyito", num_actions=N_ACTIONS)
    data = policy.checkpoint
    assert data["global_step"] == 1234 and data["update"] == 3 and data["config"]["trainer"] == "rllib"
    for key, value in module.net.state_dict().items():
        torch.testing.assert_close(data["model"][key], value)
    batch, mask = random_batch(16, seed=3)
    obs = batch[Columns.OBS]["observation"].numpy()
    expected = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].argmax(-1).numpy()
    assert [policy(obs[i], mask[i]) for i in range(16)] == expected.tolist()


def episode(episode_id):
    return types.SimpleNamespace(id_=episode_id)


def test_league_mapping_is_one_pairing_per_game_with_main_in_it():
    mapping = LeagueMapping([RANDOM, "main_v1"], self_play_share=0.25, seed=7)
    pairings = [
        tuple(mapping(agent, episode(f"ep{i}")) for agent in ("player_0", "player_1")) for i in range(4000)
    ]
    assert all(MAIN in pair for pair in pairings)
    assert pairings == [mapping.pairing(f"ep{i}") for i in range(4000)]  # stable per episode id
    self_play = sum(pair == (MAIN, MAIN) for pair in pairings) / len(pairings)
    assert 0.22 < self_play < 0.28
    league = [pair for pair in pairings if pair != (MAIN, MAIN)]
    main_first = sum(pair[0] == MAIN for pair in league) / len(league)
    assert 0.46 < main_first < 0.54  # main plays both seats
    opponents = [pair[1] if pair[0] == MAIN else pair[0] for pair in league]
    assert 0.46 < opponents.count(RANDOM) / len(opponents) < 0.54


class FakeAlgorithm:
    """Records what the callback asks of an Algorithm."""

    def __init__(self):
        self.added, self.states, self.mappings = [], [], []
        self.main = policy_module()

    def get_module(self, module_id):
        assert module_id == MAIN
        return self.main

    def add_module(self, *, module_id, module_spec, new_agent_to_module_mapping_fn):
        self.added.append(module_id)
        self.mappings.append(new_agent_to_module_mapping_fn)

    def set_state(self, state):
        self.states.append(state)


def result(games, wins):
    return {"env_runners": {"league": {"games": games, "wins": wins}}}


def test_snapshot_added_when_recent_win_rate_passes_threshold_over_enough_games():
    callback = LeagueCallback(
        win_rate_threshold=0.8, min_league_games=100, max_league_size=2, self_play_share=0.5, seed=0
    )
    algorithm = FakeAlgorithm()

    def step(games, wins):
        callback.on_train_result(algorithm=algorithm, result=(r := result(games, wins)))
        return r["league"]

    assert step(50, 50)["added"] is None  # too few games: no rate yet
    assert step(99, 95)["win_rate"] is None
    league = step(200, 150)  # last 101 games (after 99): 55/101 < 0.8
    assert league["added"] is None and league["window_games"] == 101
    # a weak start does not hold main back: the window is the most recent >= 100 games
    league = step(300, 240)  # last 100 games: 90/100
    assert league["added"] == "main_v1" and algorithm.added == ["main_v1"]
    state = algorithm.states[-1]["learner_group"]["learner"]["rl_module"]["main_v1"]
    for key, value in algorithm.main.get_state().items():
        torch.testing.assert_close(state[key], value)
    assert algorithm.mappings[-1].opponents == [RANDOM, "main_v1"]
    # the window restarts at the change: 100 new league games are needed
    league = step(350, 300)
    assert league["added"] is None and league["window_games"] == 50
    assert step(400, 321)["added"] == "main_v2"  # the 100 games since the change: 81 won
    assert step(600, 500)["added"] == "main_v3"
    assert algorithm.mappings[-1].opponents == [RANDOM, "main_v2", "main_v3"]  # oldest left the draw


def test_league_win_counting_on_episode_end():
    callback = LeagueCallback(0.8, 10, 4, 0.5, 0)
    logged = []
    logger = types.SimpleNamespace(
        log_value=lambda key, value, **kw: logged.append((key, value, kw["reduce"]))
    )

    def ended(modules, rewards):
        ep = types.SimpleNamespace(
            module_for=lambda agent: modules[agent],
            get_rewards=lambda: {a: [0.0, r] for a, r in rewards.items()},
        )
        callback.on_episode_end(episode=ep, metrics_logger=logger)

    # main (player_1) never had a move: its result is read from the opponent's reward
    ended({"player_0": RANDOM, "player_1": MAIN}, {"player_0": 1.0})
    assert logged == [(("league", "games"), 1, "lifetime_sum"), (("league", "wins"), 0.0, "lifetime_sum")]
    logged.clear()

    ended({"player_0": RANDOM, "player_1": MAIN}, {"player_0": -1.0, "player_1": 1.0})
    ended({"player_0": MAIN, "player_1": "main_v1"}, {"player_0": -1.0, "player_1": 1.0})
    ended({"player_0": MAIN, "player_1": MAIN}, {"player_0": 0.0, "player_1": 0.0})
    # a shaped draw sums to 0 up to rounding: not a win
    ended({"player_0": MAIN, "player_1": RANDOM}, {"player_0": 5.6e-17, "player_1": -5.6e-17})
    assert logged == [
        (("league", "games"), 1, "lifetime_sum"),
        (("league", "wins"), 1.0, "lifetime_sum"),
        (("league", "games"), 1, "lifetime_sum"),
        (("league", "wins"), 0.0, "lifetime_sum"),
        (("league", "self_play_games"), 1, "lifetime_sum"),
        (("league", "games"), 1, "lifetime_sum"),
        (("league", "wins"), 0.0, "lifetime_sum"),
    ]


def test_hoyito_lookahead_network_exports_with_its_rules(tmp_path):
    config = RLlibConfig(game_options={"holes_per_row": 6}, network="hoyito_lookahead", hidden_sizes=[16])
    spec = config.network_spec()
    assert spec["rules"] == {
        "holes_per_row": 6,
        "seeds_per_hole": 4,
        "max_laps": 1000,
        "no_capture_limit": 600,
    }
    module = MaskedPolicyModule(
        observation_space=OBS_SPACE,
        action_space=gym.spaces.Discrete(N_ACTIONS),
        model_config={"network": spec},
    )
    path = export_module(module, config, tmp_path / "ck.pt", global_step=1, update=1)
    policy = load_policy(path, greedy=True)
    assert policy.checkpoint["network"] == spec
    batch, mask = random_batch(4, seed=5)
    expected = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].argmax(-1).numpy()
    obs = batch[Columns.OBS]["observation"].numpy()
    assert [policy(obs[i], mask[i]) for i in range(4)] == expected.tolist()


def test_hoyito_lookahead_is_refused_for_hive():
    with pytest.raises(ValueError, match="config key 'network'"):
        RLlibConfig(game="hive", network="hoyito_lookahead")
