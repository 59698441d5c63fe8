"""Player specs: one resolver, and a kind registered once plays in every tool.

The registered kind below (`first:N`, the N-th legal move) knows only ``choose(game)``; it is used
unchanged by evaluate.py's batched matches, the arena, a Gym env and a vector env's ``opponent=``,
the UHP engine and the terminal front end.
"""

from __future__ import annotations

import io
import json
import os

import gymnasium as gym
import numpy as np
import pytest

import hive_envs  # noqa: F401  (registers the env ids)
from hive_envs import play
from hive_envs.evaluation import arena
from hive_envs.evaluation.match import halves, play_games_batched, summarise
from hive_envs.hive import HiveGame
from hive_envs.hive.uhp import main as uhp_main
from hive_envs.hoyito import HoyitoGame
from hive_envs.players import (
    BasePlayer,
    GreedyPlayer,
    PlayerContext,
    RandomPlayer,
    checkpoint_path,
    make_player,
    parse_spec,
    register_player_kind,
    split_checkpoint_spec,
)
from hive_envs.players import specs as player_specs
from hive_envs.pretrained import pretrained_path
from tests.play.helpers import tiny_hoyito_checkpoint


class NthLegal(BasePlayer):
    """Plays the n-th legal move (the last one if there are fewer); records the games it saw."""

    def __init__(self, n: int, name: str):
        super().__init__(name)
        self.n, self.seen = n, []

    def choose(self, game, limits=None) -> int:
        self.seen.append(game.game_name)
        ids = game.legal_move_ids()
        return int(ids[min(self.n, len(ids) - 1)])


@pytest.fixture
def first_kind(monkeypatch):
    """Register ``first:N`` for one test; returns the list of players built."""
    monkeypatch.setattr(player_specs, "_KINDS", dict(player_specs._KINDS))
    built = []

    def build(argument: str, context: PlayerContext):
        built.append(NthLegal(int(argument), f"first:{argument}"))
        return built[-1]

    register_player_kind("first", build, syntax="first:N", help="the N-th legal move")
    return built


def test_builtin_specs_and_player_objects():
    assert isinstance(make_player("random"), RandomPlayer) and isinstance(
        make_player(" greedy "), GreedyPlayer
    )
    player = NthLegal(0, "mine")
    assert make_player(player) is player
    assert (
        "random | greedy | alphabeta:D | alphabeta:T=S | uhp:COMMAND | pretrained:NAME[@N | @T=S] | PATH[@N | @T=S]"
        in player_specs.describe_specs()
    )


@pytest.mark.parametrize("spec", ["", "  ", None, 3, "random:3", "greedy:x", "nothing.pt", "x.pt@5"])
def test_bad_specs_are_refused_naming_the_forms(spec):
    with pytest.raises(ValueError, match="random"):
        make_player(spec)


def test_checkpoint_specs_split_and_are_checked_against_the_game(tmp_path):
    assert split_checkpoint_spec("a/b.pt@16") == ("a/b.pt", 16) and split_checkpoint_spec("b.pt") == (
        "b.pt",
        0,
    )
    with pytest.raises(ValueError, match="simulations"):
        split_checkpoint_spec("a.pt@many")
    assert checkpoint_path("runs/x.pt@4") == "runs/x.pt" and checkpoint_path("greedy") is None
    assert checkpoint_path("uhp:nokamute") is None
    path = tiny_hoyito_checkpoint(tmp_path / "h.pt")
    player = make_player(f"{path}@3", PlayerContext(game="hoyito", seed=0))
    assert player.name == f"{path}@3" and player.config.simulations == 3
    assert player.choose(HoyitoGame()) in range(6)
    with pytest.raises(ValueError, match="hoyito agent; this match is hive"):
        make_player(str(path), PlayerContext(game="hive"))
    with pytest.raises(ValueError, match="UHP engines play Hive"):
        make_player("uhp:nokamute uhp", PlayerContext(game="hoyito"))
    with pytest.raises(ValueError, match="needs a command"):
        make_player("uhp:")


def test_registration_refuses_bad_names_and_duplicates(first_kind):
    for name in ("", "a b", "x:y"):
        with pytest.raises(ValueError, match="plain word"):
            register_player_kind(name, lambda a, c: None)
    with pytest.raises(ValueError, match="already registered"):
        register_player_kind("first", lambda a, c: None)
    assert make_player("first:2").name == "first:2"
    assert "first:N" in player_specs.describe_specs()


@pytest.mark.parametrize("game", ["hive", "hoyito"])
def test_a_registered_kind_plays_batched_matches_through_row_games(first_kind, game):
    first, random = make_player("first:0"), make_player("random")
    result = summarise("first:0", "random", play_games_batched(first, random, halves([], 4), game, {}, 0))
    assert result.games == 4 and result.wins + result.draws + result.losses == 4
    assert set(first_kind[0].seen) == {game}


def test_a_registered_kind_plays_in_the_arena(first_kind):
    settings = arena.Settings(game="hive", opening_plies=1, max_turns=20)
    result, records = arena.play_match("first:1", "greedy", 2, settings)
    assert result.games == 2 and all(r.reason == "" for r in records)
    for r in records:
        assert HiveGame.from_gamestring(r.record, max_turns=20).is_terminal


@pytest.mark.parametrize("env_id", ["hive_envs/Hive-v0", "hive_envs/Hoyito-v0"])
def test_a_registered_kind_is_a_gym_and_a_vector_env_opponent(first_kind, env_id):
    env = (
        gym.make(env_id, opponent="first:0", learner_seat=1, max_turns=30)
        if "Hive" in env_id
        else gym.make(env_id, opponent="first:0", learner_seat=1)
    )
    env.reset(seed=0)
    assert first_kind[-1].seen  # the opponent opened
    vec = gym.make_vec(env_id, num_envs=3, opponent="first:1", learner_seat=1)
    vec.reset(seed=0)
    for _ in range(5):
        masks = vec.unwrapped.action_masks() if hasattr(vec.unwrapped, "action_masks") else vec.action_masks()
        vec.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    assert len(first_kind[-1].seen) >= 5  # each step, the opponents of three games moved (mostly)


def test_a_registered_kind_answers_uhp_bestmove_and_plays_in_the_terminal(first_kind):
    out = io.StringIO()
    assert uhp_main(["--player", "first:0"], io.StringIO("newgame\nbestmove\n"), out) == 0
    assert out.getvalue().split("\n")[5] == HiveGame().legal_move_names()[0]
    out = io.StringIO()
    assert play.main(["hoyito", "--opponent", "first:0", "--seat", "1"], io.StringIO("quit\n"), out) == 0
    assert "South (computer) plays 0" in out.getvalue()


def test_evaluate_accepts_search_specs_and_registered_kinds(first_kind, tmp_path):
    from hive_envs.evaluation import evaluate

    path = tiny_hoyito_checkpoint(tmp_path / "run" / "checkpoints" / "step_1.pt")
    report = evaluate.evaluate([str(path)], ["first:0", f"{path}@2"], games=4, out=str(tmp_path / "e.json"))
    assert [m["opponent"] for m in report["matches"]] == ["first:0", "run/step_1@2"]
    assert json.loads((tmp_path / "e.json").read_text())["matches"][0]["games"] == 4


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("x.pt@²", r"the number of simulations after '@' must be an integer >= 0"),
        ("x.pt@٣", r"the number of simulations after '@' must be an integer >= 0"),
        ("x.pt@" + "9" * 5000, r"at most 100000 simulations after '@'"),
        ("x.pt@100001", r"at most 100000 simulations after '@'"),
        ("pretrained:hive_base@99999999999", r"at most 100000 simulations"),
        (
            "alphabeta:" + "9" * 5000,
            r"the depth must be in 1\.\.\d+ plies \(caps: [^)]*\), got 999999999999\.\.\.",
        ),
        ("alphabeta:²", r"use alphabeta:DEPTH"),
    ],
    ids=[
        "superscript",
        "arabic-indic",
        "5000-digits",
        "over-cap",
        "pretrained-over-cap",
        "depth-5000",
        "depth-²",
    ],
)
def test_numbers_in_specs_are_ascii_digits_under_a_cap(spec, message):
    with pytest.raises(ValueError, match=rf"player '.*': {message}"):
        make_player(spec)
    assert split_checkpoint_spec("x.pt@100000") == ("x.pt", 100000)  # the UHP Simulations cap


def test_a_spec_is_parsed_once_into_a_value_that_every_function_takes(tmp_path):
    agent = parse_spec("pretrained:hoyito_2x6@8")
    assert (agent.kind, agent.argument, str(agent)) == (
        "pretrained",
        "hoyito_2x6@8",
        "pretrained:hoyito_2x6@8",
    )
    assert agent.checkpoint == str(pretrained_path("hoyito_2x6")) and parse_spec(agent) is agent
    path = tiny_hoyito_checkpoint(tmp_path / "a.pt")
    searched, timed = parse_spec(f" {path}@3 "), parse_spec(f"{path}@T=0.5")
    assert (searched.kind, searched.checkpoint, searched.simulations, searched.text) == (
        None,
        str(path),
        3,
        f"{path}@3",
    )
    assert (timed.simulations, timed.move_time_s) == (0, 0.5)
    assert checkpoint_path(searched) == str(path) and checkpoint_path(parse_spec("greedy")) is None
    player = make_player(searched, PlayerContext(game="hoyito", seed=0))
    assert player.name == f"{path}@3" and player.config.simulations == 3
    with pytest.raises(ValueError, match="integer"):
        parse_spec("a.pt@many")


def test_an_arena_worker_reads_a_checkpoint_once_for_all_its_chunks(tmp_path, monkeypatch):
    from hive_envs.players import checkpoint as checkpoint_player

    reads = []
    real = checkpoint_player.load_checkpoint
    monkeypatch.setattr(checkpoint_player, "_READ", {})
    monkeypatch.setattr(checkpoint_player, "load_checkpoint", lambda path: reads.append(path) or real(path))
    path = tiny_hoyito_checkpoint(tmp_path / "a.pt")
    settings = arena.settings_for([str(path)], opening_plies=2)
    games = 4 * arena.CHUNK_PAIRS  # two chunks, each making its players afresh
    result, _ = arena.play_match(str(path), "random", games, settings)
    assert result.games == games and [str(p) for p in reads] == [str(path)]
    tiny_hoyito_checkpoint(path)  # the file is written again: read again
    os.utime(path, ns=(0, 0))  # whatever the clock's resolution
    arena.play_match(str(path), "random", 2, settings)
    assert len(reads) == 2
