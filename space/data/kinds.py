"""Where a row of a leaderboard comes from: the words of its *Kind* column.

A leaf module: every part of the app that makes or shows a row names its kind from here.
"""

from __future__ import annotations

__all__ = [
    "KIND_REFERENCE",
    "KIND_RESULTS",
    "KIND_SHIPPED",
    "KIND_SUBMISSION",
    "KIND_THESIS",
    "KIND_UPLOAD",
]

KIND_THESIS = "thesis reference"
"""One of the thesis's 8 reference models (shipped z-scores of its published outputs)."""
KIND_REFERENCE = "paper reference"
"""A benchmark paper's own model or human row (shipped aggregates)."""
KIND_SHIPPED = "offline model"
"""A model whose results ship with the app (``space/results/``)."""
KIND_RESULTS = "results file"
"""A scores file of the results folder the app was started with."""
KIND_SUBMISSION = "submission"
"""A submitted upload that a maintainer approved: public to every session."""
KIND_UPLOAD = "your upload"
"""One of this session's own uploads (highlighted; pending review once submitted)."""
