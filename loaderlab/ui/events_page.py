"""The event-table page: every recorded event of the current run, in the schema docs/trace-files.md describes
("The event table (schema)"; the page's explanation says where)."""

from __future__ import annotations

import streamlit as st

from .language import page_setup
from .memory_view import memory_section
from .settings import cached_run, sidebar_config


def main() -> None:
    page_setup("events")
    config = sidebar_config()
    if config is None:
        return
    run = cached_run(config)
    st.dataframe(run.events.drop(columns=["t_ns"]), hide_index=True)
    memory_section(run)
