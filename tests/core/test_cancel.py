"""Stopping a search from another thread (`hive_envs.core.cancel`): a set event ends a running timed
alpha-beta search and a PUCT search's loop early, each still answering a legal move."""

from __future__ import annotations

import threading
import time

from hive_envs.agents.search import Deadline
from hive_envs.core.cancel import cancellable, cancelled, clock
from hive_envs.hive import HiveAlphaBeta, HiveGame


def test_the_clock_jumps_ahead_only_for_the_thread_whose_event_is_set():
    stop = threading.Event()
    assert not cancelled() and abs(clock() - time.perf_counter()) < 1.0
    with cancellable(stop):
        assert not cancelled()
        stop.set()
        assert cancelled() and clock() - time.perf_counter() > 1e8
        seen = []
        other = threading.Thread(target=lambda: seen.append(cancelled()))
        other.start()
        other.join()
        assert seen == [False]  # another thread's searches are not stopped
    assert not cancelled()


def test_a_timed_alpha_beta_search_ends_soon_after_its_event_is_set():
    game = HiveGame()
    for move in ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"):
        game.play(move)
    searcher = HiveAlphaBeta()
    searcher.search(game, time_s=0.05)  # compiled before the clock below starts
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    started = time.perf_counter()
    with cancellable(stop):
        result = searcher.search(game, time_s=60.0)
    elapsed = time.perf_counter() - started
    assert elapsed < 10.0, elapsed  # not the 60 s it was given
    assert result.move_id in game.legal_move_ids().tolist()


def test_a_puct_deadline_passes_once_its_search_is_stopped_even_without_a_time_limit():
    stop = threading.Event()
    with cancellable(stop):
        deadline = Deadline(None, time.monotonic)
        assert not deadline.next_would_pass()
        stop.set()
        assert deadline.next_would_pass()
