"""The UHP client bounds what an engine prints before keeping it: an endless line, an endless
answer or bytes that are not text end the session with a clear `UHPEngineError`, never memory."""

import sys
import time

import pytest

from hive_envs.uhp_client import MAX_ANSWER_CHARS, MAX_LINE_CHARS, UHPClient, UHPEngineError

INFO = "print('id fake 1.0'); print('ok', flush=True)"


def engine(body: str) -> list[str]:
    """A Python engine process running ``body`` (a list: no shell involved)."""
    return [sys.executable, "-c", f"import sys, time\n{body}"]


def test_an_endless_line_at_start_up_is_refused_at_once():
    started = time.monotonic()
    with pytest.raises(UHPEngineError, match=f"printed a line longer than {MAX_LINE_CHARS} characters"):
        UHPClient(engine("sys.stdout.write('0' * 300_000); sys.stdout.flush(); time.sleep(60)"), 30)
    assert time.monotonic() - started < 10  # not the 30 s start-up wait


def test_cat_dev_zero_is_refused_not_read():
    with pytest.raises(UHPEngineError, match="longer than"):
        UHPClient("cat /dev/zero", startup_timeout_s=30)


def test_an_endless_line_in_an_answer_ends_the_session_and_says_why_each_time():
    body = (
        f"{INFO}\nsys.stdin.readline(); sys.stdout.write('x' * 200_000); sys.stdout.flush(); time.sleep(60)"
    )
    client = UHPClient(engine(body), timeout_s=30)
    try:
        for _ in range(2):  # the reader stopped: every later command says so at once
            with pytest.raises(
                UHPEngineError, match="longer than 65536 characters while answering 'newgame Base'"
            ):
                client.newgame("Base")
    finally:
        client.close(grace_s=0.5)


def test_an_answer_of_endless_short_lines_is_refused():
    body = f"{INFO}\nsys.stdin.readline()\nwhile True: print('y' * 1000, flush=True)"
    client = UHPClient(engine(body), timeout_s=30)
    try:
        with pytest.raises(UHPEngineError, match=f"more than {MAX_ANSWER_CHARS} characters and no 'ok'"):
            client.send("validmoves")
    finally:
        client.close(grace_s=0.5)


def test_bytes_that_are_not_text_are_read_as_replacement_characters():
    body = "sys.stdout.buffer.write(b'id \\xff\\xfe engine\\nok\\n'); sys.stdout.flush(); time.sleep(60)"
    client = UHPClient(engine(body), startup_timeout_s=10)
    try:
        assert client.id == "\ufffd\ufffd engine"
    finally:
        client.close(grace_s=0.5)


def test_a_long_stderr_line_is_cut():
    body = "sys.stderr.write('e' * 300_000 + '\\nlast\\n'); sys.stderr.flush(); time.sleep(0.5)"
    with pytest.raises(UHPEngineError) as error:
        UHPClient(engine(body), startup_timeout_s=10)
    message = str(error.value)
    assert "e" * MAX_LINE_CHARS + " [cut] | last" in message and "e" * (MAX_LINE_CHARS + 1) not in message
