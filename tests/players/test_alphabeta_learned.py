"""``alphabeta:...,eval=learned:PATH``: the alpha-beta player with a learned evaluation's file, in every
tool that takes player specs, and bad files refused with a ValueError naming the spec (bad ``eval=``
values: `tests/players/test_alphabeta_player.py`, with the other bad specs)."""

from __future__ import annotations

import pytest
import torch

from hive_envs.agents.eval_checkpoint import save_eval_checkpoint
from hive_envs.core.learned_eval import learned_network
from hive_envs.hive import HiveAlphaBeta, HiveGame
from hive_envs.hive.search.eval_features import HIVE_FEATURES, NUM_DENSE, NUM_FEATURES
from hive_envs.hoyito import HoyitoGame
from hive_envs.players import PlayerContext, make_player
from hive_envs.players.alphabeta import parse_settings
from hive_envs.training.eval_network import EvalNetwork
from hive_envs.web.trust import Caps, Offer, page_player
from tests.agents.eval_payload import eval_payload
from tests.players.positions import mid_game


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory):
    torch.manual_seed(3)
    network = EvalNetwork(HIVE_FEATURES, width=8, hidden=8)
    network.start_from_hand(0.4)
    with torch.no_grad():
        network.output.weight.normal_(0, 1.0)
    path = tmp_path_factory.mktemp("eval") / "eval.pt"
    save_eval_checkpoint(path, eval_payload(network))
    return path, learned_network(network.export(), NUM_FEATURES, NUM_DENSE)


def test_the_spec_plays_the_searcher_s_move_with_the_file_s_network(evaluation):
    path, network = evaluation
    player = make_player(f"alphabeta:2,eval=learned:{path}", PlayerContext(game="hive", seed=4))
    assert player.name == f"alphabeta:2,eval=learned:{path}"
    differs = 0
    for seed in range(4):
        game = mid_game(HiveGame(), 12, seed)
        searched = HiveAlphaBeta(depth=2, seed=4, network=network).search(game)
        assert player.choose(game) == searched.move_id
        differs += searched.move_id != HiveAlphaBeta(depth=2, seed=4).choose(game)
    assert differs  # the file's network, not the hand evaluation, chose


def test_eval_hand_is_the_hand_evaluation():
    assert parse_settings("3,eval=hand") == (3, None, None, False)
    game = mid_game(HiveGame(), 10, 1)
    assert make_player("alphabeta:2,eval=hand", PlayerContext(seed=2)).choose(game) == HiveAlphaBeta(
        depth=2, seed=2
    ).choose(game)


def test_a_file_that_is_no_learned_evaluation_is_refused_when_the_game_is_known(tmp_path):
    path = tmp_path / "notes.pt"
    path.write_text("not a network")
    with pytest.raises(ValueError, match="alphabeta:2,eval=learned:.*corrupt"):
        make_player(f"alphabeta:2,eval=learned:{path}", PlayerContext(game="hive"))


def test_another_game_s_learned_evaluation_is_refused(evaluation):
    path, _ = evaluation  # Hive's
    with pytest.raises(ValueError, match="is for 'hive', not hoyito"):
        make_player(f"alphabeta:4,eval=learned:{path}", PlayerContext(game="hoyito"))
    player = make_player(f"alphabeta:4,eval=learned:{path}")  # no game given: refused at the first move
    with pytest.raises(ValueError, match="is for 'hive', not hoyito"):
        player.choose(HoyitoGame())


def test_the_web_page_takes_no_file_from_a_request(evaluation):
    path, _ = evaluation
    with pytest.raises(ValueError, match="not taken here"):
        page_player(f"alphabeta:2,eval=learned:{path}", Offer(), Caps())


def test_a_learned_evaluation_plays_only_the_variant_it_was_trained_on(evaluation):
    path, _ = evaluation  # trained on Base: no Mosquito, Ladybug or Pillbug features were ever seen
    player = make_player(f"alphabeta:1,eval=learned:{path}", PlayerContext(game="hive"))
    with pytest.raises(ValueError, match="trained on Hive Base; this game is Hive Base\\+MLP"):
        player.choose(HiveGame("Base+MLP"))
    assert player.choose(HiveGame("Base")) in HiveGame("Base").legal_move_ids()


def test_other_hand_searches_other_variants_with_the_hand_evaluation(evaluation):
    path, network = evaluation
    player = make_player(f"alphabeta:2,eval=learned:{path},other=hand", PlayerContext(game="hive", seed=1))
    assert parse_settings(f"2,eval=learned:{path},other=hand").other_hand
    mlp = mid_game(HiveGame("Base+MLP"), 10, 2)
    assert player.choose(mlp) == HiveAlphaBeta(depth=2, seed=1).choose(mlp)
    differs = 0
    for seed in range(4):  # and Base, the variant it was trained on, with the file's network still
        base = mid_game(HiveGame("Base"), 12, seed)
        assert player.choose(base) == HiveAlphaBeta(depth=2, seed=1, network=network).search(base).move_id
        differs += player.choose(base) != HiveAlphaBeta(depth=2, seed=1).choose(base)
    assert differs


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("alphabeta:2,other=hand", "other=hand says what plays"),
        ("alphabeta:2,eval=hand,other=hand", "other=hand says what plays"),
        ("alphabeta:2,eval=pretrained:hive_eval,other=learned", "other= takes 'hand' only"),
        ("alphabeta:2,eval=pretrained:hive_eval,other=hand,other=hand", "one other= at most"),
    ],
)
def test_bad_other_values_are_refused(spec, reason):
    with pytest.raises(ValueError, match=reason):
        make_player(spec, PlayerContext(game="hive"))
