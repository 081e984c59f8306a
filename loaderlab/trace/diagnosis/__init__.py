"""The diagnosis of a run. No face: import a name from the module that defines it (a name is written once).

- :mod:`.summary` — ``summarise``: every number shown about a run;
- :mod:`.costs`, :mod:`.steps`, :mod:`.predict` — the measured costs and the model that predicts a change's effect;
- :mod:`.bottleneck` — the verdict; :mod:`.findings`, :mod:`.sampling_checks` — the findings;
- :mod:`.suggestions`, :mod:`.tuning` — what to try, and what ``run --tune`` measured;
- :mod:`.report`, :mod:`.label_report`, :mod:`.document` — the plain-text report and the JSON document (``diagnose``).

Builds on the tables (:mod:`loaderlab.trace.tables`, :mod:`loaderlab.trace.ranks`) and the words
(:mod:`loaderlab.texts`); knows nothing of plotly or streamlit.
"""
