"""Re-running a trace: a dataset and collate that reproduce the measured costs of a recorded run, run on
LoaderLab's engine with changed settings, and how well the replay matches the recording.

No face: import a name from the module that defines it (a name is written once).

- :mod:`.replayer` — ``replay`` and ``model_note``; :mod:`.standin` — the stand-in dataset, collate and step;
- :mod:`.workload`, :mod:`.costs`, :mod:`.calibration` — what a replay reproduces and what its stand-in costs.

Builds on :mod:`loaderlab.trace.core` and :mod:`loaderlab.trace.recording`; the diagnosis does not depend
on it. Knows nothing of plotly or streamlit.
"""
