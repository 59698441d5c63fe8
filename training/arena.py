"""Game-by-game matches between any players, UHP engine processes included; W/D/L with Wilson CIs.

    # a checkpoint (raw policy) vs an external UHP engine, 1 s per move, 20 games
    python training/arena.py runs/hive/checkpoints/latest.pt "uhp:nokamute uhp" --games 20 --move-time 1
    # play-time search (64 simulations) vs the raw policy of the same checkpoint, 4 workers
    python training/arena.py A.pt@64 A.pt --games 200 --workers 4
    # also reachable from evaluate.py:  python training/evaluate.py A.pt --opponent uhp:"COMMAND"

Player specs: ``random``, ``greedy``, ``PATH`` (a checkpoint, raw policy) or ``PATH@N`` (PUCT search,
N simulations per move, `hive_envs.agents.search`), ``uhp:COMMAND`` (a UHP engine process, Hive only;
started once per worker and told ``newgame`` each game).

Our engine is the referee: every move an engine sends is checked by `HiveGame` before it is passed to
the other side. A player whose move is illegal, who errs, dies or exceeds ``--move-timeout`` loses
that game (the reason is recorded); a dead or confused engine is restarted for the next game.
Deterministic players would repeat one game over and over, so each pair of games starts from the same
``--opening-plies`` uniformly random plies (a different opening for every pair while there are enough),
once with each player as White (South) — as in engine tournaments' opening books. Results are counted from the first player's side.
"""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `training` and `hive_envs` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.cli import exit_code, write_report
from training.match import MatchResult, format_table

UHP_PREFIX = "uhp:"


# -- referees: the game rules on our side ---------------------------------------------------------
class HiveReferee:
    name = "hive"

    def __init__(self, game_type: str = "Base", max_turns: int | None = 300):
        self.game_type, self.max_turns = game_type, max_turns

    def new(self):
        from hive_envs.hive import HiveGame

        return HiveGame(self.game_type, max_turns=self.max_turns)

    @staticmethod
    def legal(game) -> list:
        return game.valid_moves()

    @staticmethod
    def play(game, move) -> None:
        game.play(move)

    @staticmethod
    def result(game) -> float:
        return {"WhiteWins": 1.0, "BlackWins": -1.0, "Draw": 0.0}[game.outcome]

    @staticmethod
    def plies(game) -> int:
        return game.turn_number

    @staticmethod
    def record(game) -> str:
        return game.gamestring


class HoyitoReferee:
    name = "hoyito"

    def __init__(self, **options):
        self.options = options

    def new(self):
        from hive_envs.hoyito import HoyitoGame

        return HoyitoGame(**self.options)

    @staticmethod
    def legal(game) -> list:
        return game.legal_moves()

    @staticmethod
    def play(game, move) -> None:
        game.play(move)

    @staticmethod
    def result(game) -> float:
        return {0: 1.0, 1: -1.0, -1: 0.0}[game.winner]

    @staticmethod
    def plies(game) -> int:
        return game.ply

    @staticmethod
    def record(game) -> str:
        return repr(game)


# -- players --------------------------------------------------------------------------------------
class Forfeit(Exception):
    """The player to move loses the game (illegal move, engine error, timeout)."""


class LocalPlayer:
    """An in-process chooser ``choose(game, limits) -> move`` (random, greedy, a checkpoint)."""

    def __init__(self, name: str, choose):
        self.name, self._choose = name, choose

    def start(self, game_type: str, opening: list) -> None:
        pass

    def observe(self, move) -> None:
        pass

    def choose(self, game, limits):
        return self._choose(game, limits)

    def close(self) -> None:
        pass


class EnginePlayer:
    """A UHP engine process kept in step with the referee by ``play`` after every move."""

    def __init__(self, command: str, timeout_s: float):
        self.name = UHP_PREFIX + command
        self.command, self.timeout_s = command, timeout_s
        self._client = None

    def start(self, game_type: str, opening: list) -> None:
        from hive_envs.uhp_client import UHPClient, UHPEngineError

        try:
            if self._client is None:
                self._client = UHPClient(self.command, timeout_s=self.timeout_s)
            self._client.newgame(game_type)
            for move in opening:
                self._client.play(move)
        except UHPEngineError as error:
            self._fail(error)

    def observe(self, move) -> None:
        """Play ``move`` (either side's) on the engine."""
        from hive_envs.uhp_client import UHPEngineError

        try:
            self._client.play(move)
        except UHPEngineError as error:
            self._fail(error)

    def choose(self, game, limits):
        from hive_envs.uhp_client import UHPEngineError

        try:
            return self._client.bestmove(depth=limits.depth, time_s=limits.time_s)
        except UHPEngineError as error:
            self._fail(error)

    def _fail(self, error: Exception):
        self.close(grace_s=1.0)  # restart it for the next game
        raise Forfeit(str(error))

    def close(self, grace_s: float = 5.0) -> None:
        if self._client is not None:
            self._client.close(grace_s)
            self._client = None


def make_player(spec: str, game: str, sample: bool, seed: int, timeout_s: float):
    """A player from its spec (see the module docstring)."""
    from hive_envs.hive.players import GreedyPlayer, RandomPlayer

    rng = random.Random(seed)
    if spec.startswith(UHP_PREFIX):
        if game != "hive":
            raise ValueError(f"UHP engines play Hive; this match is {game}")
        command = spec[len(UHP_PREFIX) :].strip()
        if not command:
            raise ValueError('uhp: needs a command, e.g. uhp:"python -m hive_envs.uhp"')
        return EnginePlayer(command, timeout_s)
    if spec == "random":
        if game == "hive":
            return LocalPlayer("random", RandomPlayer(seed).choose_move)
        return LocalPlayer("random", lambda g, limits: rng.choice(g.legal_moves()))
    if spec == "greedy":
        if game == "hive":
            return LocalPlayer("greedy", GreedyPlayer(seed).choose_move)
        return LocalPlayer("greedy", lambda g, limits: _hoyito_greedy(g, rng))
    from hive_envs.agents.uhp_player import AgentPlayer

    path, simulations = split_agent_spec(spec)
    agent = AgentPlayer.load(path, simulations=simulations, sample=sample, seed=seed)
    if agent.view.game_name != game:
        raise ValueError(f"{path!r} is a {agent.view.game_name} agent; this match is {game}")
    choose = agent.choose_move if game == "hive" else agent.choose
    return LocalPlayer(spec, choose)


def split_agent_spec(spec: str) -> tuple[str, int]:
    """'PATH@N' -> (PATH, N); 'PATH' -> (PATH, 0)."""
    path, at, count = spec.rpartition("@")
    if not at:
        return spec, 0
    if not count.isdigit():
        raise ValueError(f"player {spec!r}: the number of simulations after '@' must be an integer >= 0")
    return path, int(count)


def _hoyito_greedy(game, rng: random.Random) -> int:
    values = game.capture_values()
    moves = game.legal_moves()
    base = game.to_move * game.holes_per_row
    best = max(values[m - base] for m in moves)
    return rng.choice([m for m in moves if values[m - base] == best])


def game_of(specs: list[str]) -> tuple[str, dict]:
    """The game the specs' checkpoints are for (Hive when none is a checkpoint)."""
    from hive_envs.agents.checkpoint import load_checkpoint

    for spec in specs:
        if spec in ("random", "greedy") or spec.startswith(UHP_PREFIX):
            continue
        data = load_checkpoint(split_agent_spec(spec)[0])
        return str(data["game"]), dict(data["game_options"])
    return "hive", {}


# -- games and matches ----------------------------------------------------------------------------
@dataclass
class Settings:
    game: str = "hive"
    game_options: dict = field(default_factory=dict)
    opening_plies: int = 2
    move_time_s: float | None = None
    move_timeout_s: float = 60.0
    max_turns: int | None = 300
    sample: bool = False
    seed: int = 0
    threads: int = 1  # torch threads per worker
    log_games: bool = False

    def referee(self):
        if self.game == "hive":
            expansions = str(self.game_options.get("expansions", ""))
            return HiveReferee("Base" + (f"+{expansions}" if expansions else ""), self.max_turns)
        if self.game == "hoyito":
            return HoyitoReferee(**self.game_options)
        raise ValueError(f"the arena plays 'hive' and 'hoyito', not {self.game!r}")


@dataclass
class GameRecord:
    seat_of_a: int
    result_for_a: float  # +1 / 0 / -1
    plies: int
    reason: str  # "" for a game played to its end by the rules
    record: str  # final GameString (Hive) or position (Hoyito)


def queen_margins(records: list[GameRecord], max_turns: int | None = 300) -> list[int]:
    """Hive: for each game, the occupied cells around the opponent's Queen minus those around A's own Queen
    in the final position (a finer measure than W/D/L when weak players draw at the turn limit)."""
    from hive_envs.hive import HiveGame

    margins = []
    for r in records:
        game = HiveGame.from_gamestring(r.record, max_turns=max_turns)
        own, other = game.queen_neighbours(r.seat_of_a), game.queen_neighbours(1 - r.seat_of_a)
        margins.append(other - own)
    return margins


def mean_ci95(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal-approximation interval."""
    n = len(values)
    mean = sum(values) / n
    sd = (sum((v - mean) ** 2 for v in values) / max(n - 1, 1)) ** 0.5
    half = 1.959964 * sd / n**0.5
    return mean, mean - half, mean + half


def random_opening(referee, plies: int, seed: int) -> list:
    rng = random.Random(seed)
    game, moves = referee.new(), []
    for _ in range(plies):
        if game.is_terminal:
            break
        move = rng.choice(referee.legal(game))
        referee.play(game, move)
        moves.append(move)
    return moves


def distinct_openings(referee, plies: int, count: int, seed: int) -> list[list]:
    """``count`` random openings, all different while the game has that many (deterministic players
    would otherwise replay the same game, and the games would not be independent samples)."""
    openings, seen = [], set()
    for k in range(100 * count):
        opening = random_opening(referee, plies, seed * 1_000_003 + k)
        if tuple(opening) not in seen:
            seen.add(tuple(opening))
            openings.append(opening)
            if len(openings) == count:
                return openings
    return [openings[k % len(openings)] for k in range(count)]


def play_game(referee, players: tuple, opening: list, limits) -> tuple[float, int, str, str]:
    """One game, ``players[0]`` as White/South. Returns (result for seat 0, plies, reason, record)."""
    game = referee.new()
    for move in opening:
        referee.play(game, move)
    for seat, player in enumerate(players):
        try:
            player.start(getattr(referee, "game_type", ""), opening)
        except Forfeit as error:
            return (
                (-1.0 if seat == 0 else 1.0),
                referee.plies(game),
                f"seat {seat} forfeits: {error}",
                referee.record(game),
            )
    while not game.is_terminal:
        seat = game.to_move
        loser, why = seat, ""
        try:
            move = players[seat].choose(game.copy(), limits)
            try:
                referee.play(game, move)
            except ValueError as error:
                raise Forfeit(f"illegal move {move!r}: {error}") from None
            players[seat].observe(move)  # an engine's bestmove is not played until it is told
            loser = 1 - seat
            players[1 - seat].observe(move)
        except Forfeit as error:
            why = str(error)
        if why:
            return (
                (-1.0 if loser == 0 else 1.0),
                referee.plies(game),
                f"seat {loser} forfeits: {why}",
                referee.record(game),
            )
    return referee.result(game), referee.plies(game), "", referee.record(game)


def play_pairs(spec_a: str, spec_b: str, settings: Settings, openings: list[list]) -> list[GameRecord]:
    """Two games from each opening: A as seat 0, then as seat 1."""
    import torch

    from hive_envs.hive.players import SearchLimits

    torch.set_num_threads(settings.threads)  # small networks: threads only fight the other workers
    referee = settings.referee()
    limits = SearchLimits(time_s=settings.move_time_s)
    a = make_player(spec_a, settings.game, settings.sample, settings.seed * 7919 + 1, settings.move_timeout_s)
    b = make_player(spec_b, settings.game, settings.sample, settings.seed * 7919 + 2, settings.move_timeout_s)
    records = []
    try:
        for opening in openings:
            for seat_of_a in (0, 1):
                seats = (a, b) if seat_of_a == 0 else (b, a)
                result0, plies, reason, record = play_game(referee, seats, opening, limits)
                result_a = (result0 if seat_of_a == 0 else -result0) + 0.0  # no -0.0 for a draw
                records.append(GameRecord(seat_of_a, result_a, plies, reason, record))
                if settings.log_games:  # one line per game on stderr: partial results of a long match
                    extra = ""
                    if settings.game == "hive":
                        extra = (
                            f" queen_margin_for_a={queen_margins([records[-1]], settings.max_turns)[0]:+d}"
                        )
                    print(
                        f"game seat_of_a={seat_of_a} result_for_a={int(result_a):+d} plies={plies}{extra} {reason}",
                        file=sys.stderr,
                        flush=True,
                    )
    finally:
        a.close()
        b.close()
    return records


def play_match(
    spec_a: str, spec_b: str, games: int, settings: Settings, workers: int = 1
) -> tuple[MatchResult, list[GameRecord]]:
    """``games`` (even, >= 2) games between A and B, spread over ``workers`` processes."""
    if games < 2 or games % 2:
        raise ValueError(
            f"games must be an even number >= 2 (each opening is played with both seats), got {games}"
        )
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    pairs = distinct_openings(settings.referee(), settings.opening_plies, games // 2, settings.seed)
    chunks = [pairs[i::workers] for i in range(min(workers, len(pairs)))]
    if len(chunks) == 1:
        records = play_pairs(spec_a, spec_b, settings, pairs)
    else:
        with ProcessPoolExecutor(len(chunks), mp_context=get_context("spawn")) as pool:
            parts = pool.map(
                play_pairs, [spec_a] * len(chunks), [spec_b] * len(chunks), [settings] * len(chunks), chunks
            )
            records = [r for part in parts for r in part]
    return summarise(spec_a, spec_b, records), records


def summarise(name_a: str, name_b: str, records: list[GameRecord]) -> MatchResult:
    counts = {label: [0, 0] for label in ("wins", "draws", "losses")}
    for r in records:
        label = "wins" if r.result_for_a > 0 else ("losses" if r.result_for_a < 0 else "draws")
        counts[label][r.seat_of_a] += 1
    return MatchResult.from_counts(
        name_a, name_b, len(records), counts, sum(r.plies for r in records) / len(records)
    )


def run(
    players: list[str],
    opponents: list[str],
    games: int,
    settings: Settings,
    workers: int = 1,
    out: str | None = None,
) -> dict:
    """Every player against every opponent; prints the table, writes JSON (with every game) to ``out``."""
    results, report = (
        [],
        {
            "game": settings.game,
            "game_options": settings.game_options,
            "opening_plies": settings.opening_plies,
            "move_time_s": settings.move_time_s,
            "matches": [],
        },
    )
    for a in players:
        for b in opponents:
            result, records = play_match(a, b, games, settings, workers)
            results.append(result)
            report["matches"].append({**result.to_dict(), "games_played": [r.__dict__ for r in records]})
            if settings.game == "hive":
                margins = queen_margins(records, settings.max_turns)
                for row, margin in zip(report["matches"][-1]["games_played"], margins):
                    row["queen_margin_for_a"] = margin
                report["matches"][-1]["queen_margin_for_a"] = mean_ci95(margins)
    print(format_table(results))
    for match in report["matches"]:
        if "queen_margin_for_a" in match:
            mean, low, high = match["queen_margin_for_a"]
            print(
                f"{match['player']} vs {match['opponent']}: final Queen margin (neighbours of the opponent's "
                f"Queen - of the player's) {mean:+.2f} [{low:+.2f}, {high:+.2f}]"
            )
    for match in report["matches"]:
        forfeits = [g["reason"] for g in match["games_played"] if g["reason"]]
        if forfeits:
            print(f"{match['player']} vs {match['opponent']}: {len(forfeits)} forfeit(s), e.g. {forfeits[0]}")
    if out:
        write_report(out, report)
    return report


def settings_for(specs: list[str], **kwargs) -> Settings:
    game, options = game_of(specs)
    return Settings(game=game, game_options=options, **kwargs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("player", help="random | greedy | PATH[@N] | uhp:COMMAND")
    parser.add_argument("opponents", nargs="+", help="one or more specs, each played against PLAYER")
    parser.add_argument("--games", type=int, default=20, help="games per match (even), half in each seat")
    parser.add_argument(
        "--opening-plies", type=int, default=2, help="random plies opening each pair of games"
    )
    parser.add_argument(
        "--move-time", type=float, help="seconds per move, sent as 'bestmove time' to every player"
    )
    parser.add_argument(
        "--move-timeout",
        type=float,
        default=60.0,
        help="an engine that has not answered after this (+ move time) loses the game",
    )
    parser.add_argument(
        "--max-turns", type=int, default=300, help="Hive: draw after this many plies (0: none)"
    )
    parser.add_argument(
        "--sample", action="store_true", help="checkpoints sample their moves (default: argmax)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes playing games in parallel")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="JSON output path (every game with its final position)")
    parser.add_argument("--log-games", action="store_true", help="a line on stderr as each game ends")
    args = parser.parse_args(argv)

    def play() -> None:
        settings = settings_for(
            [args.player, *args.opponents],
            opening_plies=args.opening_plies,
            move_time_s=args.move_time,
            move_timeout_s=args.move_timeout,
            max_turns=args.max_turns or None,
            sample=args.sample,
            seed=args.seed,
            log_games=args.log_games,
        )
        run([args.player], args.opponents, args.games, settings, args.workers, args.out)

    return exit_code(play)


if __name__ == "__main__":
    sys.exit(main())
