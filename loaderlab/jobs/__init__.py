"""``python -m loaderlab run``: trace a user's unchanged training script.

Twin of nothing in torch (a profiler's ``py-spy record -- python train.py``, for data loading). One concern
per module: :mod:`.script` runs the script as ``__main__``; :mod:`.patch` makes every
``torch.utils.data.DataLoader`` it iterates a traced one; :mod:`.origins` says whose line made each loader
(the user's, or a library re-creating the user's; whose code a file is: :mod:`.libraries`); :mod:`.traced` is one traced loader;
:mod:`.stream` writes the trace as the job goes; :mod:`.job` ties them to signals and the exit status;
:mod:`.read` reads job traces back (files, folders of ranks, globs); :mod:`.stacks` lets ``python -m
loaderlab stacks PID`` print a running job's Python stacks. Knows nothing of plotly or streamlit.
"""
