"""Game-by-game matches between any players, UHP engine processes included; W/D/L with Wilson CIs.

    # a checkpoint (raw policy) vs an external UHP engine, 1 s per move, 20 games
    hive-arena runs/hive/checkpoints/latest.pt "uhp:nokamute uhp" --games 20 --move-time 1
    # play-time search (64 simulations) vs the raw policy of the same checkpoint, 4 workers
    hive-arena A.pt@64 A.pt --games 200 --workers 4
    # the alpha-beta searchers against each other (Hive unless a checkpoint says otherwise)
    hive-arena alphabeta:3 alphabeta:2 greedy --games 200 --workers 2
    # also reachable from hive-evaluate:  hive-evaluate A.pt --opponent uhp:"COMMAND"

Player specs are those of `hive_envs.players`: ``random``, ``greedy``, ``alphabeta:D`` /
``alphabeta:T=S`` (alpha-beta search), ``PATH`` (a checkpoint, raw policy) or ``PATH@N`` (PUCT search, N
simulations per move), ``uhp:COMMAND`` (a UHP engine process, Hive only), and every kind registered
there. This module plays matches between player specs, spread over worker processes, through the one
match runner (`hive_envs.evaluation.match`, game by game); `evaluate.py`'s UHP matches and its ladder
(`hive_envs/evaluation/ladder.py`) play their games here.

Our engine is the referee: every move a player chooses is checked by the game (`hive_envs.core.game`)
before the other side sees it. A game ends by the rules (a result: win, draw, loss) or by a forfeit:
a player whose move is illegal, who errs, dies or exceeds ``--move-timeout``, or an engine whose own
game is over while the referee's is not (an engine applying a rule ours does not). Forfeits are
reported apart from the results (a column of their own, the reason of each in the records): they are
no one's win. A match whose every game was forfeited, or an engine that cannot start (or stays
silent for ``--move-timeout`` at start-up), is an error (exit code 2) with the reason.

Equal time (``--move-time``): every player is told the seconds a move (`SearchLimits`); a player that
cannot keep them whatever it is told (`hive_envs.players.base.keeps_move_time`: a network whose
features search, such as the raw policy of ``hive_base_searched``) is refused for the match, and the
table's move times give each side's moves over the limit, as the referee timed them.

Repetitions: engines such as nokamute always end a game at the third occurrence of a position (same
player to move). The referee plays the same rule (``--repetition-draw``) by default when a player is
an external engine (``uhp:``), so that both sides agree when a game is over; ``--no-repetition-draw``
turns it off (the package's own default, `HiveOptions.repetition_draw`). Hoyito has no such rule.

Deterministic players would repeat one game over and over, so each pair of games starts from the same
``--opening-plies`` uniformly random plies (a different opening for every pair while there are enough),
once with each player as White (South) — as in engine tournaments' opening books. Results are counted
from the first player's side. Games are played in chunks of `CHUNK_PAIRS` openings, each with its
own players seeded from (seed, match, chunk), so the results do not depend on ``--workers``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import math
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

import numpy as np

from hive_envs.core.game import Game
from hive_envs.evaluation.cli import add_trust_env_module, exit_code, trust_env_modules
from hive_envs.evaluation.match import (
    GameRecord,
    MatchResult,
    format_table,
    paired,
    play_games,
    summarise,
)
from hive_envs.evaluation.results_files import check_writable, write_report
from hive_envs.extras import command
from hive_envs.games import game_entry
from hive_envs.players import (
    PlayerContext,
    PlayerSpec,
    RandomPlayer,
    SearchLimits,
    make_player,
    parse_spec,
)
from hive_envs.players.base import freeze_long_lived_objects, keeps_move_time, warm_up
from hive_envs.players.uhp_engine import add_move_timeout_argument

CHUNK_PAIRS = 5
"""Openings (two games each) a worker plays with one pair of players before it takes the next chunk."""


def game_of(specs: list[PlayerSpec]) -> tuple[str, dict]:
    """The game the specs' checkpoints are for (Hive when none is a checkpoint)."""
    for spec in specs:
        if spec.checkpoint is not None:
            from hive_envs.players.checkpoint import read_checkpoint  # torch: only where a checkpoint plays

            data = read_checkpoint(spec.checkpoint)
            return str(data["game"]), dict(data["game_options"])
    return "hive", {}


# -- games and matches ----------------------------------------------------------------------------
@dataclass
class Settings:
    """How a match is played; checked when made (ValueError naming the option and its flag)."""

    game: str = "hive"
    game_options: dict = field(default_factory=dict)
    opening_plies: int = 2
    move_time_s: float | None = None
    move_timeout_s: float = 60.0
    max_turns: int | None = 300  # for games with a turn cap (Hive)
    repetition_draw: bool | None = None  # None: on when a player is an external UHP engine (Hive)
    sample: bool = False
    seed: int = 0
    threads: int = 1  # torch threads per worker
    log_games: bool = False

    def __post_init__(self):
        game_entry(self.game)  # ValueError for an unknown game
        _check_int("opening_plies", "--opening-plies", self.opening_plies, 0)
        _check_int("seed", "--seed", self.seed, 0)
        _check_int("threads", "--threads", self.threads, 1)
        turns = self.max_turns
        if turns is not None and (
            isinstance(turns, bool) or not isinstance(turns, (int, np.integer)) or turns < 1
        ):
            raise ValueError(
                f"max_turns (--max-turns) must be an integer >= 1 or None (0 on the command line), got {turns!r}"
            )
        if self.move_time_s is not None:
            _check_seconds("move_time_s", "--move-time", self.move_time_s)
        _check_seconds("move_timeout_s", "--move-timeout", self.move_timeout_s)
        if self.repetition_draw not in (None, True, False):
            raise ValueError(
                f"repetition_draw must be True, False or None (automatic), got {self.repetition_draw!r}"
            )
        if self.repetition_draw and not self.has_option("repetition_draw"):
            raise ValueError(f"--repetition-draw: {self.game} has no repetition rule")

    def has_option(self, name: str) -> bool:
        """Whether the game's options have a field ``name`` (e.g. ``max_turns``, ``repetition_draw``)."""
        return name in {f.name for f in dataclasses.fields(game_entry(self.game).options)}

    def repetition_for(self, specs: tuple[PlayerSpec | str, ...]) -> bool:
        """Whether the referee applies the repetition draw in a match of ``specs`` (see the module doc)."""
        if self.repetition_draw is not None:
            return self.repetition_draw
        return self.has_option("repetition_draw") and any(parse_spec(s).kind == "uhp" for s in specs)

    def options(self, repetition_draw: bool = False) -> Any:
        """The game's options object for the match (``max_turns`` where the game has a cap)."""
        options = dict(self.game_options)
        if self.has_option("max_turns"):
            options["max_turns"] = self.max_turns
        if repetition_draw:
            options["repetition_draw"] = True
        return game_entry(self.game).parse_options(options)

    def new_game(self, repetition_draw: bool = False) -> Game:
        """A game at the start under the match's options (`options`)."""
        return game_entry(self.game).new_game(self.options(repetition_draw))

    def player(self, spec: PlayerSpec | str, seed: int):
        return make_player(spec, PlayerContext(self.game, seed, self.sample, self.move_timeout_s))


def _check_int(name: str, flag: str, value, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} ({flag}) must be an integer >= {low}, got {value!r}")


def _check_seconds(name: str, flag: str, value) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not (math.isfinite(value) and value > 0)
    ):
        raise ValueError(f"{name} ({flag}) must be a positive number of seconds, got {value!r}")


def game_metrics(
    records: list[GameRecord], settings: Settings, repetition_draw: bool = False
) -> dict[str, list[float]]:
    """Each match metric of the game's definition (Hive: the Queen margin) for every game, from A's
    side: key -> one value per record, each game replayed under the match's options."""
    definition = game_entry(settings.game)
    if not definition.metrics:
        return {}
    options = settings.options(repetition_draw)
    finals = [definition.from_record(r.record, options) for r in records]
    return {
        metric.key: [metric.value(game, r.seat_of_a) for game, r in zip(finals, records)]
        for metric in definition.metrics
    }


def mean_ci95(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal-approximation interval."""
    n = len(values)
    mean = sum(values) / n
    sd = (sum((v - mean) ** 2 for v in values) / max(n - 1, 1)) ** 0.5
    half = 1.959964 * sd / n**0.5
    return mean, mean - half, mean + half


def random_opening(new_game: Callable[[], Game], plies: int, seed: int) -> list[int]:
    player = RandomPlayer(seed)
    game, moves = new_game(), []
    for _ in range(plies):
        if game.is_terminal:
            break
        moves.append(player.choose(game))
        game.play_id(moves[-1])
    return moves


def distinct_openings(new_game: Callable[[], Game], plies: int, count: int, seed: int) -> list[list[int]]:
    """``count`` random openings, all different while the game has that many (deterministic players
    would otherwise replay the same game, and the games would not be independent samples)."""
    openings, seen = [], set()
    for k in range(100 * count):
        opening = random_opening(new_game, plies, seed * 1_000_003 + k)
        if tuple(opening) not in seen:
            seen.add(tuple(opening))
            openings.append(opening)
            if len(openings) == count:
                return openings
    return [openings[k % len(openings)] for k in range(count)]


@dataclass(frozen=True)
class Chunk:
    """A worker's task: the games of ``openings`` (each with both seats) between ``a`` and ``b``."""

    match: int
    index: int
    a: PlayerSpec
    b: PlayerSpec
    openings: list


def play_chunk(chunk: Chunk, settings: Settings) -> tuple[Chunk, list[GameRecord]]:
    """Two games from each of the chunk's openings: A as seat 0, then as seat 1."""
    if chunk.a.checkpoint or chunk.b.checkpoint:
        import numba

        from hive_envs.players.checkpoint import set_torch_threads

        # small networks and one position at a time: more threads only fight the other workers (a
        # rule-feature kernel's parallel loop over one row spun 4 threads on 2 cores: 7x the CPU)
        set_torch_threads(settings.threads)
        most = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # numba sets its config at run time
        numba.set_num_threads(min(settings.threads, most))
    limits = SearchLimits(time_s=settings.move_time_s)
    repetition = settings.repetition_for((chunk.a, chunk.b))
    seeds = np.random.SeedSequence([settings.seed, chunk.match, chunk.index]).generate_state(2)
    a = settings.player(chunk.a, int(seeds[0]))
    try:
        b = settings.player(chunk.b, int(seeds[1]))
    except BaseException:
        a.close()
        raise
    log = (
        functools.partial(_log_game, settings=settings, repetition=repetition) if settings.log_games else None
    )
    try:
        for player in (a, b):
            if settings.move_time_s is not None and not keeps_move_time(player):
                raise ValueError(
                    f"{player.name} cannot keep --move-time {settings.move_time_s:g}: its network's features "
                    f"run a search on every position, which no time limit bounds; play it without "
                    f"--move-time, or search it by simulations (PATH@N)"
                )
        if settings.move_time_s is not None:  # every move is timed: kernels load now, not in the first
            warm_up(a)
            warm_up(b)
        freeze_long_lived_objects()  # each move is timed: no full collection scans the players (0.12 s)
        records = play_games(
            a, b, paired(chunk.openings), functools.partial(settings.new_game, repetition), limits, log
        )
    finally:
        a.close()
        b.close()
    return chunk, records


def _log_game(r: GameRecord, settings: Settings, repetition: bool) -> None:
    metrics = game_metrics([r], settings, repetition)
    extra = "".join(f" {key}={values[0]:+g}" for key, values in metrics.items())
    result = "forfeit " + r.forfeit if r.result_for_a is None else f"{int(r.result_for_a):+d}"
    print(
        f"game seat_of_a={r.seat_of_a} result_for_a={result} plies={r.plies}{extra} {r.reason}",
        file=sys.stderr,
        flush=True,
    )


def play_matches(
    pairs: Sequence[tuple[PlayerSpec | str, PlayerSpec | str]],
    games: int,
    settings: Settings,
    workers: int = 1,
    progress: bool = False,
) -> list[tuple[MatchResult, list[GameRecord]]]:
    """``games`` (even, >= 2) games for each pair (A, B), all pairs from the same opening book, spread
    over ``workers`` processes in chunks (a tqdm progress bar on stderr with ``progress``); each
    worker reads a checkpoint once (`players.checkpoint.read_checkpoint`), however many chunks it plays."""
    check_counts(games, workers)
    specs = [(parse_spec(a), parse_spec(b)) for a, b in pairs]
    openings = distinct_openings(settings.new_game, settings.opening_plies, games // 2, settings.seed)
    chunks = [
        Chunk(m, i // CHUNK_PAIRS, a, b, openings[i : i + CHUNK_PAIRS])
        for m, (a, b) in enumerate(specs)
        for i in range(0, len(openings), CHUNK_PAIRS)
    ]
    done: dict[tuple[int, int], list[GameRecord]] = {}
    with _progress_bar(len(specs) * games, progress) as bar:
        if workers == 1 or len(chunks) == 1:
            for chunk in chunks:
                _, done[chunk.match, chunk.index] = play_chunk(chunk, settings)
                bar.update(2 * len(chunk.openings))
        else:
            with ProcessPoolExecutor(min(workers, len(chunks)), mp_context=get_context("spawn")) as pool:
                futures = [pool.submit(play_chunk, chunk, settings) for chunk in chunks]
                try:
                    for future in as_completed(futures):
                        chunk, records = future.result()
                        done[chunk.match, chunk.index] = records
                        bar.update(len(records))
                except BaseException:
                    for future in futures:
                        future.cancel()
                    raise
    results = []
    for m, (a, b) in enumerate(specs):
        records = [r for c in chunks if c.match == m for r in done[m, c.index]]
        results.append((summarise(a.text, b.text, records, settings.move_time_s), records))
    return results


def check_counts(games, workers) -> None:
    """``games`` per match an even number >= 2, ``workers`` >= 1 (ValueError naming the flag)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(
            f"--games must be an even number >= 2 (each opening is played with both seats), got {games!r}"
        )
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"--workers must be an integer >= 1, got {workers!r}")


def _progress_bar(total: int, enabled: bool):
    """A tqdm bar on stderr, or with ``enabled`` False a bar that shows nothing (tqdm, of the ``train``
    extra, is then not imported)."""
    if not enabled:
        return contextlib.nullcontext(_NoBar())
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True)


class _NoBar:
    def update(self, n: int) -> None:
        pass


def play_match(
    spec_a: PlayerSpec | str,
    spec_b: PlayerSpec | str,
    games: int,
    settings: Settings,
    workers: int = 1,
    progress: bool = False,
) -> tuple[MatchResult, list[GameRecord]]:
    """``games`` (even, >= 2) games between A and B, spread over ``workers`` processes."""
    return play_matches([(spec_a, spec_b)], games, settings, workers, progress)[0]


def check_not_all_forfeited(result: MatchResult, records: list[GameRecord]) -> None:
    """A match in which no game reached a result measures nothing: a ValueError with the first reason."""
    if records and result.decided == 0:
        raise ValueError(
            f"{result.player} vs {result.opponent}: every game was forfeited, e.g. {records[0].reason} "
            "(an engine that needs a time limit takes --move-time)"
        )


def run(
    players: Sequence[PlayerSpec | str],
    opponents: Sequence[PlayerSpec | str],
    games: int,
    settings: Settings,
    workers: int = 1,
    out: str | None = None,
    progress: bool = False,
) -> dict:
    """Every player against every opponent; prints the table, writes the report to ``out``: its summary
    there, every game in its records file beside it (`evaluation.results_files`), and returns the
    report, games included.

    ValueError (after the report is written) when a match had no game with a result."""
    if out:
        check_writable(out, "--out")
    pairs = [(parse_spec(a), parse_spec(b)) for a in players for b in opponents]
    played = play_matches(pairs, games, settings, workers, progress)
    report: dict[str, Any] = {
        "game": settings.game,
        "game_options": settings.game_options,
        "opening_plies": settings.opening_plies,
        "seed": settings.seed,  # the opening book's (and the players' tie-break seeds')
        "move_time_s": settings.move_time_s,
        "matches": [],
    }
    for (a, b), (result, records) in zip(pairs, played):
        match = {
            **result.to_dict(),
            "repetition_draw": settings.repetition_for((a, b)),
            "games_played": [r.__dict__ for r in records],
        }
        for key, values in game_metrics(records, settings, match["repetition_draw"]).items():
            for row, value in zip(match["games_played"], values):
                row[key] = value
            match[key] = mean_ci95(values)
        report["matches"].append(match)
    print(format_table([result for result, _ in played], forfeits=True))
    for match in report["matches"]:
        for metric in game_entry(settings.game).metrics:
            mean, low, high = match[metric.key]
            print(
                f"{match['player']} vs {match['opponent']}: {metric.description} "
                f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"
            )
    for match in report["matches"]:
        for side, name in (("player", match["player"]), ("opponent", match["opponent"])):
            if side in match["move_seconds"]:
                times = match["move_seconds"][side]
                over = (
                    f", {times['over_limit']} over the {settings.move_time_s:g} s limit"
                    if "over_limit" in times
                    else ""
                )
                print(
                    f"{name}: move wall time median {times['median']:.3f} s, 99th percentile "
                    f"{times['p99']:.3f} s, longest {times['max']:.3f} s ({times['moves']} moves{over})"
                )
    for match in report["matches"]:
        forfeits = [g["reason"] for g in match["games_played"] if g["reason"]]
        if forfeits:
            print(f"{match['player']} vs {match['opponent']}: {len(forfeits)} forfeit(s), e.g. {forfeits[0]}")
    if out:
        write_report(out, report)
    for result, records in played:
        check_not_all_forfeited(result, records)
    return report


def settings_for(specs: list[PlayerSpec | str], **kwargs) -> Settings:
    game, options = game_of([parse_spec(spec) for spec in specs])
    return Settings(game=game, game_options=options, **kwargs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="hive-arena", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "player",
        help="random | greedy | alphabeta:D | alphabeta:T=S | PATH[@N | @T=S] | pretrained:NAME[@N | @T=S] | uhp:COMMAND",
    )
    parser.add_argument("opponents", nargs="+", help="one or more specs, each played against PLAYER")
    parser.add_argument("--games", type=int, default=20, help="games per match (even), half in each seat")
    parser.add_argument(
        "--opening-plies", type=int, default=2, help="random plies opening each pair of games"
    )
    parser.add_argument(
        "--move-time", type=float, help="seconds per move, sent as 'bestmove time' to every player"
    )
    add_move_timeout_argument(parser)
    parser.add_argument(
        "--max-turns", type=int, default=300, help="Hive: draw after this many plies (0: none)"
    )
    parser.add_argument(
        "--repetition-draw",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="Hive: the third occurrence of a position is a draw (default: on when a player is uhp:)",
    )
    parser.add_argument(
        "--sample", action="store_true", help="checkpoints sample their moves (default: argmax)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes playing games in parallel")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out",
        help="JSON output path (the summary; every game's record and move times go to "
        "records/NAME.json.gz beside it)",
    )
    parser.add_argument("--log-games", action="store_true", help="a line on stderr as each game ends")
    parser.add_argument("--progress", action="store_true", help="a progress bar on stderr")
    add_trust_env_module(parser)  # for checkpoints of such an env; with --workers 1 (workers start afresh)
    args = parser.parse_args(argv)

    def play() -> None:
        trust_env_modules(args.trust_env_module)
        player, *opponents = [parse_spec(spec) for spec in [args.player, *args.opponents]]
        settings = settings_for(
            [player, *opponents],
            opening_plies=args.opening_plies,
            move_time_s=args.move_time,
            move_timeout_s=args.move_timeout,
            max_turns=None if args.max_turns == 0 else args.max_turns,
            repetition_draw=args.repetition_draw,
            sample=args.sample,
            seed=args.seed,
            log_games=args.log_games,
        )
        run([player], opponents, args.games, settings, args.workers, args.out, args.progress)

    return exit_code(play)


if __name__ == "__main__":
    sys.exit(command(main)())
