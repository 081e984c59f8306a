"""Findings on real traces with known faults: each names exactly the fault's batch, worker and sample, and
nothing else is reported (only findings of severity "info" may come along)."""

from __future__ import annotations

import functools

import pytest

from loaderlab.texts import wording, words
from loaderlab.trace.core.findings import Finding
from loaderlab.trace.core import kinds, lookups
from loaderlab.trace.tables import processes
from loaderlab.trace.diagnosis.report import report_text
from loaderlab.trace.diagnosis import findings as F
from tests.helpers import faulty

pytestmark = pytest.mark.timing  # judges a real run's timing: run alone (see pyproject's markers)


@functools.lru_cache(maxsize=None)
def findings_of(build, *args, **kwargs) -> list[Finding]:
    """``all_findings`` of a recorded trace, computed once per session (the trace is recorded once too)."""
    return F.all_findings(build(*args, **kwargs))


TIMING_KINDS = {kinds.HEAD_OF_LINE, kinds.STRAGGLER, kinds.SLOW_WORKER, kinds.SLOW_FIRST_BATCH}  # what scheduling noise can plant


def problems(found: list[Finding]) -> list[tuple]:
    """(kind, batch, worker, index, epoch) of every finding above "info", sorted."""
    return sorted((f.kind, f.batch, f.worker, f.index, f.epoch) for f in found if f.severity != "info")


def template_fields(f: Finding) -> dict:
    """A finding's evidence as its template's fields: a straggler's list of samples worded, "and N more"."""
    out = dict(f.evidence)
    if "worst" in out:
        out["worst"] = ", ".join(words.EN["part.straggler"].format(**w) for w in out["worst"])
        out["and_more"] = f", and {out['more']} more" if out["more"] else ""
    return out


def kinds(found: list[Finding], severity: str | None = None) -> set[str]:
    return {f.kind for f in found if severity is None or f.severity == severity}


# --- stalls ---------------------------------------------------------------------------------------


def test_straggler_and_head_of_line_blocking_name_the_sample():
    found = findings_of(faulty.straggler_trace, True)
    b, w, i = faulty.STRAGGLER_BATCH, faulty.STRAGGLER_WORKER, faulty.STRAGGLER_INDEX
    assert problems(found) == [("head_of_line", b, w, i, 0), ("straggler", b, w, i, 0)]
    hol = next(f for f in found if f.kind == "head_of_line")
    assert hol.key == "head_of_line" and hol.evidence["parked_batches"] == [3, 5]
    assert kinds(found, "info") == {"loader_bound"}


def test_out_of_order_delivery_has_a_straggler_but_no_head_of_line_blocking():
    found = findings_of(faulty.straggler_trace, False)
    b, w, i = faulty.STRAGGLER_BATCH, faulty.STRAGGLER_WORKER, faulty.STRAGGLER_INDEX
    assert problems(found) == [("straggler", b, w, i, 0)]


def test_a_hung_worker_is_named_with_the_sample_it_is_stuck_in():
    found = findings_of(faulty.hang_trace)
    b, w, i = faulty.HANG_BATCH, faulty.HANG_WORKER, faulty.HANG_INDEX
    assert problems(found) == [("error", None, None, None, 0), ("head_of_line", b, w, i, 0),
                               ("stalled_worker", b, w, i, 0)]
    stalled = next(f for f in found if f.kind == "stalled_worker")
    assert stalled.severity == "error" and f"dataset[{i}]" in stalled.message
    assert next(f for f in found if f.kind == "error").evidence["detail"] == "timeout"
    assert found[0].severity == "error"  # most severe first


def test_a_failing_sample_is_named_once():
    found = findings_of(faulty.failing_trace)
    b, w, i = faulty.FAIL_BATCH, faulty.FAIL_WORKER, faulty.FAIL_INDEX
    assert problems(found) == [("error", b, w, i, 0)]  # the worker's report; main's echo is dropped
    assert found[0].key == "error_in_sample" and "sample 5 is corrupt" in found[0].message


def test_slow_worker_start_up_is_flagged_every_epoch_without_persistent_workers():
    frame = faulty.slow_start_trace(False)
    found = [f for f in F.all_findings(frame) if f.severity != "info"]
    assert [(f.kind, f.epoch, f.batch, f.key) for f in found] == [
        ("slow_first_batch", 0, 0, "slow_first_batch"), ("slow_first_batch", 1, 0, "slow_first_batch")]
    procs = processes.worker_processes(frame)
    for f in found:  # the named worker is the epoch's last to be ready
        epoch_procs = procs[procs["epoch"] == f.epoch]
        assert f.worker == epoch_procs.loc[epoch_procs["ready_s"].idxmax(), "worker"]
        assert f.evidence["startup_s"] >= 1.2


def test_persistent_workers_start_once():
    found = findings_of(faulty.slow_start_trace, True)
    assert [(f.kind, f.epoch, f.key) for f in found if f.severity != "info"] == [
        ("slow_first_batch", 0, "slow_first_batch_once")]


def test_verdict_loader_bound_or_model_bound():
    assert [f.kind for f in F.stall_findings(faulty.bound_trace(True))] == ["model_bound"]
    assert [f.kind for f in F.stall_findings(faulty.bound_trace(False))] == ["loader_bound"]


# --- correctness ----------------------------------------------------------------------------------


def test_unsharded_iterable_dataset_duplicates_are_found():
    found = findings_of(faulty.stream_trace, sharded=False)
    # Worker 1's first item (stream position 0, in its first batch: task 1) repeats worker 0's.
    assert problems(found) == [("iterable_duplicates", 1, 1, 0, 0)]
    dup = next(f for f in found if f.kind == "iterable_duplicates")
    assert dup.evidence["label"] == 0 and dup.evidence["workers"] == [0, 1]
    assert dup.evidence["duplicates"] == dup.evidence["distinct"] == 8


def test_sharded_iterable_dataset_is_clean():
    assert problems(findings_of(faulty.stream_trace, sharded=True)) == []


def test_identically_seeded_numpy_in_workers_is_found():
    found = findings_of(faulty.rng_trace, reseed=True)
    # Worker 1's first sample (index 2, batch 1) drew what worker 0's first sample drew.
    assert problems(found) == [("identical_rng", 1, 1, 2, 0)]
    rng = next(f for f in found if f.kind == "identical_rng")
    assert rng.evidence["same_as_worker"] == 0 and rng.evidence["shared"] == rng.evidence["draws"] == 8


def test_torch_seeded_numpy_in_workers_is_clean():
    assert problems(findings_of(faulty.rng_trace, reseed=False)) == []


def test_same_shuffle_every_epoch_is_found_under_distributed_sampler():
    found = findings_of(faulty.order_trace, "distributed")
    assert problems(found) == [("same_order", None, None, None, 1)]
    assert "DistributedSampler" in found[0].message and found[0].evidence["first_epoch"] == 0


@pytest.mark.parametrize("kind", ["random", "sequential"])
def test_reshuffled_or_sequential_orders_are_clean(kind):
    assert problems(findings_of(faulty.order_trace, kind)) == []


# --- labels and padding ---------------------------------------------------------------------------


def test_random_sampling_of_imbalanced_data_reports_the_imbalance():
    found = findings_of(faulty.imbalance_trace, weighted=False)
    assert problems(found) == [("class_imbalance", None, None, None, 0)]
    imbalance = found[0]
    assert imbalance.evidence["minority"] == 1 and imbalance.evidence["minority_share"] == pytest.approx(0.05)
    assert "label 1 is 5.0%" in imbalance.message
    assert "repeated_samples" not in kinds(found)  # a permutation draws every sample once


def test_weighted_sampling_balances_the_classes_by_drawing_repeats():
    found = findings_of(faulty.imbalance_trace, weighted=True)
    assert problems(found) == []
    repeated = next(f for f in found if f.kind == "repeated_samples")
    assert repeated.severity == "info" and repeated.evidence["repeats"] > 0
    audit = F.label_audit(faulty.imbalance_trace(weighted=True))
    assert repeated.index == audit.repeated["index"].iloc[0]


def test_intended_shares_turn_imbalance_into_drift():
    intended = {0: 0.5, 1: 0.5}
    drift = F.label_findings(faulty.imbalance_trace(weighted=False), intended=intended)
    assert sorted((f.kind, f.evidence["label"]) for f in drift) == [("share_drift", 0), ("share_drift", 1)]
    assert F.label_findings(faulty.imbalance_trace(weighted=True), intended=intended) == [
        f for f in F.label_findings(faulty.imbalance_trace(weighted=True)) if f.kind == "repeated_samples"]


def test_label_audit_counts():
    frame = faulty.imbalance_trace(weighted=False)
    audit = F.label_audit(frame)
    assert audit.per_epoch[["label", "count"]].values.tolist() == [[0, 190], [1, 10]]
    assert audit.per_batch.groupby("batch")["count"].sum().tolist() == [20] * 10
    assert audit.coverage[["drawn", "distinct", "repeats", "unseen"]].values.tolist() == [[200, 200, 0, 0]]
    assert audit.repeated.empty
    labels = faulty.Imbalanced(200).labels  # the same audit from an index → label table
    by_table = F.label_audit(frame, labels=labels, intended=[0.5, 0.5])
    assert by_table.per_epoch["count"].tolist() == [190, 10]
    assert by_table.per_epoch["drift"].tolist() == pytest.approx([0.45, -0.45])
    weighted = F.label_audit(faulty.imbalance_trace(weighted=True))
    row = weighted.coverage.iloc[0]
    assert row["drawn"] == 200 and row["repeats"] == 200 - row["distinct"] == weighted.repeated["times"].sum() - len(
        weighted.repeated)


def test_padding_waste_of_random_batches_is_found_and_bucketing_fixes_it():
    found = findings_of(faulty.padding_trace, bucketed=False)
    pad = F.padding_audit(faulty.padding_trace(bucketed=False))
    worst = int(pad.loc[pad["padded_cells"].idxmax(), "batch"])
    assert problems(found) == [("padding_waste", worst, None, None, 0)]
    assert problems(findings_of(faulty.padding_trace, bucketed=True)) == []


def test_padding_audit_matches_the_lengths():
    pad = F.padding_audit(faulty.padding_trace(bucketed=True))
    assert pad["batch"].tolist() == list(range(8))
    for row, bucket in zip(pad.itertuples(), faulty.BUCKETS):
        lengths = [faulty.length_of(i) for i in bucket]
        assert (row.samples, row.max_length, row.total_length) == (8, max(lengths), sum(lengths))
        assert row.padded_cells == 8 * max(lengths) - sum(lengths)
        assert row.padding_fraction == pytest.approx(row.padded_cells / row.cells)


# --- nothing spurious, messages, report -----------------------------------------------------------


@pytest.mark.parametrize("build", [faulty.clean_trace, faulty.pin_trace, faulty.single_process_trace,
                                   faulty.early_stop_trace, faulty.stock_torch_trace],
                         ids=lambda b: b.__name__)
def test_clean_runs_have_no_problems(build):
    found = problems(findings_of(build))
    if found and {kind for kind, *_ in found} <= TIMING_KINDS:
        # A loaded machine can really hold a worker for 0.1 s, which the trace then rightly shows as
        # head-of-line or a straggler. A wrong finding comes back in a second recording; such noise does not.
        found = problems(F.all_findings(build.__wrapped__()))
    assert found == []


def test_every_template_formats_from_its_evidence():
    for kind_key, template in F.TEMPLATES.items():
        fields = {name for name, _, _ in wording.placeholders(template)}
        assert fields, kind_key
    for build, *args in [(faulty.straggler_trace, True), (faulty.hang_trace,), (faulty.failing_trace,),
                         (faulty.order_trace, "distributed"), (faulty.imbalance_trace, True)]:
        for f in findings_of(build, *args):
            assert f.message == words.render(f"finding.{f.key}", f.evidence) == F.TEMPLATES[f.key].format(**template_fields(f))


def test_findings_survive_missing_events():
    frame = faulty.straggler_trace(True)
    stripped = frame[~frame["kind"].isin(["index_put", "result_get", "reorder_park", "reorder_release",
                                          "sampler_yield", "worker_start", "worker_ready"])].reset_index(drop=True)
    stripped.attrs = {}
    assert kinds(F.all_findings(stripped)) >= {"straggler"}
    assert F.all_findings(frame.iloc[:0]) == []
    assert "Findings: none" in report_text(frame.iloc[:0])


def test_report_text_has_every_section_and_every_finding():
    frame = faulty.straggler_trace(True)
    text = report_text(frame)
    for heading in ("Settings:", "Throughput:", "Main-process wait", "Workers:", "Findings (3):"):
        assert heading in text
    assert "num_workers=2" in text and "in_order=True" in text
    for f in findings_of(faulty.straggler_trace, True):
        assert f"[{f.severity}] {f.kind}: {f.message}" in text
