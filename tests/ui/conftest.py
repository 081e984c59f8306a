"""Shared fixtures for the dashboard tests."""

from __future__ import annotations

import os
import tempfile

import pytest
import streamlit as st

# Rooms (the Room and Lessons pages) keep answers in SQLite: tests and the servers they start never write
# to the user's ~/.loaderlab. A test that needs its own file sets LOADERLAB_ROOM_DB itself.
os.environ.setdefault("LOADERLAB_ROOM_DB", os.path.join(tempfile.mkdtemp(prefix="loaderlab-rooms-"), "rooms.sqlite3"))


@pytest.fixture
def fresh_cache():
    """``st.cache_data`` outlives AppTest instances in one pytest process: each test starts from real runs."""
    st.cache_data.clear()
    yield
    st.cache_data.clear()
