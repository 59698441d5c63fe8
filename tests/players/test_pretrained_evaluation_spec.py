"""``pretrained:hive_eval`` is the alpha-beta search with the shipped learned evaluation, to its model
card's depth (``@T=S``: for S seconds a move), and ``eval=pretrained:NAME`` names that file in any
``alphabeta:`` spec; both go wherever a player spec goes. ``@N`` (a policy agent's simulations) and
an ``eval=pretrained:`` of a policy agent are refused with the way to what was meant."""

from __future__ import annotations

import io

import gymnasium as gym
import pytest

from hive_envs.evaluation import arena
from hive_envs.evaluation.arena import Settings
from hive_envs.hive import HiveGame
from hive_envs.hive.uhp import main as uhp_main
from hive_envs.players import AlphaBetaPlayer, PlayerContext, make_player, parse_spec
from hive_envs.pretrained import model_card, pretrained_path
from tests.players.positions import mid_game


def test_the_spec_is_the_alpha_beta_with_the_shipped_file_at_the_cards_depth():
    spec = parse_spec("pretrained:hive_eval")
    assert spec.kind == "pretrained" and spec.checkpoint is None  # no policy checkpoint to load
    player = make_player(spec, PlayerContext(game="hive", seed=1))
    assert isinstance(player, AlphaBetaPlayer) and player.name == "pretrained:hive_eval"
    assert (player.depth, player.time_s) == (model_card("hive_eval")["default_depth"], None)
    assert player.evaluation == str(pretrained_path("hive_eval"))
    timed = make_player("pretrained:hive_eval@T=0.25")
    assert (timed.depth, timed.time_s, timed.name) == (None, 0.25, "pretrained:hive_eval@T=0.25")
    assert timed.evaluation == str(pretrained_path("hive_eval"))


def test_it_plays_the_moves_of_the_learned_spec_of_its_file():
    """Move for move (and score for score) the search of ``alphabeta:3,eval=learned:<the shipped file>``
    and of ``alphabeta:3,eval=pretrained:hive_eval``; not the hand evaluation's scores."""
    context = PlayerContext(game="hive", seed=2)
    shipped = make_player("pretrained:hive_eval", context)
    by_path = make_player(f"alphabeta:3,eval=learned:{pretrained_path('hive_eval')}", context)
    by_name = make_player("alphabeta:3,eval=pretrained:hive_eval", context)
    hand = make_player("alphabeta:3", context)
    scores_differ = 0
    for seed in range(4):
        game = mid_game(HiveGame(), 14, seed)
        moves = {player.choose(game) for player in (shipped, by_path, by_name)}
        assert len(moves) == 1
        assert shipped.last_search.score == by_path.last_search.score == by_name.last_search.score
        hand.choose(game)
        scores_differ += shipped.last_search.score != hand.last_search.score
    assert scores_differ  # the network scored the leaves


def test_it_plays_legal_moves_in_the_arena_in_both_seats():
    result, records = arena.play_match(
        "pretrained:hive_eval", "random", 2, Settings(game="hive", max_turns=40, seed=3)
    )
    assert sum(result.forfeits) == 0 and len(records) == 2
    assert {record.seat_of_a for record in records} == {0, 1}
    assert all(record.reason == "" and not record.forfeit and record.move_seconds_a for record in records)


def test_the_gym_env_and_the_uhp_engine_take_it():
    env = gym.make("hive_envs/Hive-v0", opponent="pretrained:hive_eval@T=0.05", learner_seat=1)
    env.reset(seed=0)
    assert env.unwrapped.aec.game.ply == 1  # the opponent opened
    assert env.unwrapped._opponent._player.name == "pretrained:hive_eval@T=0.05"
    env.close()
    out = io.StringIO()
    assert uhp_main(["--player", "pretrained:hive_eval"], io.StringIO("newgame\nbestmove\n"), out) == 0
    lines = out.getvalue().splitlines()
    assert lines[-2].startswith("w") and lines[-1] == "ok", lines


@pytest.mark.parametrize("suffix", ["@4", "@0"])
def test_simulations_are_refused_with_the_way_to_a_depth(suffix):
    with pytest.raises(ValueError, match=f"'pretrained:hive_eval{suffix}': 'hive_eval' is a learned evaluation.*"
                       r"@N is the simulations of a policy agent.*alphabeta:N,eval=pretrained:hive_eval"):  # fmt: skip
        parse_spec(f"pretrained:hive_eval{suffix}")


@pytest.mark.parametrize(
    "spec, message",
    [
        ("alphabeta:2,eval=pretrained:hive_base", "'hive_base' is a policy agent, not a learned evaluation"),
        ("alphabeta:2,eval=pretrained:nope", "unknown pretrained agent 'nope'"),
        ("alphabeta:2,eval=pretrained:", "eval= takes 'hand'.*'pretrained:NAME' .*hive_eval"),
        ("pretrained:hive_eval@T=0", "seconds per move after '@T='"),
    ],
)
def test_eval_pretrained_takes_a_shipped_evaluation_only(spec, message):
    with pytest.raises(ValueError, match=message):
        make_player(spec, PlayerContext(game="hive"))


def test_it_is_refused_for_another_game():
    with pytest.raises(ValueError, match="pretrained agent 'hive_eval': .*is for 'hive', not hoyito"):
        make_player("pretrained:hive_eval", PlayerContext(game="hoyito"))
