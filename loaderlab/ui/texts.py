"""Every user-facing sentence of the dashboard, in one place (a Korean table can sit beside it).

Parameter and API names (``num_workers``, ``collate_fn``…) stay as code in every language.
"""

EN = {
    "app.title": "LoaderLab — what your DataLoader really does",
    "app.intro": ("Every view below is recorded from a real run of LoaderLab's DataLoader twin — real worker "
                  "processes, real queues — with the settings in the sidebar. Change a setting and the run is "
                  "repeated."),
    "sidebar.loader": "DataLoader",
    "sidebar.workload": "Workload",
    "control.preset": "workshop preset",
    "control.source": "dataset",
    "control.upload": "CSV with a 'label' column (and optionally 'length')",
    "upload.needed": "Upload a CSV to run on your own labels and lengths.",
    "control.kind": "dataset style",
    "control.imbalance": "share of label 0",
    "control.length": "sample length",
    "control.length_spread": "length varies by ±",
    "control.slow_worker": "slow worker id (-1 = none)",
    "control.slow_factor": "slow worker: times slower",
    "choice.sampler.default": "default (Sequential / Random)",
    "choice.sampler.weighted": "WeightedRandomSampler (inverse class frequency)",
    "choice.batch_sampler.default": "default (BatchSampler)",
    "choice.batch_sampler.bucket": "bucket by length",
    "choice.collate.default": "default_collate",
    "choice.collate.pad": "pad_sequence collate",
    "choice.source.synthetic": "synthetic",
    "choice.source.stdlib_files": "sample_data: stdlib files (imbalanced labels)",
    "choice.source.stdlib_docstrings": "sample_data: stdlib docstrings (varied lengths)",
    "choice.source.uploaded": "upload a CSV",
    "choice.kind.map": "map-style Dataset",
    "choice.kind.iterable_unsharded": "IterableDataset, not sharded",
    "choice.kind.iterable_sharded": "IterableDataset, sharded by get_worker_info()",
    "control.n_samples": "samples in the dataset",
    "control.cost_ms": "cost of one sample (ms)",
    "control.straggler_index": "straggler: dataset index (-1 = none)",
    "control.straggler_ms": "straggler: extra cost (ms)",
    "control.consumer_ms": "your training step per batch (ms)",
    "control.seed": "seed (generator)",
    "control.epochs": "epochs",
    "error.invalid": "torch rejects these settings: {message}",
    "metric.duration": "run time (s)",
    "metric.throughput": "batches / s",
    "metric.wait": "main process waited (s)",
    "timeline.title": "Who did what, when",
    "timeline.explain": ("One lane per process. Blue: a worker fetching one sample; orange: collating a batch; "
                         "red: your loop waiting for the next batch; green: your training step."),
    "timeline.x": "seconds since the run started",
    "events.title": "Every event of the run",
    "events.explain": "One row per event; the columns are documented in the README.",
    "code.title": "The same loader in plain torch",
    "stage.startup": "worker start-up",
    "stage.fetch": "fetch",
    "stage.collate": "collate",
    "stage.pin": "pin memory",
    "stage.wait": "waiting for a batch",
    "stage.consume": "your training step",
    "stage.idle": "idle",
}


def t(key: str, **params) -> str:
    return EN[key].format(**params) if params else EN[key]
