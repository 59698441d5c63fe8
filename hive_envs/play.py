"""Play Hive or Hoyito II in the terminal against a trained agent, a built-in player, or a friend.

    python -m hive_envs.play hive --agent runs/hive/checkpoints/latest.pt --simulations 64
    python -m hive_envs.play hoyito --opponent greedy --options holes_per_row=12
    python -m hive_envs.play hive --opponent human --options expansions=MLP

The board is drawn before every move. Type a move — a UHP move string in Hive (``wS1``,
``bG1 -wS1``, ``wQ wS1/``), a hole number in Hoyito (the numbers printed around the board) — or:

    hint [PREFIX]   the legal moves (those starting with PREFIX) and the computer's pick
    undo            take back your last move (and the reply to it)
    board           draw the board again
    help            this list
    quit            leave (end of input does the same)

A move that is malformed or illegal is refused with the reason, and you are asked again.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TextIO

HELP = __doc__.split("or:\n\n", 1)[1].split("\n\nA move")[0]


class HiveRules:
    """How the CLI talks about Hive: UHP move strings, the text board of `hive_envs.hive.render`."""

    name = "hive"
    sides = ("White", "Black")

    def __init__(self, expansions: str = "", tournament_opening: bool = True, max_turns: int = 300):
        from hive_envs.hive import HiveGame

        game_type = "Base" + (f"+{expansions}" if expansions else "")
        self.game = HiveGame(game_type, tournament_opening=tournament_opening, max_turns=max_turns)

    def draw(self) -> str:
        from hive_envs.hive.render import render_ansi

        return render_ansi(self.game).rstrip("\n")

    def legal(self) -> list[str]:
        return self.game.valid_moves()

    def play(self, text: str) -> str:
        """Play the typed move (ValueError with the reason, game unchanged); return its canonical form."""
        move_id = self.game.uhp_to_move_id(text)
        name = self.game.move_id_to_uhp(move_id)
        self.game.play(name)
        return name

    def copy(self):
        return self.game.copy()

    def restore(self, game) -> None:
        self.game = game

    def result(self) -> str:
        return {"WhiteWins": "White wins", "BlackWins": "Black wins", "Draw": "draw"}[self.game.outcome]


class HoyitoRules:
    """Hoyito II: holes named by their absolute numbers (South 0..n-1 left to right, North n..2n-1)."""

    name = "hoyito"
    sides = ("South", "North")

    def __init__(self, **options):
        from hive_envs.hoyito import HoyitoGame

        self.game = HoyitoGame(**options)

    def draw(self) -> str:
        from hive_envs.hoyito.render import render_text

        n = self.game.holes_per_row
        lines = render_text(self.game).splitlines()
        pad = " " * len("North captured   0 | ")
        north = pad + " ".join(f"{h:>3d}" for h in range(2 * n - 1, n - 1, -1))
        south = pad + " ".join(f"{h:>3d}" for h in range(n))
        return "\n".join(
            [north + "   <- North's hole numbers", *lines[:2], south + "   <- South's hole numbers", lines[2]]
        )

    def legal(self) -> list[str]:
        return [str(h) for h in self.game.legal_moves()]

    def play(self, text: str) -> str:
        try:
            hole = int(text)
        except ValueError:
            raise ValueError(
                f"{text!r} is not a hole number; legal holes: {' '.join(self.legal())}"
            ) from None
        self.game.play(hole)
        return str(hole)

    def copy(self):
        return self.game.copy()

    def restore(self, game) -> None:
        self.game = game

    def result(self) -> str:
        winner = self.game.winner
        c0, c1 = self.game.captured
        return ("draw" if winner == -1 else f"{self.sides[winner]} wins") + f" ({c0}-{c1})"


def make_rules(game: str, options: dict):
    if game == "hive":
        return HiveRules(**options)
    return HoyitoRules(**options)


def make_opponent(rules, agent: str | None, simulations: int, opponent: str, seed: int | None):
    """A function ``(game) -> move text`` for the computer's side, or None for a human opponent."""
    if agent is not None:
        from hive_envs.agents.uhp_player import AgentPlayer

        player = AgentPlayer.load(agent, simulations=simulations, seed=seed)
        player.view.check_game(rules.game)
        return lambda game: player.view.move_name(game, player.choose(game))
    if opponent == "human":
        return None
    rng = random.Random(seed)
    if rules.name == "hive":
        from hive_envs.hive.players import GreedyPlayer, RandomPlayer

        chooser = GreedyPlayer(seed) if opponent == "greedy" else RandomPlayer(seed)
        return lambda game: chooser.choose_move(game, None)
    if opponent == "random":
        return lambda game: str(rng.choice(game.legal_moves()))

    def greedy(game) -> str:
        values, base = game.capture_values(), game.to_move * game.holes_per_row
        best = max(values[h - base] for h in game.legal_moves())
        return str(rng.choice([h for h in game.legal_moves() if values[h - base] == best]))

    return greedy


def parse_options(pairs: list[str], game: str) -> dict:
    """``["holes_per_row=12", ...]`` -> keyword options of the game (ValueError for a bad one)."""
    allowed = {
        "hive": {"expansions": str, "tournament_opening": "bool", "max_turns": int},
        "hoyito": {"holes_per_row": int, "seeds_per_hole": int, "max_laps": int, "no_capture_limit": int},
    }[game]
    options = {}
    for pair in pairs:
        key, eq, text = pair.partition("=")
        if not eq or key not in allowed:
            raise ValueError(f"option {pair!r}: expected NAME=VALUE with NAME one of {', '.join(allowed)}")
        kind = allowed[key]
        if kind == "bool":
            if text.lower() not in ("true", "false"):
                raise ValueError(f"option {key} takes true or false, got {text!r}")
            options[key] = text.lower() == "true"
        elif kind is int:
            try:
                options[key] = int(text)
            except ValueError:
                raise ValueError(f"option {key} takes an integer, got {text!r}") from None
        else:
            options[key] = text
    return options


class Session:
    """The prompt loop: one human seat (or two), the computer answering on the other."""

    def __init__(self, rules, computer, human_seat: int, stdin: TextIO, stdout: TextIO):
        self.rules, self.computer, self.human_seat = rules, computer, human_seat
        self.stdin, self.stdout = stdin, stdout
        self.history: list = []  # positions before each human move, for undo

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def humans_turn(self) -> bool:
        return self.computer is None or self.rules.game.to_move == self.human_seat

    def run(self) -> int:
        rules = self.rules
        self.say(rules.draw())
        while not rules.game.is_terminal:
            if not self.humans_turn():
                move = self.computer(rules.copy())
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
        elif word == "board":
            self.say(rules.draw())
        elif word == "hint":
            moves = [m for m in rules.legal() if m.startswith(rest.strip())]
            self.say(
                f"{len(moves)} legal move(s): " + ("; ".join(moves) if moves else "none with that prefix")
            )
            if self.computer is not None:
                self.say(f"the computer would play: {self.computer(rules.copy())}")
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
        prog="python -m hive_envs.play",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", choices=("hive", "hoyito"))
    parser.add_argument("--agent", metavar="PATH", help="a checkpoint to play against (overrides --opponent)")
    parser.add_argument(
        "--simulations", type=int, default=64, help="agent's search simulations (0: raw policy)"
    )
    parser.add_argument(
        "--opponent",
        choices=("greedy", "random", "human"),
        default="greedy",
        help="built-in opponent when there is no --agent (human: two players at one keyboard)",
    )
    parser.add_argument(
        "--seat", type=int, choices=(0, 1), default=0, help="your seat: 0 White/South (first)"
    )
    parser.add_argument("--options", nargs="*", default=[], metavar="NAME=VALUE", help="game options")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    if args.simulations < 0:
        parser.error(f"--simulations must be >= 0, got {args.simulations}")
    try:
        rules = make_rules(args.game, parse_options(args.options, args.game))
        computer = make_opponent(rules, args.agent, args.simulations, args.opponent, args.seed)
    except ValueError as error:
        print(f"error: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    return Session(rules, computer, args.seat, stdin, stdout).run()


if __name__ == "__main__":
    sys.exit(main())
