"""The ``alphabeta:D`` / ``alphabeta:T=S`` player: one spec for both games, in every tool.

Each tool is checked to play the searcher's own move (the same seed and limits give the same move),
so a tool that silently fell back to another player would fail.
"""

from __future__ import annotations

import io
import json
import math
import time

import gymnasium as gym
import numpy as np
import pytest

import hive_envs  # noqa: F401  (registers the env ids)
from hive_envs import play
from hive_envs.evaluation import arena, evaluate
from hive_envs.hive import HiveAlphaBeta, HiveGame
from hive_envs.hive.uhp import main as uhp_main
from hive_envs.hoyito import HoyitoAlphaBeta, HoyitoGame
from hive_envs.players import AlphaBetaPlayer, PlayerContext, SearchLimits, make_player
from tests.play.helpers import tiny_hoyito_checkpoint
from tests.players.positions import mid_game


@pytest.mark.parametrize(
    "spec, message",
    [
        ("alphabeta:0", "depth must be in 1..20"),
        ("alphabeta:x", "use alphabeta:DEPTH"),
        ("alphabeta:", "use alphabeta:DEPTH"),
        ("alphabeta:-2", "use alphabeta:DEPTH"),
        ("alphabeta:2.5", "use alphabeta:DEPTH"),
        ("alphabeta:²", "use alphabeta:DEPTH"),
        ("alphabeta:2,3", "use alphabeta:DEPTH"),
        ("alphabeta:T=-1", "time must be in"),
        ("alphabeta:T=0", "time must be in"),
        ("alphabeta:T=nan", "time must be in"),
        ("alphabeta:T=inf", "time must be in"),
        ("alphabeta:T=4000", "time must be in"),
        ("alphabeta:T=x", "use alphabeta:DEPTH"),
        ("alphabeta:21", "depth must be in 1..20 plies \\(caps: hive 12, hoyito 20\\)"),
        ("alphabeta:3,eval=learned:", "eval= takes 'hand'"),
        ("alphabeta:3,eval=nnue", "eval= takes 'hand'"),
        ("alphabeta:3,eval=hand,eval=hand", "one eval= at most"),
        ("alphabeta:3,eval=learned:/no/such/file.pt", "no learned evaluation file"),
        ("alphabeta:0,eval=hand", "depth must be in"),
    ],
)
def test_bad_specs_raise_value_error_naming_the_spec(spec, message):
    with pytest.raises(ValueError, match=message) as raised:
        make_player(spec)
    assert repr(spec) in str(raised.value)


def test_the_depth_cap_is_the_game_s_when_the_game_is_known():
    with pytest.raises(ValueError, match="'alphabeta:13'.*1..12 plies \\(the hive cap\\)"):
        make_player("alphabeta:13", PlayerContext(game="hive"))
    assert make_player("alphabeta:13", PlayerContext(game="hoyito")).choose(HoyitoGame()) in range(6)
    player = make_player("alphabeta:13")  # no game given: checked at the first Hive move
    with pytest.raises(ValueError, match="'alphabeta:13'.*depth must be in 1..12"):
        player.choose(HiveGame())


def test_one_spec_plays_both_games_with_the_searchers_moves():
    player = make_player("alphabeta:2", PlayerContext(seed=3))
    hive, hoyito = mid_game(HiveGame("Base+MLP"), 12), mid_game(HoyitoGame(), 6)
    before = (hive.record(), hoyito.record())
    assert player.choose(hive) == HiveAlphaBeta(depth=2, seed=3).choose(hive)
    assert player.choose(hoyito) == HoyitoAlphaBeta(depth=2, seed=3).choose(hoyito)
    assert (hive.record(), hoyito.record()) == before
    timed = make_player("alphabeta:T=0.05,4")
    assert (timed.depth, timed.time_s, timed.name) == (4, 0.05, "alphabeta:T=0.05,4")


def test_caller_limits_replace_the_player_s_own():
    game = mid_game(HiveGame(), 14, seed=2)
    player = AlphaBetaPlayer(depth=3, seed=1)
    assert player.choose(game, SearchLimits(depth=1)) == HiveAlphaBeta(depth=1, seed=1).choose(game)
    assert player.choose(game, SearchLimits(depth=0)) == HiveAlphaBeta(depth=1, seed=1).choose(game)
    assert player.choose(game) == HiveAlphaBeta(depth=3, seed=1).choose(game)
    started = time.process_time()  # CPU time: a loaded machine stretches wall time, not this
    player.choose(game, SearchLimits(time_s=0.1))
    assert time.process_time() - started < 0.1 + 0.3
    with pytest.raises(ValueError, match="depth"):
        player.choose(game, SearchLimits(depth=13))


def test_uhp_options_set_the_limits_and_the_table():
    player = AlphaBetaPlayer(seed=0)
    rows = {row[0]: row for row in player.uhp_options()}
    assert rows["MaxDepth"][2:] == (3, 3, 1, 12) and rows["MaxTime"][2] == 0
    player.set_uhp_option("MaxDepth", 1)
    player.set_uhp_option("TableSizeMB", 1)
    game = mid_game(HiveGame(), 10)
    assert player.choose(game) == HiveAlphaBeta(depth=1, seed=0).choose(game)
    assert player.searcher("hive")._table[0].size == 2**15  # 18 bytes an entry: 2**15 fit in 1 MB
    player.set_uhp_option("MaxTime", 1)
    assert player.searcher("hive").time_s == 1.0
    with pytest.raises(ValueError, match="no alpha-beta search for game 'nim'"):
        player.searcher("nim")


@pytest.mark.parametrize("env_id", ["hive_envs/Hive-v0", "hive_envs/Hoyito-v0"])
def test_gym_env_opponent_plays_the_searcher_s_move(env_id):
    env = gym.make(env_id, opponent="alphabeta:2", learner_seat=1)
    env.reset(seed=0)
    game = env.unwrapped.aec.game  # the opponent (seat 0) has opened
    assert game.ply == 1
    start = HiveGame() if "Hive" in env_id else HoyitoGame()
    opponent = env.unwrapped._opponent._player
    expected = (HiveAlphaBeta if "Hive" in env_id else HoyitoAlphaBeta)(depth=2, seed=opponent._seed).choose(
        start
    )
    replay = start.copy()
    replay.play_id(expected)
    assert replay.record() == game.record()
    for _ in range(4):
        mask = env.unwrapped.action_masks()
        _, _, terminated, _, _ = env.step(int(np.flatnonzero(mask)[0]))
        if terminated:
            break
    env.close()


@pytest.mark.parametrize("env_id", ["hive_envs/Hive-v0", "hive_envs/Hoyito-v0"])
def test_vector_env_opponent(env_id):
    vec = gym.make_vec(env_id, num_envs=2, opponent="alphabeta:1", learner_seat=1)
    vec.reset(seed=0)
    for _ in range(3):
        masks = vec.unwrapped.action_masks() if hasattr(vec.unwrapped, "action_masks") else vec.action_masks()
        vec.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    vec.close()


@pytest.mark.parametrize("env_id", ["hive_envs/Hive-v0", "hive_envs/Hoyito-v0"])
def test_bad_specs_are_refused_by_the_envs(env_id):
    with pytest.raises(ValueError, match="alphabeta:0"):
        gym.make(env_id, opponent="alphabeta:0")
    with pytest.raises(ValueError, match="alphabeta:T=nan"):
        gym.make_vec(env_id, num_envs=2, opponent="alphabeta:T=nan")


@pytest.mark.parametrize("game", ["hive", "hoyito"])
def test_the_arena_plays_it(game):
    settings = arena.Settings(game=game, opening_plies=2, max_turns=300)
    result, records = arena.play_match("alphabeta:1", "random", 2, settings)
    assert result.decided == 2 and result.forfeits == [0, 0]
    assert all(r.reason == "" for r in records)


def test_evaluate_plays_it_against_a_checkpoint(tmp_path):
    path = tiny_hoyito_checkpoint(tmp_path / "run" / "checkpoints" / "step_1.pt")
    report = evaluate.evaluate([str(path)], ["alphabeta:2"], games=4, out=str(tmp_path / "e.json"))
    match = json.loads((tmp_path / "e.json").read_text())["matches"][0]
    assert match["opponent"] == "alphabeta:2" and match["games"] == 4 == report["matches"][0]["games"]
    assert evaluate.main([str(path), "--opponents", "alphabeta:x", "--games", "2"]) == 2


def test_the_play_cli_plays_it():
    out = io.StringIO()
    code = play.main(
        ["hive", "--opponent", "alphabeta:2", "--seat", "1", "--seed", "4"], io.StringIO("quit\n"), out
    )
    assert code == 0
    expected = HiveGame().move_name(HiveAlphaBeta(depth=2, seed=4).choose(HiveGame()))
    assert f"White (computer) plays {expected}" in out.getvalue()
    err = io.StringIO()
    assert play.main(["hoyito", "--opponent", "alphabeta:0"], io.StringIO(""), err) == 2


def test_the_uhp_engine_answers_with_it():
    out = io.StringIO()
    assert uhp_main(["--player", "alphabeta:2", "--seed", "5"], io.StringIO("newgame\nbestmove\n"), out) == 0
    expected = HiveGame().move_name(HiveAlphaBeta(depth=2, seed=5).choose(HiveGame()))
    assert out.getvalue().split("\n")[5] == expected
    with pytest.raises(SystemExit):
        uhp_main(["--player", "alphabeta:T=-1"], io.StringIO(""), io.StringIO())


def test_time_spec_respects_its_limit_on_a_busy_position():
    game = mid_game(HiveGame("Base+MLP"), 30, seed=1)
    player = make_player("alphabeta:T=0.2")
    player.choose(HiveGame())  # compile / load outside the clock
    started = time.process_time()  # CPU time: a loaded machine stretches wall time, not this
    move = player.choose(game)
    assert time.process_time() - started < 0.2 + 0.3 and move in game.legal_move_ids()
    assert not math.isnan(player.time_s)


def test_every_listed_table_size_can_be_set_back():
    player = AlphaBetaPlayer(seed=0)
    for bits in range(15, 27):
        player.set_uhp_option("TableSizeMB", player.table_megabytes(bits))
        assert player.table_bits == bits
    default = {row[0]: row for row in AlphaBetaPlayer(seed=0).uhp_options()}["TableSizeMB"][3]
    player.set_uhp_option("TableSizeMB", default)
    assert player.table_bits == AlphaBetaPlayer(seed=0).table_bits


def test_a_callers_depth_keeps_the_players_time_limit():
    import time

    from hive_envs.hive import HiveGame
    from hive_envs.players import SearchLimits

    game = HiveGame.from_gamestring("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-")
    player = AlphaBetaPlayer(time_s=0.3)
    player.choose(game, SearchLimits(depth=1))  # load the compiled search first
    started = time.perf_counter()
    move = player.choose(game, SearchLimits(depth=12))  # hours untimed: the player's 0.3 s stops it
    assert time.perf_counter() - started < 0.3 + 0.5
    assert move in game.legal_move_ids().tolist()
