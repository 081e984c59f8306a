"""Colours and lane order shared by every LoaderLab figure (one place, so figures agree)."""

STAGE_COLOURS = {
    "startup": "#9e9e9e",
    "fetch": "#1f77b4",
    "collate": "#ff7f0e",
    "pin": "#9467bd",
    "wait": "#d62728",
    "consume": "#2ca02c",
    "idle": "#e0e0e0",
}


def lane_name(worker: int) -> str:
    return "main" if worker < 0 else f"worker {worker}"
