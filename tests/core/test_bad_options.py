"""Bad options, option names, learner seats and reset options: ValueError naming them, state unchanged.

Every surface that takes them is tried: the options objects, the games, the AEC envs (`raw_env`,
`env()`), `gym.make`, `gym.make_vec`, the batches and training's `make_batch`. The bounds themselves
are measured: at the Hoyito bounds the float32 observation still decodes to the exact counts, past
them it does not, and random games never exceed the ply bound the options promise.
"""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

import hive_envs  # noqa: F401  (registers the env ids)
from benchmarks.aec_batch import AEC_LOOP_HIVE
from hive_envs import hive_v0, hoyito_v0
from hive_envs.games import new_game
from hive_envs.hive import HiveBatch, HiveGame, HiveOptions
from hive_envs.hive import env as hive_env
from hive_envs.hoyito import HoyitoBatch, HoyitoGame
from hive_envs.hoyito.encoding import decode_observation
from hive_envs.hoyito.engine import kernels as K
from hive_envs.hoyito.engine.options import INT32_MAX, MAX_COUNTERS, MAX_NO_CAPTURE_LIMIT, HoyitoOptions
from hive_envs.hoyito.env import raw_env as hoyito_raw_env
from hive_envs.training.game_lookup import make_batch

HIVE_MAKERS = {
    "HiveOptions": HiveOptions,
    "HiveGame": lambda **kw: HiveGame.from_options(HiveOptions(**kw)),
    "raw_env": hive_env.raw_env,
    "env()": hive_v0.env,
    "gym.make": lambda **kw: gym.make("hive_envs/Hive-v0", **kw),
    "make_vec": lambda **kw: gym.make_vec("hive_envs/Hive-v0", num_envs=1, **kw),
    "HiveBatch": lambda **kw: HiveBatch(1, **kw),
    "make_batch": lambda **kw: make_batch("hive", 1, kw),
}
HOYITO_MAKERS = {
    "HoyitoOptions": HoyitoOptions,
    "HoyitoGame": HoyitoGame,
    "raw_env": hoyito_raw_env,
    "env()": hoyito_v0.env,
    "gym.make": lambda **kw: gym.make("hive_envs/Hoyito-v0", **kw),
    "make_vec": lambda **kw: gym.make_vec("hive_envs/Hoyito-v0", num_envs=1, **kw),
    "HoyitoBatch": lambda **kw: HoyitoBatch(1, **kw),
    "make_batch": lambda **kw: make_batch("hoyito", 1, kw),
}


@pytest.mark.parametrize("maker", HIVE_MAKERS)
@pytest.mark.parametrize(
    "options, named",
    [
        ({"expansions": "X"}, "expansions"),
        ({"expansions": "LM"}, "expansions"),
        ({"tournament_opening": 1}, "tournament_opening"),
        ({"max_turns": 0}, "max_turns"),
        ({"repetition_draw": "no"}, "repetition_draw"),
        ({"repetition_draw": None}, "repetition_draw"),
        ({"repetition_draw": 2}, "repetition_draw"),
        ({"max_turns": 2**31}, "max_turns"),
        ({"max_turns": 2**63}, "max_turns"),
        ({"max_turns": np.uint64(2**64 - 1)}, "max_turns"),
    ],
)
def test_bad_hive_options_are_refused_naming_the_option(maker, options, named):
    with pytest.raises(ValueError, match=named):
        HIVE_MAKERS[maker](**options)


def test_the_largest_hive_ply_cap_works():
    game = HiveGame("Base", max_turns=2**31 - 1)
    game.play_id(int(game.legal_move_ids()[0]))
    assert game.max_turns == 2**31 - 1 and not game.is_terminal


@pytest.mark.parametrize("maker", HOYITO_MAKERS)
@pytest.mark.parametrize(
    "options, named",
    [
        ({"holes_per_row": 0}, "holes_per_row"),
        ({"seeds_per_hole": 2**30}, "seeds_per_hole"),  # 12 * 2**30 counters overflowed the int32 state
        ({"seeds_per_hole": 2**20}, "counters"),  # 12 * 2**20 > 2**23: no longer exact in float32
        ({"holes_per_row": 2**22 + 1}, "holes_per_row"),
        ({"no_capture_limit": MAX_NO_CAPTURE_LIMIT + 1}, "no_capture_limit"),
        ({"max_laps": 2**31}, "max_laps"),
        ({"holes_per_row": 100_000}, "no_capture_limit"),  # its default limit: games past the ply counter
        ({"holes_per_row": 1000, "seeds_per_hole": 100}, "no_capture_limit"),
    ],
)
def test_bad_hoyito_options_are_refused_naming_the_option(maker, options, named):
    with pytest.raises(ValueError, match=named):
        HOYITO_MAKERS[maker](**options)


# Options given as a dict or through **options (configs, checkpoints, gym.make, pettingzoo.make):
# an unknown name is a ValueError naming it, not a TypeError from a constructor deep inside. (A direct
# call of a class with a fixed signature, such as raw_env(expanions=...), gets Python's own TypeError.)
DICT_SURFACES = ["env()", "gym.make", "make_vec", "make_batch"]


@pytest.mark.parametrize("maker", DICT_SURFACES)
def test_misspelt_option_names_are_refused_naming_them(maker):
    with pytest.raises(ValueError, match="no option 'expanions'.*expansions"):
        HIVE_MAKERS[maker](expanions="M")
    with pytest.raises(ValueError, match="no option 'holes'.*holes_per_row"):
        HOYITO_MAKERS[maker](holes=12)


HIVE_ENV_MAKERS = [m for m in HIVE_MAKERS if m not in ("HiveOptions", "HiveGame")]  # take `observation`


@pytest.mark.parametrize("maker", HIVE_ENV_MAKERS)
@pytest.mark.parametrize("bad", ["Pieces", "board", None, 1])
def test_a_bad_hive_observation_is_refused_naming_the_option_and_its_values(maker, bad):
    with pytest.raises(ValueError, match=r"observation must be one of 'planes', 'pieces', got"):
        HIVE_MAKERS[maker](observation=bad)


@pytest.mark.parametrize("maker", DICT_SURFACES)
def test_a_misspelt_observation_option_is_refused_naming_it(maker):
    with pytest.raises(ValueError, match="no option 'observations'.*observation"):
        HIVE_MAKERS[maker](observations="pieces")


def test_options_dicts_name_an_unknown_key_everywhere():
    for make in (
        lambda: new_game("hoyito", {"holes": 3}),
        lambda: make_batch("hoyito", 2, {"holes": 3}),
        lambda: HoyitoGame.from_position([4] * 12, (0, 0), 0, holes=6),
    ):
        with pytest.raises(ValueError, match="no option 'holes'"):
            make()


def test_hoyito_bounds_keep_the_observation_exact_and_are_tight():
    """At 2**23 counters and a stall limit of 2**23 every entry decodes back exactly; at 2**25 counters
    (past the bound) a hole count or captured total no longer does."""

    def round_trip(holes, seeds, limit, board, captured, stall):
        n, m, total = holes, 2 * holes, 2 * holes * seeds
        s = np.zeros(K.state_size(n), np.int32)
        s[:m], s[m + K.CAPTURED : m + K.CAPTURED + 2], s[m + K.STALL] = board, captured, stall
        obs = np.empty(2 * n + 4, np.float32)
        K.encode(s, 0, n, limit, total, obs)
        out = np.zeros_like(s)
        decode_observation(obs, n, seeds, limit, out)
        return bool(np.array_equal(out[: m + 2], s[: m + 2]) and out[m + K.STALL] == stall)

    seeds = MAX_COUNTERS // 4  # 2 holes per row: 4 holes, 2**23 counters in all
    assert HoyitoOptions(2, seeds, no_capture_limit=1000).total_counters == MAX_COUNTERS  # both bounds
    assert HoyitoOptions(2, 1, no_capture_limit=MAX_NO_CAPTURE_LIMIT).no_capture_limit == 2**23  # are allowed
    rng = np.random.default_rng(0)
    for _ in range(200):
        cuts = np.sort(rng.integers(0, MAX_COUNTERS + 1, 5))
        parts = np.diff(np.concatenate([[0], cuts, [MAX_COUNTERS]]))
        stall = int(rng.integers(0, MAX_NO_CAPTURE_LIMIT))
        assert round_trip(2, seeds, MAX_NO_CAPTURE_LIMIT, parts[:4], parts[4:], stall)
    past = 4 * MAX_COUNTERS
    assert not round_trip(2, past // 4, 600, [past - 2**24 - 3, 2**24 + 1, 1, 1], [0, 0], 0)


def test_hoyito_games_never_exceed_the_ply_bound_the_options_check():
    """(counters // 4 + 1) * no_capture_limit bounds every game (random games on small boards)."""
    rng = np.random.default_rng(1)
    for holes, seeds, limit in [(2, 2, 3), (3, 4, 5), (2, 6, 2), (4, 1, 7)]:
        bound = (2 * holes * seeds // 4 + 1) * limit
        longest = 0
        for _ in range(300):
            game = HoyitoGame(holes, seeds, no_capture_limit=limit)
            while not game.is_terminal:
                moves = game.legal_move_ids().tolist()
                game.play_id(moves[int(rng.integers(len(moves)))])
            longest = max(longest, game.ply)
        assert longest <= bound


@pytest.mark.parametrize("seat", [1.0, True, False, np.float64(0), None, "0", 2, -1, np.bool_(True)])
@pytest.mark.parametrize(
    "make",
    [
        lambda seat: gym.make("hive_envs/Hoyito-v0", learner_seat=seat),
        lambda seat: gym.make_vec("hive_envs/Hoyito-v0", num_envs=2, learner_seat=seat),
        lambda seat: gym.make("hive_envs/Hive-v0", learner_seat=seat),
    ],
)
def test_bad_learner_seats_are_refused(make, seat):
    with pytest.raises(ValueError, match="learner_seat"):
        make(seat)


@pytest.mark.parametrize("seat", [0, 1, np.int64(1), np.int8(0), "random"])
def test_learner_seats_as_numpy_integers_work(seat):
    env = gym.make("hive_envs/Hoyito-v0", learner_seat=seat)
    env.reset(seed=0)
    assert env.unwrapped.learner_seat in (0, 1)


MID_GAME = "Base;InProgress;White[2];wS1;bS1 wS1-"


def hive_views(env):
    raw = env.unwrapped
    aec = getattr(raw, "aec", raw)
    return aec.game.gamestring, aec._mask.copy()


@pytest.mark.parametrize("key", ["gamestrng", "GameString", "game_string", "gamestrings"])
@pytest.mark.parametrize(
    "make", [hive_env.raw_env, hive_v0.env, lambda: gym.make("hive_envs/Hive-v0")], ids=["raw", "env", "gym"]
)
def test_misspelt_reset_option_keys_are_refused_state_unchanged(make, key):
    env = make()
    env.reset(seed=0, options={"gamestring": MID_GAME})
    before = hive_views(env)
    with pytest.raises(ValueError, match=f"{key}.*did you mean 'gamestring'"):
        env.reset(seed=1, options={key: "Base"})
    gamestring, mask = hive_views(env)
    assert gamestring == before[0] and np.array_equal(mask, before[1])
    if hasattr(env.unwrapped, "aec"):  # the Gym env's episode goes on
        env.step(int(np.flatnonzero(mask)[0]))


def test_the_gym_hive_env_takes_the_gamestring_reset_option():
    env = gym.make("hive_envs/Hive-v0", learner_seat=0, opponent="random")
    env.reset(seed=0, options={"gamestring": MID_GAME})
    assert env.unwrapped.game.gamestring.startswith(MID_GAME)


@pytest.mark.parametrize(
    "make",
    [
        hive_env.raw_env,
        hoyito_raw_env,
        lambda: gym.make("hive_envs/Hoyito-v0"),
        lambda: gym.make_vec("hive_envs/Hoyito-v0", num_envs=2),
    ],
)
@pytest.mark.parametrize("options", [["gamestring"], "gamestring", 3])
def test_reset_options_that_are_no_dict_are_refused(make, options):
    env = make()
    with pytest.raises(ValueError, match="reset options must be a dict"):
        env.reset(seed=0, options=options)


@pytest.mark.parametrize(
    "make",
    [
        hoyito_raw_env,
        lambda: gym.make("hive_envs/Hoyito-v0"),
        lambda: gym.make_vec("hive_envs/Hoyito-v0", num_envs=2),
    ],
)
def test_envs_without_reset_options_warn_about_any_key(make):
    """Not an error: PettingZoo's api_test resets every env with options={"options": 1}."""
    env = make()
    with pytest.warns(UserWarning, match="reset options \\['gamestring'\\] are not used"):
        env.reset(seed=0, options={"gamestring": "Base"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=0, options={})


def test_vector_env_refuses_step_before_reset():
    for env_id in ("hive_envs/Hoyito-v0", "hive_envs/Hive-v0"):
        vec = gym.make_vec(env_id, num_envs=3)
        before = vec.unwrapped.batch.states.copy()
        with pytest.raises(ValueError, match="before reset"):
            vec.step(np.zeros(3, np.int64))
        assert np.array_equal(vec.unwrapped.batch.states, before)
        vec.reset(seed=0)
        vec.step(np.flatnonzero(vec.unwrapped.action_masks()[0])[:1].repeat(3))


def test_int32_max_is_the_state_bound():
    assert INT32_MAX == np.iinfo(np.int32).max


def test_make_batch_leaves_the_option_names_of_a_keyword_taking_batch_class_to_that_class():
    """A batch whose constructor takes ``**options`` (the benchmarks' AEC-loop batch, which the PPO rows
    of `python -m benchmarks` train on) gets the options as given, to check itself."""
    batch = AEC_LOOP_HIVE.make_batch(2, {"expansions": "M", "max_turns": 50})
    assert batch.num_games == 2 and batch.envs[0].game.game_type == "Base+M"
