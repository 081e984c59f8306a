"""Tidy tables from a trace. No face: import a name from the module that defines it (a name is written once).

- :mod:`.waits` — the loop's waits, batch latency, throughput, stage spans (``main_wait``, ``stage_spans``…);
- :mod:`.utilisation`, :mod:`.stays`, :mod:`.timeline`, :mod:`.processes` — worker utilisation, queue depths and
  stays, the worker timeline, worker processes;
- :mod:`.audits`, :mod:`.label_shares`, :mod:`.duplicates` — label and padding audits, label distributions, samples
  more than one worker yielded;
- :mod:`.slow`, :mod:`.stalls`, :mod:`.memory` — slow samples and workers, stall checks, memory;
- :mod:`.journey`, :mod:`.orders`, :mod:`.bins`, :mod:`.faults` — a batch's journey, the sampler's order, bins of
  a big trace, where a run failed.

Pure functions over an events table (:mod:`loaderlab.trace.core`); knows nothing of verdicts, wording,
files, plotly or streamlit.
"""
