"""The UHP command loop, command by command (driven in-process through `UHPEngine.handle`)."""

import pytest

from hive_envs.hive import HiveGame
from hive_envs.hive.uhp import CAPABILITIES, ENGINE_ID, UHPEngine

# White cannot move: bB1 covers wS1 and bB2 covers wQ (see the golden case
# forced_pass_when_everything_is_covered).
FORCED_PASS = (
    r"Base;InProgress;White[9];wS1;bB1 wS1-;wQ -wS1;bQ bB1-;wQ /wS1;bQ bB1\;wQ -wS1;bQ /bB1;wQ /wS1;"
    r"bB1 wS1;wQ -bB1;bB2 bB1-;wQ /bB1;bB2 bB1;wQ -bB2;bB2 wQ"
)
# bQ has five neighbours; "wA1 \bQ" surrounds it (golden case surround_queen_move_is_listed).
BEFORE_WIN = (
    r"Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;wG1 /wQ;bG1 bQ/;"
    r"wG2 \wQ;bG2 bQ\;wS2 /wG1;bS2 /bQ"
)


@pytest.fixture
def engine():
    return UHPEngine()


def answer(engine, line):
    lines = engine.handle(line)
    assert lines[-1] == "ok" and "ok" not in lines[:-1], lines
    return lines[:-1]


def test_info_names_the_engine_and_its_expansions(engine):
    assert answer(engine, "info") == [ENGINE_ID, CAPABILITIES]
    assert ENGINE_ID.startswith("id ") and CAPABILITIES == "Mosquito;Ladybug;Pillbug"


def test_newgame_defaults_to_base(engine):
    assert answer(engine, "newgame") == ["Base;NotStarted;White[1]"]


@pytest.mark.parametrize("game_type", ["Base", "Base+M", "Base+LP", "Base+MLP"])
def test_newgame_with_a_game_type(engine, game_type):
    assert answer(engine, f"newgame {game_type}") == [f"{game_type};NotStarted;White[1]"]


def test_newgame_with_a_gamestring_loads_the_position(engine):
    text = "Base+M;InProgress;White[2];wS1;bM wS1-"
    assert answer(engine, f"newgame {text}") == [text]
    assert engine.game.gamestring == text


@pytest.mark.parametrize(
    "arg",
    [
        "Base+X",
        "Chess",
        "Base;InProgress;White[2];wS1;bQ wS1-",
        "Base;InProgress;Black[5];wS1",
        "Base;Nonsense;White[1]",
    ],
)
def test_newgame_with_bad_input_is_an_error_and_keeps_the_game(engine, arg):
    answer(engine, "newgame Base+P")
    out = answer(engine, f"newgame {arg}")
    assert len(out) == 1 and out[0].startswith("err ")
    assert engine.game.gamestring == "Base+P;NotStarted;White[1]"


def test_play_answers_the_new_gamestring(engine):
    answer(engine, "newgame")
    assert answer(engine, "play wS1") == ["Base;InProgress;Black[1];wS1"]
    assert answer(engine, "play bG1 -wS1") == ["Base;InProgress;White[2];wS1;bG1 -wS1"]


def test_play_accepts_any_equivalent_move_string(engine):
    answer(engine, "newgame Base;InProgress;White[2];wS1;bG1 -wS1")
    # (1,0) east of wS1, named from wS1; White may not go there? it touches no black piece: legal.
    out = answer(engine, "play wA1 wS1-")
    assert out[0].startswith("Base;InProgress;Black[2];")


@pytest.mark.parametrize("move", ["wQ", "wS2", "bS1", "wS1 wS1-", "nonsense", "wS1 -bQ", "pass"])
def test_illegal_move_is_invalidmove_and_state_is_kept(engine, move):
    answer(engine, "newgame")
    out = answer(engine, f"play {move}")
    assert len(out) == 1 and out[0].startswith("invalidmove "), out
    assert engine.game.gamestring == "Base;NotStarted;White[1]"


def test_play_without_a_move_is_an_error(engine):
    answer(engine, "newgame")
    assert answer(engine, "play")[0].startswith("err ")


def test_commands_before_newgame_are_errors(engine):
    for line in ["play wS1", "pass", "validmoves", "bestmove", "undo", "perft 1"]:
        out = answer(engine, line)
        assert len(out) == 1 and out[0].startswith("err "), (line, out)


def test_validmoves_lists_distinct_moves_separated_by_semicolons(engine):
    answer(engine, "newgame")
    assert sorted(answer(engine, "validmoves")[0].split(";")) == ["wA1", "wB1", "wG1", "wS1"]
    answer(engine, "newgame Base;InProgress;White[2];wS1;bS1 wS1-")
    moves = answer(engine, "validmoves")[0].split(";")
    assert len(moves) == len(set(moves)) == 15


def test_pass_only_when_forced(engine):
    loaded = answer(engine, f"newgame {FORCED_PASS}")[0]  # moves in the engine's own spelling
    assert answer(engine, "validmoves") == ["pass"]
    assert answer(engine, "pass") == [loaded.replace("White[9]", "Black[9]") + ";pass"]
    assert answer(engine, "pass")[0].startswith("invalidmove ")


def test_bestmove_is_a_legal_move_and_is_not_played(engine):
    answer(engine, "newgame Base+MLP")
    for args in ["", " depth 2", " time 00:00:01", " DEPTH 0"]:
        move = answer(engine, "bestmove" + args)[0]
        assert move in engine.game.legal_move_names()
        assert engine.game.gamestring == "Base+MLP;NotStarted;White[1]"


def test_bestmove_takes_an_immediate_win(engine):
    answer(engine, f"newgame {BEFORE_WIN}")
    move = answer(engine, "bestmove")[0]
    assert answer(engine, f"play {move}")[0].startswith("Base;WhiteWins;")


@pytest.mark.parametrize(
    "args",
    [
        "depth",
        "depth x",
        "depth -1",
        "time 5",
        "time 00:61:00",
        "nodes 5",
        "depth 1 2",
        "depth ²",
        "depth 13",
        "time 00:00:00",
        "time ٠٠:٠٠:٠١",
        "time 02:00:00",
    ],
)
def test_bestmove_with_bad_limits_is_an_error(engine, args):
    answer(engine, "newgame")
    out = answer(engine, f"bestmove {args}")[0]
    assert out.startswith("err ") and "internal error" not in out


def test_finished_game_refuses_moves_and_bestmove(engine):
    loaded = answer(engine, f"newgame {BEFORE_WIN}")[0]
    answer(engine, r"play wA1 \bQ")
    assert answer(engine, "play bQ bS1/")[0].startswith("invalidmove ")
    assert answer(engine, "validmoves")[0].startswith("err ")
    assert answer(engine, "bestmove")[0].startswith("err ")
    assert answer(engine, "undo") == [loaded]  # a finished game can still be taken back


def test_undo_takes_back_n_moves(engine):
    answer(engine, "newgame")
    answer(engine, "play wS1")
    answer(engine, "play bS1 wS1-")
    answer(engine, "play wQ -wS1")
    assert answer(engine, "undo") == ["Base;InProgress;White[2];wS1;bS1 wS1-"]
    assert answer(engine, "undo 2") == ["Base;NotStarted;White[1]"]
    assert answer(engine, "undo 0") == ["Base;NotStarted;White[1]"]


@pytest.mark.parametrize("args", ["5", "-1", "x", "1 2", "¹", "²", "٣", "1.0"])
def test_undo_with_bad_count_is_an_error_and_keeps_the_game(engine, args):
    answer(engine, "newgame Base;InProgress;White[2];wS1;bS1 wS1-")
    out = answer(engine, f"undo {args}")[0]
    assert out.startswith("err ") and "internal error" not in out
    assert engine.game.gamestring == "Base;InProgress;White[2];wS1;bS1 wS1-"


def test_options_list_get_set(engine):
    assert answer(engine, "options") == [
        "TournamentOpening;bool;True;True",
        "MaxTurns;int;300;300;0;100000",
        "RepetitionDraw;bool;False;False",
        "MaxDepth;int;3;3;1;12",
        "MaxTime;int;0;0;0;3600",
        "TableSizeMB;int;5;5;1;1152",
    ]
    assert answer(engine, "options get MaxTurns") == ["MaxTurns;int;300;300;0;100000"]
    assert answer(engine, "options set MaxTurns 4") == ["MaxTurns;int;4;300;0;100000"]
    assert answer(engine, "options set TournamentOpening false") == ["TournamentOpening;bool;False;True"]
    answer(engine, "newgame")
    assert "wQ" in answer(engine, "validmoves")[0].split(";")  # the Queen may open now
    for move in ["wS1", "bS1 wS1-", "wQ -wS1"]:
        answer(engine, f"play {move}")
    assert answer(engine, "play bQ bS1-") == ["Base;Draw;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"]


@pytest.mark.parametrize(
    "args",
    [
        "get",
        "get Nope",
        "set MaxTurns",
        "set MaxTurns x",
        "set MaxTurns -3",
        "set TournamentOpening maybe",
        "frob",
    ],
)
def test_bad_options_are_errors_and_keep_the_values(engine, args):
    before = answer(engine, "options")
    assert answer(engine, f"options {args}")[0].startswith("err ")
    assert answer(engine, "options") == before


def test_perft_counts_match_the_published_numbers(engine):
    answer(engine, "newgame")
    assert answer(engine, "perft 0") == ["1"]
    assert answer(engine, "perft 2") == ["96"]
    answer(engine, "newgame Base+MLP")
    assert answer(engine, "perft 2") == ["294"]
    assert engine.game.gamestring == "Base+MLP;NotStarted;White[1]"


@pytest.mark.parametrize("args", ["", "x", "-1", "1 2", "99", "²", "¹", "١"])
def test_perft_with_bad_depth_is_an_error(engine, args):
    answer(engine, "newgame")
    out = answer(engine, f"perft {args}")[0]
    assert out.startswith("err ") and "internal error" not in out


@pytest.mark.parametrize("line", ["", "   ", "frobnicate", "INFO extra", "validmoves now", "\x00\x01"])
def test_unknown_or_malformed_commands_are_errors(engine, line):
    out = answer(engine, line)
    assert len(out) == 1 and out[0].startswith("err ")


def test_command_words_are_case_insensitive(engine):
    assert answer(engine, "INFO") == [ENGINE_ID, CAPABILITIES]
    assert answer(engine, "NewGame Base") == ["Base;NotStarted;White[1]"]


def test_a_plugged_in_player_answers_bestmove():
    class FirstMove:
        def choose(self, game: HiveGame, limits):
            return game.move_id(min(game.legal_move_names()))

    engine = UHPEngine(player=FirstMove())
    answer(engine, "newgame")
    assert answer(engine, "bestmove") == ["wA1"]


def test_a_crashing_player_is_reported_not_fatal():
    class Broken:
        def choose(self, game, limits):
            raise RuntimeError("no\nluck")

    engine = UHPEngine(player=Broken())
    answer(engine, "newgame")
    out = answer(engine, "bestmove")
    assert out == ["err internal error: RuntimeError: no luck"]


def test_a_player_choosing_an_illegal_move_is_reported():
    class Cheater:
        def choose(self, game, limits):
            return game.move_id("wS1") + 1  # wS1 is legal; its neighbour id is not

    engine = UHPEngine(player=Cheater())
    answer(engine, "newgame")
    out = answer(engine, "bestmove")
    assert out[0].startswith("err the player chose move 1025, which is not legal here")


def test_bestmove_in_a_forced_pass_position_is_pass(engine):
    answer(engine, f"newgame {FORCED_PASS}")
    assert answer(engine, "bestmove") == ["pass"]


def shipped_network():
    """The compiled network of the learned evaluation the package ships (``pretrained:hive_eval``)."""
    from hive_envs.agents.eval_checkpoint import learned_network_of, load_eval_checkpoint
    from hive_envs.hive.search.eval_features import HIVE_FEATURES
    from hive_envs.pretrained import pretrained_path

    return learned_network_of(load_eval_checkpoint(pretrained_path("hive_eval")), HIVE_FEATURES)


def test_bestmove_searches_with_the_shipped_learned_evaluation_by_default_on_base(engine):
    from hive_envs.hive import HiveAlphaBeta

    network = shipped_network()
    answer(engine, "newgame Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-")
    game = engine.game.copy()
    for args, depth in (("", 3), (" depth 1", 1), (" depth 2", 2), (" depth 0", 1)):
        expected = game.move_name(HiveAlphaBeta(depth=depth, seed=0, network=network).search(game).move_id)
        assert answer(engine, "bestmove" + args) == [expected], args
    answer(engine, "options set MaxDepth 2")
    searched = HiveAlphaBeta(depth=2, seed=0, network=network).search(game)
    assert answer(engine, "bestmove") == [game.move_name(searched.move_id)]


def test_bestmove_searches_with_the_hand_evaluation_on_expansions(engine):
    from hive_envs.hive import HiveAlphaBeta

    answer(engine, "newgame Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wM -wQ;bL bQ-")
    game = engine.game.copy()
    assert answer(engine, "bestmove depth 2") == [game.move_name(HiveAlphaBeta(depth=2, seed=0).choose(game))]


def test_without_torch_the_engine_plays_the_hand_evaluation_and_says_so(monkeypatch, capsys):
    import importlib.util
    import io

    from hive_envs.hive import HiveAlphaBeta, uhp

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "torch" else find_spec(name, *a)
    )
    assert uhp.default_player() == uhp.HAND_PLAYER == "alphabeta:3"
    out = io.StringIO()
    assert uhp.main([], stdin=io.StringIO("newgame\nbestmove depth 1\nexit\n"), stdout=out) == 0
    assert "torch is not installed" in capsys.readouterr().err
    *_, move, done = out.getvalue().splitlines()
    assert done == "ok" and move == HiveGame().move_name(HiveAlphaBeta(depth=1, seed=0).choose(HiveGame()))


def test_repetition_draw_option_ends_the_game_at_the_third_occurrence(engine):
    shuffle = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"] + ["wQ /wS1", "bQ bS1/", "wQ -wS1", "bQ bS1-"] * 2
    answer(engine, "newgame")
    for move in shuffle:
        last = answer(engine, f"play {move}")[0]
    assert last.startswith("Base;InProgress;")  # off by default: a repetition is no draw
    assert answer(engine, "options set RepetitionDraw true") == ["RepetitionDraw;bool;True;False"]
    answer(engine, "newgame")
    for move in shuffle:
        last = answer(engine, f"play {move}")[0]
    assert last.startswith("Base;Draw;")  # the start of the shuffle occurred a third time
    assert answer(engine, "bestmove")[0].startswith("err ")


def test_an_unknown_option_error_lists_the_players_options_too(engine):
    (line,) = answer(engine, "options set Nope 1")
    assert line == (
        "err unknown option 'Nope'; options are TournamentOpening, MaxTurns, RepetitionDraw, MaxDepth, "
        "MaxTime, TableSizeMB"
    )


class _RecordingSearcher:
    """Stands in for the alpha-beta player: its MaxDepth / MaxTime options, and the limits it was asked for."""

    def __init__(self, max_depth: int, max_time: int):
        self.options = {"MaxDepth": max_depth, "MaxTime": max_time}
        self.asked = []

    def uhp_options(self):
        return [(name, "int", value, value, 0, 3600) for name, value in self.options.items()]

    def choose(self, game, limits):
        self.asked.append(limits)
        return int(game.legal_move_ids()[0])


@pytest.mark.parametrize(
    "line, max_depth, named",
    [("bestmove depth 6", 3, "bestmove depth 6"), ("bestmove depth 12", 3, "bestmove depth 12"),
     ("bestmove", 9, "bestmove at MaxDepth 9")],
)  # fmt: skip
def test_a_deep_search_without_a_time_limit_is_refused_before_it_starts(line, max_depth, named):
    player = _RecordingSearcher(max_depth, max_time=0)
    engine = UHPEngine(player=player)
    answer(engine, "newgame")
    out = answer(engine, line)
    assert len(out) == 1 and out[0].startswith(f"err {named} without a time limit"), out
    assert "options set MaxTime" in out[0] and not player.asked  # refused before any search


@pytest.mark.parametrize(
    "line, max_depth, max_time",
    [("bestmove depth 5", 3, 0), ("bestmove depth 12", 3, 1), ("bestmove time 00:00:01", 12, 0),
     ("bestmove", 5, 0), ("bestmove", 12, 1)],
)  # fmt: skip
def test_a_time_limit_or_a_shallow_depth_lets_the_search_run(line, max_depth, max_time):
    player = _RecordingSearcher(max_depth, max_time)
    engine = UHPEngine(player=player)
    answer(engine, "newgame")
    assert not answer(engine, line)[0].startswith("err")
    assert len(player.asked) == 1


def test_a_deep_bestmove_with_max_time_answers_in_time(engine):
    import time

    answer(engine, "newgame Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-")
    assert answer(engine, "bestmove depth 12")[0].startswith("err bestmove depth 12 without a time limit")
    answer(engine, "options set MaxTime 1")
    start = time.perf_counter()
    (move,) = answer(engine, "bestmove depth 12")
    assert move in answer(engine, "validmoves")[0].split(";")
    assert time.perf_counter() - start < 1.0 + 0.5
