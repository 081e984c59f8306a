"""Shared fixtures for the dashboard tests."""

from __future__ import annotations

import pytest
import streamlit as st


@pytest.fixture
def fresh_cache():
    """``st.cache_data`` outlives AppTest instances in one pytest process: each test starts from real runs."""
    st.cache_data.clear()
    yield
    st.cache_data.clear()
