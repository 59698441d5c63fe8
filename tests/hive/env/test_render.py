"""Rendering: the text board, the RGB picture and the PNG helper."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from hive_envs import hive_v0
from hive_envs.hive import HiveGame
from hive_envs.hive.render import render_ansi, render_rgb, save_png

STACKED = (
    "Base;InProgress;White[9];wS1;bB1 wS1-;wQ -wS1;bQ bB1-;wQ /wS1;bQ bB1\\;wQ -wS1;bQ /bB1;wQ /wS1;"
    "bB1 wS1;wQ -bB1;bB2 bB1-;wQ /bB1;bB2 bB1;wQ -bB2;bB2 wQ"
)


def test_ansi_board_shows_tops_stacks_last_move_and_reserves():
    text = render_ansi(HiveGame.from_gamestring(STACKED))
    assert "bB2*" in text and "bB1+" in text and "bQ" in text
    assert "stack wQ < bB2" in text and "stack wS1 < bB1" in text
    assert "White reserve: wS2 wB1" in text and "Black reserve: bS1" in text


def test_ansi_rows_are_offset_like_hexes():
    game = HiveGame.from_gamestring("Base;InProgress;White[2];wS1;bS1 wS1\\")  # bS1 south-east of wS1
    rows = [line for line in render_ansi(game).splitlines() if "S1" in line]
    assert len(rows) == 2 and rows[1].index("bS1") - rows[0].index("wS1") == 3


def test_rgb_picture_has_a_magenta_rim_on_the_last_moved_tile():
    picture = render_rgb(HiveGame.from_gamestring(STACKED))
    assert picture.shape == (640, 640, 3) and picture.dtype == np.uint8
    assert _magenta(picture).sum() > 100
    assert not _magenta(render_rgb(HiveGame("Base"))).any()


def _magenta(picture):
    return (picture[..., 0] > 230) & (picture[..., 1] < 30) & (picture[..., 2] > 180)
    empty = render_rgb(HiveGame("Base"))
    assert not np.array_equal(picture, empty)


def test_env_render_modes():
    for mode, check in (
        ("ansi", lambda out: isinstance(out, str) and "reserve" in out),
        ("rgb_array", lambda out: out.shape == (640, 640, 3)),
    ):
        env = hive_v0.raw_env(render_mode=mode)
        env.reset(seed=0)
        env.step(int(np.flatnonzero(env._mask)[0]))
        assert check(env.render())


def test_save_png_writes_the_picture_of_a_gamestring(tmp_path):
    path = tmp_path / "position.png"
    save_png(STACKED, str(path))
    with Image.open(path) as image:
        assert image.size == (640, 640) and image.mode == "RGB"


def test_human_mode_prints_the_board_without_a_display(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    env = hive_v0.raw_env(render_mode="human")
    env.reset(seed=0)
    assert "White reserve" in capsys.readouterr().out


def test_human_mode_draws_into_a_window_where_a_display_exists(monkeypatch):
    import matplotlib

    matplotlib.use("Agg")  # a headless stand-in for the window system
    monkeypatch.setenv("DISPLAY", ":99")
    env = hive_v0.raw_env(render_mode="human")
    env.metadata = {**env.metadata, "render_fps": 1000}
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env._mask)[0]))
    assert env.render() is None  # updates the open window
    shown = env._window[1].get_array()
    assert shown.shape == (640, 640, 3) and np.array_equal(shown, env._render_rgb())
    env.close()
    assert env._window is None


def test_render_command_line_writes_a_png(tmp_path):
    from hive_envs.hive.render import main

    path = tmp_path / "p.png"
    main([STACKED, str(path), "--size", "320"])
    with Image.open(path) as image:
        assert image.size == (320, 320)


def test_gym_env_renders_rgb_and_text():
    import gymnasium as gym

    env = gym.make("hive_envs/Hive-v0", render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (640, 640, 3)
    env = gym.make("hive_envs/Hive-v0", render_mode="ansi")
    env.reset(seed=0)
    assert "Black reserve" in env.render()


def test_pettingzoo_render_test_over_every_mode(monkeypatch):
    from pettingzoo.test import render_test

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    render_test(lambda render_mode=None: hive_v0.env(render_mode=render_mode))


@pytest.mark.parametrize(
    "args, message",
    [
        (["Base;Foo", "{tmp}/p.png"], "GameString 'Base;Foo'"),
        (["Base;InProgress;White[2];wQ", "{tmp}/p.png"], "wQ"),
        (["Chess", "{tmp}/p.png"], "game type 'Chess'"),
        (["Base", "{tmp}/no/such/dir/p.png"], "cannot write"),
        (["Base", "{tmp}/p.unknown"], "unknown file extension"),
        (["Base", "{tmp}"], "cannot write"),
        (["Base", "{tmp}/p.png", "--size", "0"], "--size"),
        (["Base", "{tmp}/p.png", "--size", "100000"], "--size"),
    ],
)
def test_render_command_line_reports_bad_input_on_one_line_with_exit_code_2(tmp_path, capsys, args, message):
    from hive_envs.hive.render import main

    assert main([a.format(tmp=tmp_path) for a in args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_render_command_line_exit_code_without_a_traceback(tmp_path):
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "hive_envs.hive.render", "Base;Nope", str(tmp_path / "p.png")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.startswith("error: ")
