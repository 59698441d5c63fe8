"""Universal Hive Protocol (UHP) engine: a line-in, lines-out command loop over `HiveGame`.

Commands (one per line; every answer ends with a line ``ok``):

    info                                  id line, then the capabilities line
    newgame [GameTypeString|GameString]   start a game (Base if no argument); answers the GameString
    play MoveString                       play a move; answers the new GameString
    pass                                  same as ``play pass``
    validmoves                            the legal moves, ``;``-separated
    bestmove [depth N | time hh:mm:ss]    the player's choice of move (the move is not played)
    undo [N]                              take back N moves (default 1); answers the GameString
    options                               list the options, one line each:
    options get Name                        Name;Type;Value;Default[;Min;Max]
    options set Name Value                  rules (they take effect at the next ``newgame``):
                                          TournamentOpening (bool, True), MaxTurns (int, 300 plies, 0 = no cap),
                                          RepetitionDraw (bool, False: the third occurrence of a position
                                          with the same player to move is a draw, as nokamute plays);
                                          and the player's own settings (at once), e.g. the alpha-beta's
                                          MaxDepth (int, 3), MaxTime (int s, 0 = none), TableSizeMB (int)
    perft N                               extension: number of move sequences of length N

Errors answer ``err <reason>`` and illegal moves ``invalidmove <reason>``, each followed by ``ok``;
the state is unchanged after either, and no input line ends the process except ``exit`` (and
end-of-file).

The engine's decisions come from a player (`hive_envs.players`): any object with
``choose(game, limits) -> move id`` passed to `UHPEngine(player=...)`, or any player spec on the
command line (``--player greedy``, ``--player runs/x.pt@64``, ``--agent PATH``), so every kind of
player registered there can answer ``bestmove``. By default it is the alpha-beta search
(`AlphaBetaPlayer`) with the learned evaluation the package ships (`DEFAULT_PLAYER`:
``alphabeta:3,eval=pretrained:hive_eval,other=hand``; it beat the hand evaluation at equal time, 1 s a
move, on two opening books) on Base games and the hand evaluation on games with expansions, which
that evaluation never saw; where torch, which reads its file, is not installed, the hand evaluation on
every game (`HAND_PLAYER`, ``alphabeta:3``; the engine says so on stderr at start). A plain
``bestmove`` searches ``MaxDepth`` plies (3)
and stops at ``MaxTime`` seconds if that is set; ``bestmove depth N`` searches N plies (0 counts as
1; at most 12, and at most `MAX_UNTIMED_DEPTH` = 5 while ``MaxTime`` is 0: deeper untimed searches
could run for hours and are refused with an ``err`` that says how to set a limit), ``bestmove time hh:mm:ss`` deepens until the time is used (the clock is read inside
the search, which answers a few milliseconds after the limit at most). A player may also expose
``uhp_options()`` / ``set_uhp_option(name, value)`` (listed and set by ``options``) and ``warm_up()``
(run once at start, so a first timed ``bestmove`` is not spent loading compiled code).

Counts (``undo N``, ``perft N``, ``bestmove depth N``, times) are ASCII digits only. Closing the
engine's output (a viewer that quits) or Ctrl-C ends the process quietly (exit codes 0 and 130).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from hive_envs.hive import GAME_TYPES, HiveGame
from hive_envs.players import Player, PlayerContext, PlayerFailure, SearchLimits, make_player
from hive_envs.players.base import freeze_long_lived_objects, play_on_one_thread, warm_up
from hive_envs.players.specs import describe_specs
from hive_envs.pretrained import EVALUATION, pretrained_names
from hive_envs.terminal import run_quietly
from hive_envs.version import __version__

ENGINE_ID = f"id hive_envs v{__version__}"
CAPABILITIES = "Mosquito;Ladybug;Pillbug"
MAX_PERFT_DEPTH = 8
"""Refuse deeper perft requests: depth 9 of Base+MLP would run for days in a loop that cannot be
interrupted except by killing the process."""
MAX_UNTIMED_DEPTH = 5
"""The deepest search a ``bestmove`` may ask for while the player has no time limit (``MaxTime 0``):
each ply multiplies the search by about ten (on the speed benchmark's middle-game positions, at load
average ~9: up to 13 s at depth 5 and 332 s at depth 6), and the engine reads no command while it searches, so a
deeper untimed search would leave a viewer without an answer for hours."""

_TIME_RE = re.compile(r"([0-9]{1,2}):([0-5][0-9]):([0-5][0-9])")
DEFAULT_PLAYER = "alphabeta:3,eval=pretrained:hive_eval,other=hand"
HAND_PLAYER = "alphabeta:3"


def default_player() -> str:
    """The player spec behind ``bestmove`` when none is given: `DEFAULT_PLAYER`, or `HAND_PLAYER`
    where torch (which reads the learned evaluation's file) is not installed."""
    return DEFAULT_PLAYER if importlib.util.find_spec("torch") is not None else HAND_PLAYER


class UHPError(Exception):
    """A command that cannot be carried out; answered as ``err <message>``."""


class InvalidMove(Exception):
    """A move that is malformed or illegal here; answered as ``invalidmove <message>``."""


@dataclass
class _Option:
    """One UHP option: ``kind`` is ``bool`` or ``int``; ``low``/``high`` bound an int."""

    name: str
    kind: str
    default: bool | int
    low: int = 0
    high: int = 0

    def parse(self, text: str) -> bool | int:
        if self.kind == "bool":
            if text.lower() in ("true", "false"):
                return text.lower() == "true"
            raise UHPError(f"option {self.name} takes True or False, got {text!r}")
        try:
            value = int(text)
        except ValueError:
            raise UHPError(f"option {self.name} takes an integer, got {text!r}") from None
        if not self.low <= value <= self.high:
            raise UHPError(f"option {self.name} must lie in [{self.low}, {self.high}], got {value}")
        return value

    def line(self, value: bool | int) -> str:
        fields = [self.name, self.kind, str(value), str(self.default)]
        if self.kind == "int":
            fields += [str(self.low), str(self.high)]
        return ";".join(fields)


_OPTIONS = {
    o.name: o
    for o in (
        _Option("TournamentOpening", "bool", True),
        _Option("MaxTurns", "int", 300, 0, 100_000),  # 0: no cap
        _Option("RepetitionDraw", "bool", False),
    )
}


class UHPEngine:
    """State of one UHP session: the current game, the options, and the player behind ``bestmove``."""

    def __init__(self, player: Player | None = None):
        self.player: Player = (
            player if player is not None else make_player(default_player(), PlayerContext("hive"))
        )
        self.game: HiveGame | None = None
        self.options: dict[str, bool | int] = {name: o.default for name, o in _OPTIONS.items()}
        self._commands: dict[str, Callable[[list[str]], list[str]]] = {
            "info": self._info,
            "newgame": self._newgame,
            "play": self._play,
            "pass": self._pass,
            "validmoves": self._validmoves,
            "bestmove": self._bestmove,
            "undo": self._undo,
            "options": self._options,
            "perft": self._perft,
        }

    # -- the loop -------------------------------------------------------------------------------
    def handle(self, line: str) -> list[str]:
        """Answer one command line; the answer's last line is always ``ok``. Never raises.

        Commands are whitespace-separated; the command word is case-insensitive, as in Mzinga.
        """
        words = line.split()
        if not words:
            return ["err empty command", "ok"]
        command = self._commands.get(words[0].lower())
        if command is None:
            return [f"err unknown command {_quote(words[0])}", "ok"]
        try:
            return command(words[1:]) + ["ok"]
        except InvalidMove as e:
            return [f"invalidmove {_one_line(e)}", "ok"]
        except UHPError as e:
            return [f"err {_one_line(e)}", "ok"]
        except Exception as e:  # noqa: BLE001 - the protocol forbids dying; report and carry on
            return [f"err internal error: {type(e).__name__}: {_one_line(e)}", "ok"]

    def run(self, stdin: TextIO, stdout: TextIO) -> None:
        """Print the info block, then answer stdin line by line until end-of-file or ``exit``."""
        self._write(stdout, self.handle("info"))
        for line in stdin:
            if line.strip().lower() in ("exit", "quit"):
                break
            if not line.strip():
                continue
            self._write(stdout, self.handle(line))

    @staticmethod
    def _write(stdout: TextIO, lines: list[str]) -> None:
        stdout.write("\n".join(lines) + "\n")
        stdout.flush()

    # -- commands -------------------------------------------------------------------------------
    def _info(self, args: list[str]) -> list[str]:
        _no_args("info", args)
        return [ENGINE_ID, CAPABILITIES]

    def _newgame(self, args: list[str]) -> list[str]:
        kwargs: dict[str, Any] = {
            "tournament_opening": bool(self.options["TournamentOpening"]),
            "max_turns": int(self.options["MaxTurns"]) or None,
            "repetition_draw": bool(self.options["RepetitionDraw"]),
        }
        text = " ".join(args)
        if not text:
            game = HiveGame("Base", **kwargs)
        elif ";" not in text:
            if text not in GAME_TYPES:
                raise UHPError(f"unknown game type {_quote(text)}; expected one of {', '.join(GAME_TYPES)}")
            game = HiveGame(text, **kwargs)
        else:
            try:
                game = HiveGame.from_gamestring(text, **kwargs)
            except ValueError as e:
                raise UHPError(f"invalid GameString: {_one_line(e)}") from None
        self.game = game
        return [game.gamestring]

    def _play(self, args: list[str]) -> list[str]:
        game = self._require_game()
        move = " ".join(args)
        if not move:
            raise UHPError("play needs a MoveString")
        if game.is_terminal:
            raise InvalidMove(f"the game is over ({game.outcome}); no move can be played")
        try:
            game.play(move)
        except ValueError as e:
            raise InvalidMove(_one_line(e)) from None
        return [game.gamestring]

    def _pass(self, args: list[str]) -> list[str]:
        _no_args("pass", args)
        return self._play(["pass"])

    def _validmoves(self, args: list[str]) -> list[str]:
        _no_args("validmoves", args)
        game = self._require_game()
        if game.is_terminal:
            raise UHPError(f"the game is over ({game.outcome}); there are no valid moves")
        return [";".join(game.legal_move_names())]

    def _bestmove(self, args: list[str]) -> list[str]:
        limits = _parse_limits(args)
        game = self._require_game()
        if game.is_terminal:
            raise UHPError(f"the game is over ({game.outcome}); there is no best move")
        self._refuse_untimed_deep_search(limits)
        try:
            move = self.player.choose(game.copy(), limits)
        except (ValueError, PlayerFailure) as e:  # e.g. an agent for another game type, a dead engine
            raise UHPError(_one_line(e)) from None
        try:
            return [game.move_name(move)]
        except (ValueError, TypeError) as e:
            raise UHPError(
                f"the player chose move {move!r}, which is not legal here: {_one_line(e)}"
            ) from None

    def _refuse_untimed_deep_search(self, limits: SearchLimits) -> None:
        """An alpha-beta player (one with ``MaxDepth`` / ``MaxTime`` options) asked for more than
        `MAX_UNTIMED_DEPTH` plies with no time limit is refused, naming the way out."""
        options = {row[0]: row[2] for row in getattr(self.player, "uhp_options", list)()}
        if "MaxDepth" not in options or limits.time_s is not None or options.get("MaxTime"):
            return
        depth = limits.depth if limits.depth is not None else options["MaxDepth"]
        if depth > MAX_UNTIMED_DEPTH:
            asked = f"bestmove depth {depth}" if limits.depth is not None else f"bestmove at MaxDepth {depth}"
            raise UHPError(
                f"{asked} without a time limit could search for hours (the engine reads no command "
                f"meanwhile); set one first (options set MaxTime SECONDS), use bestmove time hh:mm:ss, "
                f"or ask for at most depth {MAX_UNTIMED_DEPTH}"
            )

    def _undo(self, args: list[str]) -> list[str]:
        game = self._require_game()
        if len(args) > 1:
            raise UHPError("undo takes at most one argument, the number of moves")
        count = 1
        if args:
            if not _is_count(args[0]):
                raise UHPError(f"undo needs a non-negative integer, got {_quote(args[0])}")
            count = int(args[0])
        played = game.ply  # plies, passes included
        if count > played:
            raise UHPError(f"cannot undo {count} moves: only {played} have been played")
        for _ in range(count):
            game.undo()
        return [game.gamestring]

    def _options(self, args: list[str]) -> list[str]:
        # A player may expose settings: ``uhp_options()`` -> (name, type, value, default, min, max) rows and
        # ``set_uhp_option(name, value)``; they apply at once (hive_envs.players.checkpoint.AgentPlayer).
        player: Any = self.player  # Player does not declare the two optional methods
        own = {
            row[0]: (_Option(row[0], row[1], row[3], row[4], row[5]), row[2])
            for row in getattr(player, "uhp_options", list)()
        }
        if not args:
            return [o.line(self.options[name]) for name, o in _OPTIONS.items()] + [
                o.line(v) for o, v in own.values()
            ]
        verb = args[0].lower()
        if len(args) in (2, 3) and args[1] in own:
            option, value = own[args[1]]
            if verb == "set" and len(args) == 3:
                player.set_uhp_option(option.name, option.parse(args[2]))
                value = next(row[2] for row in player.uhp_options() if row[0] == option.name)
            if verb in ("get", "set"):
                return [option.line(value)]  # as the player now has it (it may round the value)
        if verb == "get" and len(args) == 2:
            option = self._option(args[1], own)
            return [option.line(self.options[option.name])]
        if verb == "set" and len(args) == 3:
            option = self._option(args[1], own)
            self.options[option.name] = option.parse(args[2])
            return [option.line(self.options[option.name])]
        raise UHPError("usage: options | options get Name | options set Name Value")

    def _perft(self, args: list[str]) -> list[str]:
        game = self._require_game()
        if len(args) != 1 or not _is_count(args[0]):
            raise UHPError("usage: perft N (N a non-negative integer)")
        depth = int(args[0])
        if depth > MAX_PERFT_DEPTH:
            raise UHPError(f"perft depth {depth} is above the limit {MAX_PERFT_DEPTH}")
        return [str(game.copy().perft(depth))]

    # -- helpers --------------------------------------------------------------------------------
    def _require_game(self) -> HiveGame:
        if self.game is None:
            raise UHPError("no game in progress; start one with newgame")
        return self.game

    @staticmethod
    def _option(name: str, player_options=()) -> _Option:
        """The rule option ``name``; UHPError listing every option (the player's too) for another name."""
        if name not in _OPTIONS:
            known = ", ".join([*_OPTIONS, *player_options])
            raise UHPError(f"unknown option {_quote(name)}; options are {known}")
        return _OPTIONS[name]


def _parse_limits(args: list[str]) -> SearchLimits:
    if not args:
        return SearchLimits()
    if len(args) == 2 and args[0].lower() == "depth":
        if not _is_count(args[1]):
            raise UHPError(f"bestmove depth needs a non-negative integer, got {_quote(args[1])}")
        return SearchLimits(depth=int(args[1]))
    if len(args) == 2 and args[0].lower() == "time":
        match = _TIME_RE.fullmatch(args[1])
        if match is None:
            raise UHPError(f"bestmove time needs hh:mm:ss, got {_quote(args[1])}")
        h, m, s = (int(g) for g in match.groups())
        return SearchLimits(time_s=float(3600 * h + 60 * m + s))
    raise UHPError("usage: bestmove | bestmove depth N | bestmove time hh:mm:ss")


def _is_count(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts superscripts (¹) that ``int`` cannot read."""
    return text.isascii() and text.isdigit()


def _no_args(command: str, args: list[str]) -> None:
    if args:
        raise UHPError(f"{command} takes no arguments")


def _one_line(error: BaseException | str) -> str:
    """An error message on one line (a newline would break the protocol's framing)."""
    return " ".join(str(error).split()) or "no details"


def _quote(text: str) -> str:
    return ascii(text[:80])


class UnloadedPlayer:
    """Stands in for a player that could not be made (a checkpoint that is missing, corrupt or for
    another game): the engine keeps running and answers every ``bestmove`` with ``err`` and the
    reason (the protocol forbids dying)."""

    name = "unloaded"

    def __init__(self, spec: str, reason: str):
        self.spec, self.reason = spec, reason

    def choose(self, game, limits=None) -> int:
        raise PlayerFailure(f"no agent: cannot load {self.spec!r}: {self.reason}")

    def seed(self, seed) -> None:
        pass

    def close(self) -> None:
        pass


def load_player(spec: str, seed: int | None = None):
    """The player of ``spec`` for Hive, warmed up; an `UnloadedPlayer` with the reason if it fails
    (reported on stderr too)."""
    try:
        player = make_player(spec, PlayerContext(game="hive", seed=seed))
        play_on_one_thread()  # one position at a time: extra threads only spin
        warm_up(player)
    except Exception as error:  # noqa: BLE001 - any failure (bad file, wrong game) is reported, not raised
        reason = " ".join(str(error).split()) or type(error).__name__
        print(f"hive_envs.uhp: cannot load agent {spec!r}: {reason}", file=sys.stderr)
        return UnloadedPlayer(spec, reason)
    return player


def agent_spec(agent: str, simulations: int) -> str:
    """``--agent``'s player spec: ``AGENT@SIMULATIONS``, except for a learned evaluation the package
    ships (``pretrained:hive_eval``: an alpha-beta search at its model card's depth, with no
    simulations to ask for)."""
    if agent.startswith("pretrained:") and agent.removeprefix("pretrained:") in pretrained_names(EVALUATION):
        return agent
    return f"{agent}@{simulations}"


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Entry point of ``python -m hive_envs.uhp``: 0 at end of input or ``exit`` (or when the viewer
    closes the engine's output), 130 on Ctrl-C; no traceback either way."""
    import argparse

    parser = argparse.ArgumentParser(prog="hive-uhp", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--player",
        default=None,
        metavar="SPEC",
        help=f"the player behind bestmove: {describe_specs()} (default: {DEFAULT_PLAYER}, the alpha-beta "
        f"search with the shipped learned evaluation on Base and the hand one on expansions; {HAND_PLAYER} "
        "where torch is not installed; its MaxDepth / MaxTime / TableSizeMB are UHP options)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the player's random choices")
    parser.add_argument(
        "--agent",
        metavar="PATH",
        help="a Hive checkpoint from training/ (or pretrained:hive_base, an agent shipped with the package) behind bestmove "
        "(replaces --player; a load error is answered as err by bestmove); pretrained:hive_eval, the shipped "
        "learned evaluation, plays its alpha-beta search and takes no --simulations",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=64,
        help="with --agent: PUCT search simulations per move, 0 = raw policy (default 64)",
    )
    args = parser.parse_args(argv)
    if args.simulations < 0:
        parser.error(f"--simulations must be >= 0, got {args.simulations}")
    player = None

    def serve() -> int:
        nonlocal player
        if args.agent is not None:
            player = load_player(agent_spec(args.agent, args.simulations), args.seed)
        else:
            spec = args.player or default_player()
            if spec == HAND_PLAYER and args.player is None:
                print(
                    f"hive-uhp: torch is not installed, so bestmove searches with the hand evaluation "
                    f"({HAND_PLAYER}); pip install 'hive_envs[train]' for the learned one ({DEFAULT_PLAYER})",
                    file=sys.stderr,
                )
            try:
                player = make_player(spec, PlayerContext(game="hive", seed=args.seed))
            except ValueError as error:
                parser.error(f"--player: {error}")
            warm_up(player)
        # Undecodable input bytes or unencodable output characters must not end the process.
        if hasattr(stdin, "reconfigure"):
            stdin.reconfigure(errors="replace")
        if hasattr(stdout, "reconfigure"):
            stdout.reconfigure(errors="backslashreplace")
        freeze_long_lived_objects()  # `bestmove time`: no full collection scans the player (0.12 s)
        UHPEngine(player).run(stdin, stdout)
        return 0

    try:
        return run_quietly(serve, stdout)
    finally:
        if player is not None:
            player.close()
