"""Built-in players on Hive (what the UHP ``bestmove`` answers by default): random, and the 1-ply greedy
one with its scores (`HiveGame.greedy_move_scores`) against a slow reference."""

import pytest

from hive_envs.hive import HiveGame
from hive_envs.hive.engine.heuristics import WIN_SCORE
from hive_envs.players import GreedyPlayer, RandomPlayer

BEFORE_WIN = (
    r"Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;wG1 /wQ;bG1 bQ/;"
    r"wG2 \wQ;bG2 bQ\;wS2 /wG1;bS2 /bQ"
)


def _random_position(game_type: str, plies: int, seed: int) -> HiveGame:
    game, player = HiveGame(game_type), RandomPlayer(seed)
    for _ in range(plies):
        if game.is_terminal:
            break
        game.play_id(player.choose(game))
    return game


def _reference_score(game: HiveGame, move: str) -> int:
    """Score of one move by playing it and counting Queen neighbours from ``stacks()``."""
    me = game.to_move
    after = game.copy()
    after.play(move)
    if after.outcome == "Draw":
        return 0
    if after.outcome is not None:
        return WIN_SCORE if after.outcome == ("WhiteWins", "BlackWins")[me] else -WIN_SCORE
    stacks = after.stacks()
    occupied = set(stacks)

    def around(colour):
        queen = "wQ" if colour == 0 else "bQ"
        cell = next((qr for qr, names in stacks.items() if queen in names), None)
        if cell is None:
            return 0
        q, r = cell
        return sum(
            (q + dq, r + dr) in occupied for dq, dr in ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
        )

    return around(1 - me) - around(me)


@pytest.mark.parametrize(
    "game_type,plies,seed", [("Base", 14, 0), ("Base+MLP", 25, 1), ("Base+P", 40, 2), ("Base+ML", 60, 3)]
)
def test_greedy_scores_match_a_slow_reference(game_type, plies, seed):
    game = _random_position(game_type, plies, seed)
    before = game.gamestring
    ids, scores = game.greedy_move_scores()
    assert game.gamestring == before
    assert list(ids) == list(game.legal_move_ids())
    for move_id, score in zip(ids, scores):
        assert score == _reference_score(game, game.move_name(int(move_id))), game.move_name(int(move_id))


def test_greedy_scores_a_winning_move_highest():
    game = HiveGame.from_gamestring(BEFORE_WIN)
    ids, scores = game.greedy_move_scores()
    winning = game.move_id(r"wA1 \bQ")
    assert scores.max() == WIN_SCORE and scores[list(ids).index(winning)] == WIN_SCORE


def test_greedy_player_takes_the_immediate_win():
    game = HiveGame.from_gamestring(BEFORE_WIN)
    for seed in range(5):
        move = GreedyPlayer(seed).choose(game)
        after = game.copy()
        after.play_id(move)
        assert after.outcome == "WhiteWins"


def test_greedy_scores_refuse_a_finished_game():
    game = HiveGame.from_gamestring(BEFORE_WIN)
    game.play(r"wA1 \bQ")
    with pytest.raises(ValueError, match="over"):
        game.greedy_move_scores()


def test_random_player_is_legal_and_reproducible():
    game = _random_position("Base+MLP", 30, 7)
    again = _random_position("Base+MLP", 30, 7)
    assert game.gamestring == again.gamestring
    move = RandomPlayer(3).choose(game)
    assert move in game.legal_move_ids()


def test_greedy_beats_random():
    """Ten games, colours alternating, fixed seeds (deterministic): measured 10 wins of 10."""
    wins = 0
    for seed in range(10):
        game = HiveGame("Base")
        greedy_colour = seed % 2
        players = {greedy_colour: GreedyPlayer(seed), 1 - greedy_colour: RandomPlayer(seed)}
        while not game.is_terminal:
            game.play_id(players[game.to_move].choose(game))
        wins += game.outcome == ("WhiteWins", "BlackWins")[greedy_colour]
    assert wins >= 9
