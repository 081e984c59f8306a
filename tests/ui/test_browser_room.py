"""A workshop room in real browsers: the teacher's page and three attendee pages on one server.

The teacher opens the Room page, gives the key, starts a room; three attendees open its link
(``/Lessons?room=CODE``), each answers lesson 1 (one changes their mind: the latest counts); the teacher's
chart shows the counts without a reload; the teacher reveals, and every attendee's page shows the run by
itself. Same set-up as ``test_browser.py`` (Debian chromium via playwright's Python package, skipped when
either is missing); waits are on the pages' contents, never sleeps.
"""

from __future__ import annotations

import os
import re
import signal

import pytest

from tests.ui.test_browser import ARGS, ARTIFACTS, CHROMIUM, _settle, needs_browser, start_streamlit

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KEY = "classroom-test-key"
ONCE, PER_WORKER = "12: each sample once", "12 × 2: every worker yields"
BARS = "() => { const p = document.querySelector('.js-plotly-plot'); return p && p._fullData ? p._fullData[0].x : null; }"


@pytest.fixture
def room_server(tmp_path):
    needs_browser()
    env = {**os.environ, "LOADERLAB_ROOM_DB": str(tmp_path / "rooms.sqlite3"), "LOADERLAB_TEACHER_KEY": KEY}
    url, proc = start_streamlit(env)
    yield url
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


def _give_key(page, key: str) -> None:
    box = page.get_by_label("Teacher key", exact=True)
    box.fill(key)
    box.press("Enter")  # the value reaches the server before the button's click
    _settle(page)
    page.get_by_role("button", name="Open the teacher view").click()
    _settle(page)


def _answer(page, choice: str) -> None:
    page.get_by_test_id("stRadio").get_by_text(choice).click()
    page.get_by_role("button", name="Check my answer with a real run").click()
    page.get_by_text(re.compile(r"Your answer went to room [A-Z0-9]{6}")).wait_for(timeout=60_000)


def test_the_teacher_sees_the_rooms_answers_and_reveals_the_run(room_server):
    from playwright.sync_api import sync_playwright

    url = room_server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        teacher = browser.new_context(viewport={"width": 1300, "height": 1100}).new_page()
        teacher.goto(url)  # "/" first: until then a fresh server lists pages/ without app.py
        _settle(teacher)
        teacher.goto(f"{url}/Room")
        _settle(teacher)
        _give_key(teacher, "not the key")
        teacher.get_by_text("That is not this server's teacher key.").wait_for(timeout=30_000)
        _give_key(teacher, KEY)
        teacher.get_by_role("button", name="Start a room").click()
        link = teacher.get_by_test_id("stCode").filter(has_text="/Lessons?room=")
        link.wait_for(timeout=30_000)
        code = re.search(r"room=([A-Z0-9]{6})", link.inner_text()).group(1)

        attendees = []
        for _ in range(3):  # a context each: three browser sessions, as three laptops would be
            page = browser.new_context(viewport={"width": 1300, "height": 1100}).new_page()
            page.goto(f"{url}/Lessons?room={code}&lesson=1&lang=en")
            _settle(page)
            page.get_by_text(f"You are in room {code}").wait_for(timeout=30_000)
            attendees.append(page)
        _answer(attendees[0], ONCE)
        _answer(attendees[1], PER_WORKER)
        _answer(attendees[2], ONCE)
        _answer(attendees[2], PER_WORKER)  # changed their mind: the latest counts
        for page in attendees:
            assert page.locator(".js-plotly-plot").count() == 0  # the run is held back

        teacher.wait_for_function(f"JSON.stringify(({BARS})()) === '[1,2,0]'", timeout=30_000)  # refreshes itself
        teacher.get_by_text("3 answers to lesson 1 so far").wait_for(timeout=10_000)
        teacher.screenshot(path=str(ARTIFACTS / "room_teacher.png"), full_page=True)
        teacher.get_by_role("button", name="Reveal the run to the room").click()
        teacher.get_by_text("Revealed: attendees who answered see the run now.").wait_for(timeout=30_000)

        for page in attendees:  # no click: the page notices the reveal and shows the run
            page.wait_for_selector(".js-plotly-plot", timeout=60_000)
            page.get_by_text("the run shows").or_(page.get_by_text("Right")).first.wait_for(timeout=30_000)
        attendees[0].screenshot(path=str(ARTIFACTS / "room_attendee_revealed.png"), full_page=True)
        browser.close()
