"""The core of a trace: the Run, the event frame and its columns, the lookups every table is built from, the
finding type and kinds, what a batch carries, and the cache of tables computed once per report.

No face: import a name from the module that defines it (a name is written once).

- :mod:`.run` — :class:`~.run.Run` (an events table with its loader's settings and why it stopped), ``as_run``,
  ``events_of``, the stop reasons;
- :mod:`.frame` — the event columns, ``events_frame``, ``compact_table``, ``loader_settings``;
- :mod:`.lookups` — ``normal``, ``rows``, ``hand_overs``, ``settings``… the pieces every table is built from;
- :mod:`.groups` — grouping a big table's rows with numpy (``key_ids``, ``firsts``, ``fold``…);
- :mod:`.findings`, :mod:`.kinds` — the :class:`~.findings.Finding` type and the finding kinds;
- :mod:`.payload` — what a batch carries; :mod:`.cache` — tables computed once per report.

Every other sub-package of :mod:`loaderlab.trace` builds on this one; it imports none of them. Knows the event
vocabulary (:mod:`loaderlab.engine.events`), numpy, pandas and pyarrow; holds the finding type and kinds but not
how a finding is found; nothing of files, plotly or streamlit.
"""
