"""The page in a real browser (headless Chromium through selenium), served as ``hive-web`` serves it
(waitress): a whole Hive game by clicks against alphabeta:1, replays of an arena report (its gzip
records file) and a ladder report, the thoughts panel of the search that chose a move drawn on the position before it, the last
move's origin and destination, the turn-numbered move list, Pause for two computers, New game while a
computer thinks or when it fails, only playable games listed, a layout that holds long names and
errors, zoom and pan of a tall hive, and the warm-up notice; the screenshots are checked for the
pieces' colours; a hostile report and a hostile agent name are shown as text, running nothing.
Skipped, saying why, when selenium, chromium or chromedriver is not installed (CI installs them:
.ci/run). ``HIVE_WEB_SCREENSHOTS=DIR`` keeps the screenshots in DIR."""

from __future__ import annotations

import io
import json
import os
import shutil
import threading
import time
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("flask")
webdriver = pytest.importorskip(
    "selenium.webdriver", reason="selenium is not installed (pip install selenium)"
)

from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from hive_envs.evaluation.results_files import read_records, records_path
from hive_envs.games import GAMES
from hive_envs.hive import HiveGame
from hive_envs.hive.render import BUG_COLOURS
from hive_envs.pretrained import pretrained_path
from hive_envs.web.compiling import FRESH_INSTALL_COMPILE_S, compile_watch
from hive_envs.web.server import MAX_BODY, create_app
from hive_envs.web.serving import bound_addresses, make_server
from hive_envs.web.tables import Tables
from hive_envs.web.trust import Offer

ROOT = Path(__file__).resolve().parents[2]
LADDER = ROOT / "docs" / "results" / "ladder_hive_base.json"
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    BROWSER is None or DRIVER is None,
    reason="no chromium / chromedriver on PATH (apt-get install chromium chromium-driver)",
)


HOSTILE = "<img src=x onerror=window.pwned=1>"  # runs its onerror wherever it is inserted as HTML


@dataclass
class Served:
    url: str
    tables: Tables


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    agents = tmp_path_factory.mktemp("agents")  # offers a checkpoint whose file name is HTML
    (agents / f"{HOSTILE}.pt").write_bytes(pretrained_path("hoyito_2x6").read_bytes())
    tables = Tables(move_timeout_s=30.0, offer=Offer(agents=agents))
    httpd = make_server(create_app(tables), "127.0.0.1", 0, MAX_BODY)
    thread = threading.Thread(target=httpd.run, daemon=True)
    thread.start()
    yield Served(f"http://127.0.0.1:{bound_addresses(httpd)[0][1]}/", tables)
    httpd.close()
    tables.close()


@pytest.fixture
def server(served):
    return served.url


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = BROWSER
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_script_timeout(30)
    yield driver
    driver.quit()


def wait_for(condition, what: str, timeout_s: float = 60.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def screenshot(driver, name: str | None = None) -> np.ndarray:
    """The window as pixels, kept as ``name`` in ``HIVE_WEB_SCREENSHOTS`` when both are given (the
    pictures of docs/play.md)."""
    png = driver.get_screenshot_as_png()
    folder = os.environ.get("HIVE_WEB_SCREENSHOTS")
    if folder and name:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(png)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def pixels_of(image: np.ndarray, rgb) -> int:
    return int(np.all(np.abs(image.astype(int) - np.array(rgb)) <= 2, axis=-1).sum())


def error_text(driver) -> str:
    return driver.find_element(By.ID, "error").text


def check_last_move_and_move_list(browser, state) -> int:
    """The main board marks the last move's destination and, for a moved piece, its origin; the move
    list numbers Hive's turns (``1. wS1 bS1 -wS1``); the status line is shown once. 1 if an origin was
    marked, else 0."""
    board = browser.find_element(By.ID, "board")
    to = [e.get_attribute("data-cell") for e in board.find_elements(By.CSS_SELECTOR, ".last-to")]
    came = [e.get_attribute("data-cell") for e in board.find_elements(By.CSS_SELECTOR, ".last-from")]
    cell = lambda qr: [f"{qr[0]},{qr[1]}"] if qr else []
    assert to == cell(state["last"]) and came == cell(state["last_from"])
    played = state["record"].split(";")[3:]
    rows = [
        [span.text for span in row.find_elements(By.TAG_NAME, "span")]
        for row in browser.find_elements(By.CSS_SELECTOR, "#move-list li")
    ]
    assert rows == [[f"{i // 2 + 1}.", *played[i : i + 2]] for i in range(0, len(played), 2)]
    page = browser.find_element(By.TAG_NAME, "body").text
    assert page.count(state["status"]) == 1
    return len(came)


def test_a_whole_hive_game_is_played_by_clicks_against_alphabeta_1(server, browser):
    browser.get(server)
    wait_for(lambda: browser.execute_script("return window.hiveApp.meta !== null"), "the page to load")
    browser.find_element(By.ID, "player1").clear()
    browser.find_element(By.ID, "player1").send_keys("alphabeta:1")
    cap = browser.find_element(By.ID, "option-max_turns")
    cap.clear()
    cap.send_keys("24")  # a turn cap keeps the game short; it still ends by the rules
    browser.find_element(By.ID, "new-game").click()

    def settled(after_ply: int):
        state = browser.execute_script("return window.hiveApp.pending ? null : window.hiveApp.state")
        if state and state["ply"] > after_ply and (state["over"] or not state["computer_to_move"]):
            return state
        return None

    state, clicks, moved_from = wait_for(lambda: settled(-1), "the new game"), 0, 0
    while not state["over"]:
        assert not error_text(browser), error_text(browser)
        move = state["moves"][0]  # the first listed: the test is of the clicks, not of the play
        if move.get("piece") is None:
            browser.find_element(By.ID, "pass").click()
        else:
            browser.find_element(By.CSS_SELECTOR, f'[data-piece="{move["piece"]}"]').click()
            browser.find_element(By.CSS_SELECTOR, f'[data-dest="{move["to"][0]},{move["to"][1]}"]').click()
        clicks += 1
        state = wait_for(lambda ply=state["ply"]: settled(ply), f"the reply to move {clicks}")
        moved_from += check_last_move_and_move_list(browser, state)
    assert moved_from > 0  # some move took a piece from one cell to another, and both were marked
    assert state["ply"] in (2 * clicks - 1, 2 * clicks) and state["ply"] <= 24
    status = browser.find_element(By.ID, "status").text
    assert status == state["status"] and state["reason"] in status
    assert ("turn cap (24 plies)" in status) == (state["ply"] == 24 and state["winner"] is None)
    record = browser.find_element(By.ID, "record").get_attribute("value")
    assert record == state["record"]
    assert record.split(";")[1] == {"White": "WhiteWins", "Black": "BlackWins", None: "Draw"}[state["winner"]]
    image = screenshot(browser)
    assert pixels_of(image, BUG_COLOURS["Q"]) > 200  # both Queens (placed by move 4) are drawn
    assert pixels_of(image, (245, 240, 225)) > 500 and pixels_of(image, (40, 40, 40)) > 500  # both colours


def test_an_illegal_request_shows_its_message_on_the_page(server, browser):
    browser.get(server)
    wait_for(lambda: browser.execute_script("return window.hiveApp.meta !== null"), "the page to load")
    browser.find_element(By.ID, "player1").clear()
    browser.find_element(By.ID, "player1").send_keys("alphabeta:zero")
    browser.find_element(By.ID, "new-game").click()
    message = wait_for(lambda: error_text(browser), "the error message")
    assert "alphabeta:zero" in message


def test_an_arena_report_and_a_ladder_report_are_replayed(server, browser, tmp_path):
    from hive_envs.evaluation import arena

    out = tmp_path / "arena.json"
    arena.run(["greedy"], ["alphabeta:1"], 2, arena.Settings(game="hive", opening_plies=0), out=str(out))
    games = read_records(out)["matches"][0]["games_played"]
    browser.get(server)
    wait_for(lambda: browser.execute_script("return window.hiveApp.meta !== null"), "the page to load")
    browser.find_element(By.ID, "tab-replay").click()
    # its records file (gzip), unpacked by the page and opened as soon as it is chosen
    browser.find_element(By.ID, "replay-file").send_keys(str(records_path(out)))
    rows = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#games tr.game"), "the games table")
    assert len(rows) == 2
    wait_for(
        lambda: browser.execute_script("return window.hiveApp.replay.current === 0 && !window.hiveApp.busy"),
        "the first game to be shown",
    )
    rows[1].click()
    frames = wait_for(
        lambda: browser.execute_script(
            "const r = window.hiveApp.replay; return r.current === 1 ? r.frames.length : 0"
        ),
        "the second game's frames",
    )
    assert frames == games[1]["plies"] + 1
    label = browser.find_element(By.ID, "ply-label")
    assert label.text.startswith(f"ply {frames - 1} / {frames - 1}")
    browser.execute_script("document.activeElement.blur()")  # keys go to the page, not the file box
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("\ue011")  # Home
    assert label.text == f"ply 0 / {frames - 1}"
    body.send_keys("\ue014", "\ue014")  # two right arrows
    assert label.text.startswith(f"ply 2 / {frames - 1}: ")
    browser.find_element(By.ID, "prev").click()
    assert label.text == f"ply 1 / {frames - 1}: {games[1]['record'].split(';')[3]}"
    browser.find_element(By.ID, "last").click()
    image = screenshot(browser, "web_replay.png")
    assert pixels_of(image, BUG_COLOURS["Q"]) > 200
    assert pixels_of(image, (245, 240, 225)) > 500 and pixels_of(image, (40, 40, 40)) > 500

    browser.find_element(By.ID, "replay-file").send_keys(str(LADDER))
    count = len(json.loads(LADDER.read_text())["pairs"])
    wait_for(
        lambda: len(browser.find_elements(By.CSS_SELECTOR, "#pairs tr")) == count + 1, "the ladder's pairs"
    )
    assert "ladder report" in browser.find_element(By.ID, "replay-source").text


# ---------------------------------------------------------------- the page a player and a researcher trust
def open_page(browser, url: str) -> None:
    browser.get(url)
    wait_for(lambda: browser.execute_script("return window.hiveApp.meta !== null"), "the page to load")


def start_game(browser, players, game: str = "hive", **options) -> None:
    """Choose ``game``, its ``options`` and the ``players`` on the page, and press New game."""
    Select(browser.find_element(By.ID, "game-select")).select_by_value(game)
    for name, value in options.items():
        box = browser.find_element(By.ID, f"option-{name}")
        box.clear()
        box.send_keys(str(value))
    for seat, spec in enumerate(players):
        box = browser.find_element(By.ID, f"player{seat}")
        box.clear()
        box.send_keys(spec)
    browser.find_element(By.ID, "new-game").click()


def page_state(browser):
    return browser.execute_script("return window.hiveApp.state")


def cells(board, selector: str) -> list[str]:
    return [e.get_attribute("data-cell") for e in board.find_elements(By.CSS_SELECTOR, selector)]


def click_move(browser, move: dict) -> None:
    """Play ``move`` (a Hive move of the state's list) by its clicks, or Pass."""
    if move.get("piece") is None:
        browser.find_element(By.ID, "pass").click()
        return
    browser.find_element(By.CSS_SELECTOR, f'[data-piece="{move["piece"]}"]').click()
    browser.find_element(By.CSS_SELECTOR, f'[data-dest="{move["to"][0]},{move["to"][1]}"]').click()


def test_the_thoughts_are_the_moves_search_drawn_on_the_position_before_it(served, browser):
    open_page(browser, served.url)
    start_game(browser, ["human", "pretrained:hive_base@T=0.3"])
    state = wait_for(lambda: page_state(browser), "the new game")
    for ply in range(2, 10, 2):  # four moves each, into the middle game
        click_move(browser, state["moves"][0])
        state = wait_for(
            lambda ply=ply: (s := page_state(browser))["ply"] == ply and not s["computer_to_move"] and s,
            "the computer's reply",
        )
    panel = browser.execute_script("return window.hiveApp.thoughts.t")
    state = page_state(browser)
    assert panel["kind"] == "tree" and panel["played"] == state["last_move"] == state["record"].split(";")[-1]
    assert 0 < panel["simulations"] < 100_000  # the simulations it ran, not the cap of a search by time
    head = browser.find_element(By.ID, "thoughts-head").text
    assert f"played {panel['played']}: {panel['simulations']} simulations" in head and "100000" not in head
    table = browser.find_elements(By.CSS_SELECTOR, "#thoughts-table tr")[1:]
    assert [int(row.find_elements(By.TAG_NAME, "td")[2].text) for row in table] == [
        m["visits"] for m in panel["moves"]
    ]
    assert [row.get_attribute("class") == "played" for row in table] == [m["played"] for m in panel["moves"]]
    # drawn on the position before the move, the move played from there
    before = HiveGame.from_gamestring(state["record"])
    before.undo()
    thoughts_board = browser.find_element(By.ID, "thoughts-board")
    tiles = [t.get_attribute("data-piece") for t in thoughts_board.find_elements(By.CSS_SELECTOR, ".tile")]
    assert sorted(tiles) == sorted(names[-1] for names in before.stacks().values())
    now = [t.get_attribute("data-piece") for t in browser.find_elements(By.CSS_SELECTOR, "#board .tile")]
    assert sorted(now) == sorted(s["pieces"][-1] for s in state["stacks"]) != sorted(tiles)
    (played,) = thoughts_board.find_elements(By.CSS_SELECTOR, ".thought.played")
    row = next(m for m in panel["moves"] if m["played"])
    assert played.get_attribute("data-move") == panel["played"]
    assert played.get_attribute("data-cell") == f"{row['to'][0]},{row['to'][1]}"
    assert cells(browser.find_element(By.ID, "board"), ".last-to") == [
        f"{state['last'][0]},{state['last'][1]}"
    ]
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .thought")  # none on the position after
    browser.set_window_size(1780, 1000)  # the thoughts panel beside the board, for the screenshot
    try:
        image = screenshot(browser, "web_play.png")
    finally:
        browser.set_window_size(1280, 900)
    assert pixels_of(image, (255, 140, 0)) > 100  # the move played, in orange


def test_pause_stops_two_computers_and_resume_lets_them_go_on(served, browser):
    open_page(browser, served.url)
    start_game(browser, ["random", "random"], max_turns=200)
    wait_for(lambda: (page_state(browser) or {}).get("ply", 0) >= 4, "a few moves")
    pause = browser.find_element(By.ID, "pause")
    pause.click()
    wait_for(lambda: browser.execute_script("return window.hiveApp.pending === null"), "the move in flight")
    ply = page_state(browser)["ply"]
    time.sleep(1.5)
    assert page_state(browser)["ply"] == ply and pause.text == "Resume"
    assert browser.find_element(By.ID, "status").text.endswith("(paused)")
    pause.click()
    wait_for(lambda: page_state(browser)["ply"] > ply, "the computers to go on")
    assert pause.text == "Pause"


def test_new_game_while_a_computer_thinks_leaves_the_old_game(served, browser):
    open_page(browser, served.url)
    start_game(browser, ["alphabeta:T=3", "human"])
    wait_for(
        lambda: browser.execute_script("return window.hiveApp.pending !== null"), "the computer to think"
    )
    old = page_state(browser)["id"]
    table = served.tables._tables[old]
    began = time.monotonic()
    start_game(browser, ["human", "human"], game="hoyito")
    wait_for(lambda: page_state(browser)["game"] == "hoyito", "the new game")
    assert time.monotonic() - began < 2.5  # not after the 3 s move
    wait_for(lambda: table.closed, "the old game's players to be closed once its move ended", 10)
    state = page_state(browser)
    assert state["game"] == "hoyito" and state["ply"] == 0  # the old move's answer was dropped
    assert old not in served.tables._tables
    assert not error_text(browser)


def test_a_failed_new_game_gives_the_page_back_to_the_game_before(served, browser):
    open_page(browser, served.url)
    start_game(browser, ["human", "human"], game="hoyito")
    wait_for(lambda: page_state(browser), "the first game")
    browser.find_element(By.CSS_SELECTOR, '[data-move="2"]').click()
    wait_for(lambda: page_state(browser)["ply"] == 1, "the move")
    before = page_state(browser)
    start_game(browser, ["human", "alphabeta:zero"], game="hoyito")
    message = wait_for(lambda: error_text(browser), "the error message")
    assert "New game failed" in message and "alphabeta:zero" in message and "the one before" in message
    button = browser.find_element(By.ID, "new-game")
    assert button.text == "New game" and button.is_enabled()
    assert browser.find_element(By.ID, "status").text == before["status"]
    assert page_state(browser)["id"] == before["id"]


def test_only_games_the_page_can_draw_are_offered(served, browser):
    open_page(browser, served.url)
    offered = [
        o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#game-select option")
    ]
    assert offered == [name for name, entry in GAMES.items() if entry.ref("web_board") is not None]
    assert "aec" in GAMES and "aec" not in offered


def test_long_player_names_and_long_errors_keep_the_layout(served, browser, tmp_path):
    from hive_envs.evaluation import arena

    out = tmp_path / "arena.json"
    arena.run(["random"], ["greedy"], 2, arena.Settings(game="hive", opening_plies=0), out=str(out))
    report = read_records(out)  # the whole report, its games included
    report["matches"][0]["player"] = "pretrained:" + "a_very_long_checkpoint_name_" * 6 + "@T=0.5"
    report["matches"][0]["opponent"] = "/home/someone/runs/" + "x" * 150 + ".pt@64"
    long = tmp_path / "long.json"
    long.write_text(json.dumps(report))
    open_page(browser, served.url)
    browser.find_element(By.ID, "tab-replay").click()
    browser.find_element(By.ID, "replay-file").send_keys(str(long))
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#games tr.game"), "the games table")
    board = browser.find_element(By.ID, "board-area").rect
    for part in ("replay-panel", "games", "pairs"):  # the tables wrap in their column
        rect = browser.find_element(By.ID, part).rect
        assert rect["x"] + rect["width"] <= board["x"], part
    assert board["y"] < 200  # the board is still beside the panel, not pushed under it
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    browser.find_element(By.ID, "tab-play").click()
    start_game(browser, ["human", "uhp:" + "/no/such/engine/" * 40])
    wait_for(lambda: error_text(browser), "the error message")
    box = browser.find_element(By.ID, "error")
    assert browser.execute_script("const e = arguments[0]; return e.scrollWidth <= e.clientWidth + 1", box)
    assert box.rect["x"] + box.rect["width"] <= browser.execute_script("return window.innerWidth")


def tall_hive(plies: int = 24) -> str:
    """A GameString whose hive grows as tall as it can: each ply the move that most widens its rows."""
    game = HiveGame()
    for _ in range(plies):
        scored = []
        for move in game.legal_move_ids().tolist():
            game.play_id(move)
            rows = [r for _, r in game.stacks()]
            scored.append((max(rows) - min(rows), -move))
            game.undo()
        game.play_id(-max(scored)[1])
    return game.record()


def test_a_tall_hive_keeps_its_tiles_readable_and_is_zoomed_and_panned(served, browser):
    open_page(browser, served.url)
    browser.find_element(By.ID, "tab-replay").click()
    box = browser.find_element(By.ID, "replay-text")
    box.send_keys(tall_hive())
    browser.find_element(By.ID, "replay-open").click()
    wait_for(lambda: browser.execute_script("return window.hiveApp.replay.frames.length > 0"), "the replay")
    board = browser.find_element(By.ID, "board")
    tiles = board.find_elements(By.CSS_SELECTOR, ".tile")
    heights = [t.rect["height"] for t in tiles]
    assert min(heights) >= 50  # a tile, point to point: the fitted size's floor
    labels = board.find_elements(By.CSS_SELECTOR, ".tile .tile-label")
    assert min(float(t.get_attribute("font-size")) for t in labels) >= 14
    view = board.rect
    outside = [
        t
        for t in tiles
        if t.rect["y"] + t.rect["height"] / 2 > view["y"] + view["height"]
        or t.rect["y"] + t.rect["height"] / 2 < view["y"]
    ]
    assert outside  # too tall for the board at that size: the rest is reached by panning
    first = tiles[0].rect
    ActionChains(browser).move_to_element(board).click_and_hold().move_by_offset(0, -150).release().perform()
    moved = tiles[0].rect
    assert abs(moved["y"] - (first["y"] - 150)) < 3 and abs(moved["x"] - first["x"]) < 3
    browser.find_element(By.ID, "zoom-out").click()
    assert browser.find_element(By.ID, "zoom-level").text == "80%"
    assert tiles[0].rect["height"] == pytest.approx(0.8 * first["height"], abs=1)
    browser.find_element(By.ID, "zoom-fit").click()
    assert browser.find_element(By.ID, "zoom-level").text == "100%" and tiles[0].rect == first


def test_a_compilation_during_a_request_is_announced_as_a_warm_up(served, browser):
    open_page(browser, served.url)
    start_game(browser, ["alphabeta:T=3", "human"])
    wait_for(
        lambda: browser.execute_script("return window.hiveApp.pending !== null"), "the computer to think"
    )
    watch = compile_watch()
    kernel = types.SimpleNamespace(data={"dispatcher": types.SimpleNamespace(py_func=tall_hive)})
    watch.on_start(kernel)  # as numba announces a compilation (tests/web/test_compiling.py: a real one)
    try:
        notice = browser.find_element(By.ID, "notice")
        wait_for(lambda: notice.is_displayed(), "the warm-up notice", 5)
        assert f"compiling, ~{FRESH_INSTALL_COMPILE_S} s, once" in notice.text and "cache" in notice.text
    finally:
        watch.on_end(kernel)
    wait_for(lambda: not notice.is_displayed(), "the notice to go", 10)


def no_script_ran(driver) -> bool:
    time.sleep(0.5)  # an image that fails to load runs its onerror a moment after it is inserted
    return driver.execute_script(
        "return window.pwned === undefined && document.querySelectorAll('img').length === 0"
    )


def test_a_hostile_report_is_shown_as_text_and_runs_nothing(server, browser):
    record = "Base;InProgress;White[2];wS1;bS1 wS1-"
    report = {
        "game": "hive",
        "game_options": {},
        "matches": [
            {
                "player": HOSTILE,
                "opponent": "<b>bold</b>",
                "games": 1,
                "wins": 0,
                "draws": 0,
                "losses": 0,
                "mean_length": 2,
                "games_played": [
                    {
                        "seat_of_a": 0,
                        "result_for_a": None,
                        "plies": 2,
                        "reason": f'x" onmouseover="{HOSTILE}',
                        "record": record,
                    }
                ],
            }
        ],
    }
    browser.get(server)
    wait_for(lambda: browser.execute_script("return window.hiveApp.meta !== null"), "the page to load")
    browser.find_element(By.ID, "tab-replay").click()
    browser.execute_script("document.getElementById('replay-text').value = arguments[0]", json.dumps(report))
    browser.find_element(By.ID, "replay-open").click()
    rows = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#games tr.game"), "the games table")
    assert no_script_ran(browser)
    pair = [cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "#pairs td")]
    assert pair[:2] == [HOSTILE, "<b>bold</b>"]
    game = [cell.text for cell in rows[0].find_elements(By.TAG_NAME, "td")]
    assert game[1:3] == [HOSTILE, "<b>bold</b>"]
    assert rows[0].get_attribute("title") == f'x" onmouseover="{HOSTILE}'
    assert rows[0].get_attribute("onmouseover") is None
    assert not error_text(browser), error_text(browser)


def test_a_hostile_agent_name_in_the_thoughts_is_shown_as_text_and_runs_nothing(served, browser):
    open_page(browser, served.url)
    agent = f"agent:{HOSTILE}.pt"
    assert agent in browser.execute_script("return window.hiveApp.meta.agents")
    start_game(browser, [agent, "human"], game="hoyito")
    head = browser.find_element(By.ID, "thoughts-head")
    wait_for(lambda: head.text, "the agent's thoughts", 120)
    assert no_script_ran(browser)
    assert head.text.startswith(f"{agent} played ")
    assert browser.execute_script("return window.hiveApp.thoughts.t.player") == agent
    assert not error_text(browser), error_text(browser)


def test_a_game_added_by_its_definition_is_drawn_by_the_script_it_names(served, browser, nim_registered):
    """The tests' Nim, registered in the server's process: the page lists it with its seats, loads its
    drawing by name and plays it by clicks, with no edit of the page."""
    open_page(browser, served.url)
    start_game(browser, ["human", "alphabeta:2"], game="nim", pile=6)
    assert browser.find_element(By.ID, "seat0-name").text == "First (seat 0)"
    wait_for(lambda: (page_state(browser) or {}).get("game") == "nim", "the Nim game")
    board = browser.find_element(By.ID, "board")
    assert len(board.find_elements(By.CSS_SELECTOR, "circle.stone")) == 6
    board.find_element(By.CSS_SELECTOR, 'g.move[data-move="take 2"]').click()
    wait_for(lambda: page_state(browser)["ply"] >= 2, "the move and alphabeta:2's reply")
    state = page_state(browser)
    assert (
        state["record"].startswith("2,")
        and len(board.find_elements(By.CSS_SELECTOR, "circle.stone")) == state["stones"]
    )
