"""Every workshop preset's page shows what the preset is for (issue 12, item 3): the page
``PRESET_FINDINGS`` names for it shows the preset's finding, never a green "no stalls" beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from loaderlab.scenarios.run import PRESET_FINDINGS, PRESETS

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120

# How each finding kind's English sentence begins (on the sampling page it follows the run's name).
OPENINGS = {"slow_worker": "Worker 1 is", "loader_bound": "Loader-bound:", "class_imbalance": "Epoch 0: label 1 is",
            "iterable_duplicates": "Epoch 0: the workers yielded", "padding_waste": "Epoch 0: "}

pytestmark = [pytest.mark.usefixtures("fresh_cache"), pytest.mark.timing]


def shown_texts(at: AppTest) -> list[str]:
    """Every sentence the page shows in an alert or in a table's last column (the details)."""
    texts = [e.value.split(" — ", 1)[-1] for e in (*at.info, *at.warning, *at.error)]
    for table in at.table:
        texts += [str(v) for v in table.value.iloc[:, -1]]
    return texts


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_presets_page_shows_what_the_preset_is_for(name):
    kind, page = PRESET_FINDINGS[name]
    at = AppTest.from_file(str(ROOT / "pages" / f"{page}.py"), default_timeout=TIMEOUT_S)
    for key, value in PRESETS[name].items():  # what the sidebar's preset choice sets
        at.session_state[key] = value
    at.run()
    assert not at.exception
    assert not [s.value for s in at.success if s.value.startswith("No stalls")]
    texts = shown_texts(at)
    opening = OPENINGS[kind]
    assert any(text.startswith(opening) and (kind != "padding_waste" or "are padding" in text) for text in texts), \
        texts
