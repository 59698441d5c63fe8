"""The page in a real browser (headless Chromium through selenium), served as ``hive-web`` serves it: a
whole Hive game by clicks against alphabeta:1, and replays of an arena report (its gzip records file)
and a ladder report, with the screenshots checked for the pieces' colours; a hostile report and a
hostile agent name shown as text, running nothing. Skipped, saying why, when selenium, chromium or chromedriver is not
installed (CI installs them: .ci/run). ``HIVE_WEB_SCREENSHOTS=DIR`` keeps the screenshots in DIR."""

from __future__ import annotations

import io
import json
import os
import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("flask")
webdriver = pytest.importorskip(
    "selenium.webdriver", reason="selenium is not installed (pip install selenium)"
)

from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from hive_envs.hive.render import BUG_COLOURS
from hive_envs.pretrained import pretrained_path
from hive_envs.training.results_files import read_records, records_path
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


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    agents = tmp_path_factory.mktemp("agents")  # offers a checkpoint whose file name is HTML
    (agents / f"{HOSTILE}.pt").write_bytes(pretrained_path("hoyito_2x6").read_bytes())
    tables = Tables(move_timeout_s=30.0, offer=Offer(agents=agents))
    httpd = make_server(create_app(tables), "127.0.0.1", 0, MAX_BODY)
    thread = threading.Thread(target=httpd.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{bound_addresses(httpd)[0][1]}/"
    httpd.close()
    tables.close()


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


def screenshot(driver, name: str) -> np.ndarray:
    png = driver.get_screenshot_as_png()
    folder = os.environ.get("HIVE_WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(png)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def pixels_of(image: np.ndarray, rgb) -> int:
    return int(np.all(np.abs(image.astype(int) - np.array(rgb)) <= 2, axis=-1).sum())


def error_text(driver) -> str:
    return driver.find_element(By.ID, "error").text


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
        state = browser.execute_script("return window.hiveApp.busy ? null : window.hiveApp.state")
        if state and state["ply"] > after_ply and (state["over"] or not state["computer_to_move"]):
            return state
        return None

    state, clicks = wait_for(lambda: settled(-1), "the new game"), 0
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
    assert state["ply"] in (2 * clicks - 1, 2 * clicks) and state["ply"] <= 24
    status = browser.find_element(By.ID, "status").text
    assert status == state["status"] and state["reason"] in status
    assert ("turn cap (24 plies)" in status) == (state["ply"] == 24 and state["winner"] is None)
    record = browser.find_element(By.ID, "record").get_attribute("value")
    assert record == state["record"]
    assert record.split(";")[1] == {"White": "WhiteWins", "Black": "BlackWins", None: "Draw"}[state["winner"]]
    image = screenshot(browser, "web_play.png")
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
    from hive_envs.training import arena

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


def test_a_hostile_agent_name_in_the_thoughts_is_shown_as_text_and_runs_nothing(server, browser):
    browser.get(server)
    wait_for(lambda: browser.execute_script("return window.hiveApp.meta !== null"), "the page to load")
    agent = f"agent:{HOSTILE}.pt"
    assert agent in browser.execute_script("return window.hiveApp.meta.agents")
    Select(browser.find_element(By.ID, "game-select")).select_by_value("hoyito")
    for seat, spec in ((0, agent), (1, "human")):
        box = browser.find_element(By.ID, f"player{seat}")
        box.clear()
        box.send_keys(spec)
    browser.find_element(By.ID, "new-game").click()
    shown = wait_for(
        lambda: browser.find_elements(By.CSS_SELECTOR, "#thoughts b"), "the agent's thoughts", 120
    )
    assert no_script_ran(browser)
    assert shown[0].text == agent
    assert not error_text(browser), error_text(browser)
