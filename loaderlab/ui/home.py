"""The home page, a pipeline tour: one batch's path through the loader, stepping batch by batch.

Wiring only: the shared sidebar → the cached run → :mod:`loaderlab.figures.tour` → one figure, one note and
one explanation per stage, and links to the other pages. Words come from :mod:`loaderlab.ui.texts.tour`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

from ..figures.tour import (
    BOX_NAME_KEYS,
    BOXES,
    NOTE_KEYS,
    SEGMENTS,
    journey_notes,
    tour_figure,
)
from ..trace.tables.journey import batch_journey, handed_batches
from .language import page_setup
from .outcome import show_warnings
from .settings import cached_run, sidebar_config, torch_code
from .texts import EN, bound, language, t  # EN: which pages have a link text yet

PAGES = Path(__file__).resolve().parents[2] / "pages"
LESSONS_PAGE = "0_Lessons"  # the workshop's lesson path, linked prominently at the top


def _clamp(key: str, options: list[int]) -> None:
    """A choice the new run no longer has (fewer batches) falls back to the nearest one it has."""
    if st.session_state.get(key) not in options:
        current = st.session_state.get(key, options[0])
        st.session_state[key] = min(options, key=lambda o: abs(o - current))


def _pick(frame) -> tuple[int, int] | None:
    handed = handed_batches(frame)
    if not len(handed):
        return None
    epochs = sorted(int(e) for e in handed["epoch"].unique())
    epoch = epochs[0]
    if len(epochs) > 1:
        _clamp("tour_epoch", epochs)
        epoch = st.radio(t("tour.epoch"), epochs, key="tour_epoch", horizontal=True)
    batches = sorted(int(b) for b in handed[handed["epoch"] == epoch]["batch"])
    _clamp("tour_batch", batches)
    if len(batches) == 1:
        return epoch, batches[0]
    return epoch, st.select_slider(t("tour.pick"), batches, key="tour_batch")


def run_stamp(run) -> tuple[int, int]:
    """Which recording of its settings ``run`` is: its first event's clock and its number of events (a run
    dropped from the cache and made again is another run, with other times)."""
    return (int(run.events["t_ns"].iloc[0]) if len(run.events) else 0), len(run.events)


@st.cache_resource(max_entries=64, show_spinner=False)
def tour_view(_frame, config, stamp: tuple[int, int], lang: str, epoch: int,
              batch: int) -> tuple[dict[str, str], go.Figure]:
    """One batch's notes and figure, shared by every session with the same run, language and batch (a room on
    the default settings draws it once). ``_frame`` is the run of ``config`` that ``stamp`` names (not
    hashed: hashing the table would cost about what drawing does). Kept as a resource, not copied per
    session: nothing changes a figure after it is made (st.plotly_chart only reads it)."""
    say = bound(lang)
    journey = batch_journey(_frame, epoch, batch)
    notes = journey_notes(journey, {k: say(f"tour.note.{k}") for k in NOTE_KEYS})
    who = say("tour.who.main") if journey.worker is None else say("tour.who.worker", k=journey.worker)
    fig = tour_figure(journey, box_names={b: say(f"tour.box.{b}") for b in BOX_NAME_KEYS}, notes=notes,
                      segment_names={s: say(f"tour.segment.{s}") for s in SEGMENTS},
                      title=say("tour.figure.title", batch=journey.batch, epoch=journey.epoch, who=who),
                      x_title=say("tour.x"))
    return notes, fig


def _stages(notes: dict[str, str]) -> None:
    st.subheader(t("tour.stages.title"))
    for row in (BOXES[:4], BOXES[4:]):
        for col, box in zip(st.columns(4), row):
            with col:
                st.markdown(f"**{t(f'tour.box.{box}', k='k')}** · {t(f'tour.stage.{box}.arg')}")
                st.caption(t("tour.stage.this_batch", note=notes[box].replace("\n", " · ")))
                st.write(t(f"tour.stage.{box}.text"))


def _links() -> None:
    st.subheader(t("tour.links.title"))
    for page in sorted(PAGES.glob("*.py")):
        if page.stem == LESSONS_PAGE:
            continue  # linked at the top of the page
        key = f"tour.link.{page.stem}"
        label = t(key) if key in EN else page.stem.split("_", 1)[-1].replace("_", " ")
        st.page_link(f"pages/{page.name}", label=label, query_params={"lang": language()})


def main() -> None:
    page_setup()
    st.title(t("app.title"))
    st.write(t("app.intro"))
    st.page_link(f"pages/{LESSONS_PAGE}.py", label=f"**{t(f'tour.link.{LESSONS_PAGE}')}**", icon=":material/school:",
                 query_params={"lang": language()})
    config = sidebar_config()
    if config is None:
        _links()
        return
    config = replace(config, sample_memory=False)  # this page draws no memory chart
    frame = cached_run(config)
    show_warnings(frame)
    st.header(t("tour.title"))
    st.write(t("tour.explain"))
    picked = _pick(frame)
    if picked is None:
        st.info(t("tour.none"))
    else:
        notes, fig = tour_view(frame, config, run_stamp(frame), language(), *picked)
        st.plotly_chart(fig, theme=None, key="tour_figure")
        _stages(notes)
    with st.expander(t("code.title")):
        st.code(torch_code(config), language="python")
    _links()
