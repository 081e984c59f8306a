"""What one settings change costs an attendee's browser: bytes the server sent and the page's own CPU.

Shared by ``classroom_load.py`` (every attendee) and ``page_change_cost.py`` (one attendee, changes one at a
time). Both numbers are the browser's own count, so they hold when other work shares the machine:

- ``ws_bytes``: the payload bytes of the websocket frames the page received (Streamlit's forward messages:
  the page's elements, figures' JSON included), and ``ws_frames`` their number;
- ``task_s``: Chrome's ``TaskDuration`` for the page (``Performance.getMetrics`` over the DevTools protocol):
  the CPU time of the renderer's main thread — script, style, layout, paint set-up — and of it ``script_s``
  (``ScriptDuration``) and ``layout_s`` (``LayoutDuration`` + ``RecalcStyleDuration``). Rasterising and
  compositing run on other threads and are not in it (the browsers' process CPU, measured beside, has them).

Attach a :class:`PageMeter` before the page is opened (``page.goto``): the websocket is seen when it opens.
"""

from __future__ import annotations

METRICS = {"TaskDuration": "task_s", "ScriptDuration": "script_s", "LayoutDuration": "layout_s",
           "RecalcStyleDuration": "layout_s"}


class PageMeter:
    """Counters of one playwright page (async API): websocket bytes in, and the renderer's CPU."""

    def __init__(self) -> None:
        self.ws_bytes = 0
        self.ws_frames = 0
        self._cdp = None

    def _frame(self, payload) -> None:
        self.ws_bytes += len(payload)
        self.ws_frames += 1

    def _socket(self, ws) -> None:
        if "_stcore/stream" in ws.url:
            ws.on("framereceived", self._frame)

    async def attach(self, page) -> "PageMeter":
        page.on("websocket", self._socket)
        self._cdp = await page.context.new_cdp_session(page)
        await self._cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        return self

    async def read(self) -> dict:
        """The counters now (take two readings and subtract them: :func:`delta`)."""
        got = await self._cdp.send("Performance.getMetrics")
        out = {"ws_bytes": self.ws_bytes, "ws_frames": self.ws_frames, "task_s": 0.0, "script_s": 0.0, "layout_s": 0.0}
        for m in got["metrics"]:
            if m["name"] in METRICS:
                out[METRICS[m["name"]]] += m["value"]
        return out


def delta(after: dict, before: dict) -> dict:
    return {k: round(after[k] - before[k], 4) for k in after}
