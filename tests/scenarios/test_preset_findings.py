"""Every workshop preset demonstrates something: its run produces the finding kind
``loaderlab.scenarios.run.PRESET_FINDINGS`` names for it (issue 12, item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from loaderlab.scenarios.run import PRESET_FINDINGS, PRESETS, preset, run
from loaderlab.trace.diagnosis.findings import all_findings

PAGES = Path(__file__).resolve().parents[2] / "pages"


def test_every_preset_says_what_it_is_for():
    assert set(PRESET_FINDINGS) == set(PRESETS)
    for kind, page in PRESET_FINDINGS.values():
        assert (PAGES / f"{page}.py").is_file(), page


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_presets_run_has_its_finding(name):
    kind, _ = PRESET_FINDINGS[name]
    found = all_findings(run(preset(name)))
    assert kind in {f.kind for f in found}, [f.message for f in found]
