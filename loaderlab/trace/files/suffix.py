"""The trace file's name suffix, apart from the readers and writers that need pandas.

Twin of nothing in torch. ``python -m loaderlab run`` names its trace with it in the job's own process, which
imports nothing of pandas (the rows are built in the writing process: :mod:`loaderlab.jobs.rows`).
"""

COLUMNAR_SUFFIX = ".lltrace"  # save_trace writes the columnar format for a path ending in this
