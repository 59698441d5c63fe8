"""Play Hive or Hoyito II in the terminal against a trained agent, a built-in player, or a friend.

    hive-play hive --agent runs/hive/checkpoints/latest.pt --simulations 64
    hive-play hoyito --opponent greedy --options holes_per_row=12
    hive-play hive --opponent human --options expansions=MLP

The board is drawn before every move. Type a move — a UHP move string in Hive (``wS1``,
``bG1 -wS1``, ``wQ wS1/``), a hole number in Hoyito (the numbers printed around the board) — or:

    hint [PREFIX]   the legal moves (those starting with PREFIX) and the computer's pick
    undo            take back your last move (and the reply to it)
    board           draw the board again
    help            this list, and how to type a move
    quit            leave (end of input does the same)

A move that is malformed or illegal is refused with the reason, and you are asked again.
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
import textwrap
from typing import TextIO

from hive_envs.core.game import Game
from hive_envs.extras import command
from hive_envs.games import GAMES, game_entry
from hive_envs.players import Player, PlayerContext, make_player
from hive_envs.players.base import play_on_one_thread
from hive_envs.players.specs import describe_specs
from hive_envs.terminal import run_quietly

HELP = __doc__.split("or:\n\n", 1)[1].split("\n\nA move")[0]


def playable_games() -> list[str]:
    """The games the terminal can show: those whose definition draws the board as text (not ``aec``,
    which stands for any PettingZoo env and has no board of its own)."""
    return sorted(name for name, definition in GAMES.items() if definition.ref("draw_text") is not None)


def play_command(game: str, options: dict, agent: str) -> str | None:
    """The ``hive-play`` command line that plays the checkpoint ``agent`` in ``game`` under ``options``
    (those that differ from the game's defaults), or None for a game the terminal cannot show."""
    if game not in playable_games():
        return None
    defaults = {f.name: f.default for f in dataclasses.fields(game_entry(game).options)}
    changed = [
        f"{key}={str(value).lower() if isinstance(value, bool) else value}"
        for key, value in options.items()
        if key in defaults and value != defaults[key]
    ]
    words = ["hive-play", game, "--agent", agent, *(["--options", *changed] if changed else [])]
    return " ".join(shlex.quote(word) for word in words)


class Table:
    """A game on the table: the protocol game, drawn and its seats named by its definition."""

    def __init__(self, game: Game):
        self.game = game
        self.definition = game_entry(game.game_name)
        self.sides = self.definition.seat_names

    def draw(self) -> str:
        return self.definition.draw(self.game).rstrip("\n")

    def legal(self) -> list[str]:
        return [self.game.move_name(m) for m in self.game.legal_move_ids().tolist()]

    def play(self, text: str) -> str:
        """Play the typed move (ValueError with the reason, game unchanged); return its canonical name."""
        move = self.game.move_id(text)
        name = self.game.move_name(move)
        self.game.play_id(move)
        return name

    def copy(self) -> Game:
        return self.game.copy()

    def restore(self, game: Game) -> None:
        self.game = game

    def result(self) -> str:
        result = self.game.result
        assert result is not None, "the game is not over"
        winner = "draw" if result == 0 else f"{self.sides[0 if result > 0 else 1]} wins"
        return winner + self.definition.score_text(self.game)


def parse_options(pairs: list[str], game: str) -> dict:
    """``["holes_per_row=12", ...]`` -> keyword options of the game (ValueError for a bad one).

    The names are the fields of the game's options object (`hive_envs.games`); each value is read as
    the type of the field's default (true/false, an integer, or text).
    """
    fields = {f.name: f.default for f in dataclasses.fields(game_entry(game).options)}
    options: dict[str, bool | int | str] = {}
    for pair in pairs:
        key, eq, text = pair.partition("=")
        if not eq or key not in fields:
            raise ValueError(f"option {pair!r}: expected NAME=VALUE with NAME one of {', '.join(fields)}")
        default = fields[key]
        if isinstance(default, bool):
            if text.lower() not in ("true", "false"):
                raise ValueError(f"option {key} takes true or false, got {text!r}")
            options[key] = text.lower() == "true"
        elif default is None or isinstance(default, int):
            try:
                options[key] = int(text)
            except ValueError:
                raise ValueError(f"option {key} takes an integer, got {text!r}") from None
        else:
            options[key] = text
    return options


class Session:
    """The prompt loop: one human seat (or two), the computer answering on the other."""

    def __init__(self, rules: Table, computer: Player | None, human_seat: int, stdin: TextIO, stdout: TextIO):
        self.rules, self.computer, self.human_seat = rules, computer, human_seat
        self.stdin, self.stdout = stdin, stdout
        self.history: list = []  # positions before each human move, for undo

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def computer_move(self) -> str:
        """The computer's move here, by name (chosen on a copy of the game)."""
        assert self.computer is not None, "a computer's move in a game without one"
        game = self.rules.copy()
        return game.move_name(self.computer.choose(game))

    def humans_turn(self) -> bool:
        return self.computer is None or self.rules.game.to_move == self.human_seat

    def run(self) -> int:
        rules = self.rules
        self.say(rules.draw())
        while not rules.game.is_terminal:
            if not self.humans_turn():
                move = self.computer_move()
                self.say(f"{rules.sides[rules.game.to_move]} (computer) plays {rules.play(move)}")
                self.say(rules.draw())
                continue
            self.stdout.write(f"{rules.sides[rules.game.to_move]} to move> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if line and not _interactive(self.stdin):
                self.stdout.write(line if line.endswith("\n") else line + "\n")  # transcripts read as typed
            if not line:
                self.say("\nend of input: bye")
                return 0
            if not self.command(line.strip()):
                return 0
        self.say(f"game over: {rules.result()}")
        return 0

    def command(self, text: str) -> bool:
        """Carry out one typed line; False to leave."""
        rules = self.rules
        word, _, rest = text.partition(" ")
        if not text:
            return True
        if word in ("quit", "exit"):
            self.say("bye")
            return False
        if word == "help":
            self.say(HELP)
            notation = rules.definition.move_notation
            if notation:
                self.say(
                    textwrap.fill(
                        f"Moves: {notation}.",
                        100,
                        initial_indent="    ",
                        subsequent_indent="    ",
                        break_on_hyphens=False,
                    )
                )
        elif word == "board":
            self.say(rules.draw())
        elif word == "hint":
            moves = [m for m in rules.legal() if m.startswith(rest.strip())]
            self.say(
                f"{len(moves)} legal move(s): " + ("; ".join(moves) if moves else "none with that prefix")
            )
            if self.computer is not None:
                self.say(f"the computer would play: {self.computer_move()}")
        elif word == "undo":
            if not self.history:
                self.say("nothing to undo")
            else:
                rules.restore(self.history.pop())
                self.say(rules.draw())
        else:
            before = rules.copy()
            try:
                rules.play(text)
            except ValueError as error:
                self.say(f"refused: {' '.join(str(error).split())} (type 'hint' for the legal moves)")
                return True
            self.history.append(before)
            self.say(rules.draw())
        return True


def _interactive(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(
        prog="hive-play",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", choices=playable_games())
    parser.add_argument(
        "--agent",
        metavar="PATH",
        help="a checkpoint to play against: PATH or pretrained:NAME (overrides --opponent)",
    )
    parser.add_argument(
        "--simulations", type=int, default=64, help="agent's search simulations (0: raw policy)"
    )
    parser.add_argument(
        "--opponent",
        default="greedy",
        metavar="SPEC",
        help=f"the computer's player when there is no --agent: {describe_specs()}, "
        "or human (two players at one keyboard); default greedy",
    )
    parser.add_argument(
        "--seat", type=int, choices=(0, 1), default=0, help="your seat: 0 White/South (first)"
    )
    parser.add_argument("--options", nargs="*", default=[], metavar="NAME=VALUE", help="game options")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    if args.simulations < 0:
        parser.error(f"--simulations must be >= 0, got {args.simulations}")
    spec = args.opponent if args.agent is None else f"{args.agent}@{args.simulations}"
    computer = None

    def session() -> int:
        nonlocal computer
        try:
            table = Table(game_entry(args.game).game(parse_options(args.options, args.game)))
            context = PlayerContext(game=args.game, seed=args.seed)
            computer = None if spec == "human" else make_player(spec, context)
            check_game = getattr(computer, "check_game", None)
            if check_game is not None:  # an agent of other options is refused now, not at its first move
                check_game(table.game)
            play_on_one_thread()  # one position at a time: extra threads only spin
        except ValueError as error:
            print(f"error: {' '.join(str(error).split())}", file=sys.stderr)
            return 2
        return Session(table, computer, args.seat, stdin, stdout).run()

    try:  # Ctrl-C leaves as quit does (exit code 130), without a traceback
        return run_quietly(session, stdout)
    finally:
        if computer is not None:
            computer.close()


if __name__ == "__main__":
    sys.exit(command(main)())
