"""The pages lead with the bottleneck verdict, and a click replays the suggestions (AppTest runs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
TIMELINES = str(ROOT / "pages" / "3_Worker_timelines.py")
SMALL = dict(n_samples=48, batch_size=4, cost_ms=1.0, consumer_ms=2.0)

pytestmark = [pytest.mark.usefixtures("fresh_cache"), pytest.mark.timing]


def _page(path: str, **state) -> AppTest:
    at = AppTest.from_file(path, default_timeout=120)
    for key, value in {**SMALL, **state}.items():
        at.session_state[key] = value
    return at.run()


def _boxes(at: AppTest) -> list[str]:
    return [b.value for b in [*at.info, *at.warning] if b.value.startswith("**")]


def test_a_model_bound_run_says_the_step_is_the_bottleneck():
    at = _page(TIMELINES, consumer_ms=20.0)
    assert not at.exception
    (box,) = _boxes(at)
    assert box.startswith("**Bottleneck: your training step**") and "ms per batch" in box
    assert "diagnosis_suggest_timelines" not in [b.key for b in at.button]  # no loader setting to suggest
    # but num_workers=0, whose costs the trace cannot show, is named with the command that measures it: the
    # page's run (LoaderLab's own engine) records no torch thread count for its loop, so the model cannot see
    # what its samples' torch ops would cost there
    from loaderlab.scenarios.run import RunConfig, run

    assert run(RunConfig(**{**SMALL, "consumer_ms": 20.0})).extra.get("torch_threads") is None
    named = [c.value for c in at.caption if "Whether num_workers=0 would be faster" in c.value]
    assert len(named) == 1 and "run --tune" in named[0]


def test_the_verdict_in_korean():
    at = AppTest.from_file(TIMELINES, default_timeout=120)
    for key, value in {**SMALL, "consumer_ms": 20.0}.items():
        at.session_state[key] = value
    at.query_params["lang"] = "ko"
    at.run()
    assert not at.exception
    (box,) = _boxes(at)
    assert box.startswith("**병목: 학습 단계**")


@pytest.mark.slow
def test_a_straggler_run_names_it_and_the_click_says_what_the_model_cannot_weigh():
    at = _page(TIMELINES, straggler_index=10, straggler_ms=800.0, consumer_ms=0.0)
    assert not at.exception
    (box,) = _boxes(at)
    assert box.startswith("**Bottleneck: a few slow samples**"), box
    at.button(key="diagnosis_suggest_timelines").click().run()
    assert not at.exception
    # The cost model knows no sample order: the page lists no claim and says which changes it could not weigh.
    listed = [m.value for m in at.markdown if m.value.startswith("- ")]
    said = [c.value for c in at.caption if c.value.startswith("No loader setting to suggest: in_order=False")]
    assert not listed and said and "does not know the order" in said[0]
