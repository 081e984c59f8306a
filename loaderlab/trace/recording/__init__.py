"""Recording: running LoaderLab's engine or a stock ``torch.utils.data.DataLoader`` with a tracer, and what a
recording can tell while it runs. No face: import a name from the module that defines it (a name is written once).

- :mod:`.recorder` — ``record``; :mod:`.session` — a recording that can be stopped; :mod:`.live` — live views;
- :mod:`.torch_recorder`, :mod:`.stock_worker`, :mod:`.stock_pin` — the pieces of a stock loader torch keeps to
  itself (its pin thread, its workers' start and tasks);
- :mod:`.sample_guess`, :mod:`.sample_keys`, :mod:`.stream_samples`, :mod:`.label_reading` — a sample's label,
  length and key, and what the dataset says its labels are;
- :mod:`.bandwidth` — how fast this machine's GPU takes a batch.

Builds on :mod:`loaderlab.trace.core` and :mod:`loaderlab.engine`; knows nothing of analysis, files,
plotly or streamlit.
"""
