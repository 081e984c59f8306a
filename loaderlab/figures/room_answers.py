"""What a workshop room predicted: one horizontal bar per answer to a lesson's question, with its count.

Twin of nothing in torch. Input: the answers' labels (in the lesson's order) and how many attendees chose
each. Output: a plotly Figure. Pure: knows plotly, nothing of streamlit, SQLite or the lessons; every word
shown is an argument.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

BAR_COLOUR = "#0072B2"


def answer_counts_figure(labels: Sequence[str], counts: Sequence[int], *, title: str, x_title: str) -> go.Figure:
    """One bar per answer, the first answer on top; each bar says its count and its share of the room."""
    if len(labels) != len(counts):
        raise ValueError(f"labels and counts must have the same length; got {len(labels)} and {len(counts)}")
    total = sum(counts)
    text = [f"{n} ({n / total:.0%})" if total else "0" for n in counts]
    fig = go.Figure(go.Bar(x=list(counts), y=list(labels), orientation="h", marker_color=BAR_COLOUR, text=text,
                           textposition="outside", cliponaxis=False, hovertemplate="%{y}: %{x}<extra></extra>"))
    fig.update_layout(title=title, height=120 + 48 * len(labels), margin=dict(l=10, r=60, t=50, b=40),
                      xaxis=dict(title=x_title, rangemode="tozero", dtick=1 if max(counts, default=0) <= 10 else None),
                      yaxis=dict(autorange="reversed", automargin=True), showlegend=False)
    return fig
