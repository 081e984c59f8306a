"""Worker memory over a run: each worker's resident (RSS) and private (USS) memory, and /dev/shm in use.

Twin of nothing in torch. Input: ``loaderlab.trace.tables.memory.memory_table`` (``t_s, worker, pid, rss_bytes,
uss_bytes, shm_used_bytes, shm_total_bytes``). Output: a plotly Figure in MB — per worker a solid RSS
line and a dotted USS line (copy-on-access shows as USS climbing towards RSS), and a grey /dev/shm line.
Pure: every word shown is an argument; knows nothing of streamlit.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from .style import fit_axes, margin

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
SHM_COLOUR = "#555555"
MB = 2 ** 20


def memory_figure(table: pd.DataFrame, *, title: str = "", x_title: str = "seconds since start",
                  y_title: str = "MB", rss_name: str = "worker {worker}: RSS",
                  uss_name: str = "worker {worker}: private (USS)", shm_name: str = "/dev/shm in use") -> go.Figure:
    fig = go.Figure()
    for worker, rows in table.groupby("worker", sort=True):
        colour = PALETTE[int(worker) % len(PALETTE)]
        fig.add_trace(go.Scatter(x=rows["t_s"], y=rows["rss_bytes"] / MB, mode="lines", line=dict(color=colour),
                                 name=rss_name.format(worker=int(worker))))
        uss = rows[rows["uss_bytes"] >= 0]
        if len(uss):
            fig.add_trace(go.Scatter(x=uss["t_s"], y=uss["uss_bytes"] / MB, mode="lines",
                                     line=dict(color=colour, dash="dot"), name=uss_name.format(worker=int(worker))))
    if len(table):
        shm = table.drop_duplicates("t_s")
        fig.add_trace(go.Scatter(x=shm["t_s"], y=shm["shm_used_bytes"] / MB, mode="lines",
                                 line=dict(color=SHM_COLOUR, dash="dash"), name=shm_name))
    fig.update_layout(title=title, xaxis_title=x_title, yaxis_title=y_title, height=320,
                      margin=margin(t=40 if title else 20))
    return fit_axes(fig)
