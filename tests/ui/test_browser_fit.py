"""Figures that fit, in a real browser: on the pages whose figures cut or overlapped text (the pipeline tour,
the event table's memory chart, the Distributed page's partition figure, the Sampling page's side-by-side
shares), in English and Korean, at 1440×900 and 1280×720, what chromium draws keeps every axis tick label
and axis title inside the figure's svg, no axis title over tick labels, no text annotation over another,
no Play/Pause button over its slider, and the tour's box text inside its box (getBoundingClientRect in
the page).

Same set-up as ``test_browser.py`` (Debian chromium driven by playwright's Python package against one
``streamlit run app.py``; skipped when either is missing; Korean needs a Hangul font). Each page is loaded
once per language and resized to the smaller window. Screenshots of every figure go to
tests/artifacts/fit_<page>_<lang>_<size>.png (the chart each page is here for; every chart on the page is
checked).
"""

from __future__ import annotations

import pytest

from tests.ui.test_browser import (ARGS, ARTIFACTS, CHROMIUM, _settle, needs_korean_font,  # noqa: F401
                                   server)  # (server: the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# page path → the chart (its streamlit key) that must be there and fit
PAGES = {"": "tour_figure", "Event_table": "memory_chart", "Distributed": "distributed_partition",
         "Sampling_and_imbalance": "sampling_shares"}
SIZES = ((1440, 900), (1280, 720))
TOUR_BOXES = 10  # two workers (the default): 8 stages, two of them one box per worker

# Every chart once its width follows the window (plotly redraws after a resize).
RESIZED = """() => [...document.querySelectorAll('.js-plotly-plot')].every(gd => gd._fullLayout
  && Math.abs(gd._fullLayout.width - gd.getBoundingClientRect().width) < 2)"""

# For every plotly chart on the page: its streamlit key, how many boxes with text it has, and what does not fit.
FIT = """() => {
  const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && el.textContent.trim() !== ''; };
  return [...document.querySelectorAll('.js-plotly-plot')].map(gd => {
    const svg = gd.querySelector('svg.main-svg').getBoundingClientRect();
    const bad = [];
    const ticks = [...gd.querySelectorAll('g[class$="tick"] text, g[class$="tick2"] text')].filter(shown);
    ticks.forEach(t => { if (!inside(t.getBoundingClientRect(), svg)) bad.push('tick label outside the figure: ' + t.textContent); });
    [...gd.querySelectorAll('text[class$="title"], text.gtitle')].filter(shown).forEach(t => {
      const r = t.getBoundingClientRect();
      if (!inside(r, svg)) bad.push('title outside the figure: ' + t.textContent);
      ticks.forEach(k => { if (overlap(r, k.getBoundingClientRect())) bad.push(`title "${t.textContent}" over tick label ${k.textContent}`); });
    });
    const anns = gd.layout.annotations || [];
    const texts = [...gd.querySelectorAll('g.annotation')]
      .map(a => ({i: +a.getAttribute('data-index'), el: a.querySelector('.annotation-text-g') || a}))
      .filter(a => anns[a.i] && anns[a.i].text && shown(a.el));
    texts.forEach((a, k) => {
      if (!inside(a.el.getBoundingClientRect(), svg)) bad.push('text outside the figure: ' + anns[a.i].text.slice(0, 40));
      texts.slice(k + 1).forEach(b => { if (overlap(a.el.getBoundingClientRect(), b.el.getBoundingClientRect()))
        bad.push(`text over text: ${anns[a.i].text.slice(0, 30)} / ${anns[b.i].text.slice(0, 30)}`); });
    });
    const rail = gd.querySelector('.slider-rail-rect');
    gd.querySelectorAll('.updatemenu-button').forEach(b => {
      if (rail && overlap(b.getBoundingClientRect(), rail.getBoundingClientRect())) bad.push('button over the slider: ' + b.textContent);
    });
    let boxes = 0;
    (gd.layout.shapes || []).forEach((s, k) => {
      const path = gd.querySelector(`.shapelayer path[data-index="${k}"]`);
      const label = texts.find(a => anns[a.i].xref === s.xref && anns[a.i].yref === s.yref
        && Math.abs(anns[a.i].x - (s.x0 + s.x1) / 2) < 1e-9 && Math.abs(anns[a.i].y - (s.y0 + s.y1) / 2) < 1e-9);
      if (s.type !== 'rect' || !path || !label) return;
      boxes += 1;
      const box = path.getBoundingClientRect(), text = label.el.getBoundingClientRect();
      if (!inside(text, box)) bad.push(`text of box ${s.name} outside it: text ${Math.round(text.width)}×${Math.round(text.height)}, `
        + `box ${Math.round(box.width)}×${Math.round(box.height)}`);
    });
    const host = gd.closest('[class*="st-key-"]');
    const key = host ? [...host.classList].find(c => c.startsWith('st-key-')).slice(7) : null;
    return {key, boxes, bad};
  });
}"""


def _measure(page) -> list[dict]:
    """FIT once plotly has settled: a resize redraws twice (the second pass with automargin's margins), so
    wait up to a few seconds for a clean result, then measure (and report whatever still does not fit)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"({FIT})().every(f => f.bad.length === 0)", timeout=5_000)
    except PlaywrightTimeout:
        pass  # the measurement below names what does not fit
    return page.evaluate(FIT)


def test_figures_keep_their_text_inside_in_both_languages_and_window_sizes(server):  # noqa: F811 (the fixture)
    from playwright.sync_api import sync_playwright

    needs_korean_font()
    url, _ = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    problems, seen = {}, {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport=dict(zip(("width", "height"), SIZES[0])))
        page.goto(url)  # "/" first: until then a fresh server lists pages/ without app.py
        _settle(page)
        for lang in ("en", "ko"):
            for path, key in PAGES.items():
                page.set_viewport_size(dict(zip(("width", "height"), SIZES[0])))
                page.goto(f"{url}/{path}?lang={lang}")
                _settle(page)
                page.wait_for_selector(f".st-key-{key} .js-plotly-plot .main-svg", timeout=90_000)
                # Streamlit's header floats over the page: out of the way of the figure screenshots.
                page.add_style_tag(content="header[data-testid=stHeader] {display: none !important}")
                for width, height in SIZES:
                    page.set_viewport_size({"width": width, "height": height})
                    page.wait_for_function(RESIZED, timeout=30_000)
                    name = f"{path or 'home'}_{lang}_{width}x{height}"
                    page.locator(f".st-key-{key}").screenshot(path=str(ARTIFACTS / f"fit_{name}.png"))
                    found = _measure(page)
                    seen[name] = {f["key"]: f["boxes"] for f in found}
                    problems.update({f"{name} {f['key']}": f["bad"] for f in found if f["bad"]})
        browser.close()
    # The checks ran on the charts they are about: each page's chart is there, the tour with all its boxes.
    for path, key in PAGES.items():
        for lang in ("en", "ko"):
            for width, height in SIZES:
                name = f"{path or 'home'}_{lang}_{width}x{height}"
                assert key in seen[name], (name, seen[name])
                assert path or seen[name][key] == TOUR_BOXES, (name, seen[name])
    assert not problems, "text that does not fit (screenshots: tests/artifacts/fit_*.png):\n" + "\n".join(
        f"{chart}: {', '.join(bad[:6])}{' …' if len(bad) > 6 else ''}" for chart, bad in problems.items())
