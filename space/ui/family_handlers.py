"""The event handlers of a benchmark's tab (BLiMP, NPI, diagnostics, CoLA): its leaderboard,
human row, breakdowns and top predictions, testable without a server.

As in :mod:`space.ui.handlers`, each takes the shared data first (and the benchmark's name),
then its input components' values and the session's uploads, and returns its outputs.
"""

from __future__ import annotations

from collections.abc import Sequence

import gradio as gr

from space.data.benchmark_data import TITLES
from space.data.space_data import SpaceData
from space.data.upload import Upload
from space.ui import benchmark_views
from space.ui.handlers import family_uploads
from space.ui.leaderboard import board_datatypes, linked, styled
from space.ui.standards import table_outputs

__all__ = [
    "board_datatypes_of",
    "family_board_outputs",
    "family_breakdown",
    "family_human",
    "family_leaderboard",
    "predictions",
    "statistic_choices",
    "statistic_labels",
]


def family_leaderboard(data: SpaceData, bench: str, uploads: Sequence[Upload]):
    """Benchmark ``bench``'s leaderboard (approved submissions and the session's uploads
    included).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> family_leaderboard(toy_space_data(), "blimp", []).data["Model"].tolist()
    ['toy-good', 'toy-bad']
    """
    view = data.benchmarks[bench]
    frame = benchmark_views.family_leaderboard(view, family_uploads(data, uploads, bench))
    return styled(frame)


def family_board_outputs(data: SpaceData, bench: str, title: str, uploads: Sequence[Upload]):
    """The page's outputs of benchmark ``bench``'s leaderboard titled ``title``: the table,
    its page links clickable, counting its rows, and the CSV of every row (the links as
    addresses), as the LI-Adger leaderboard shows its own (:func:`table_outputs`).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> table, button = family_board_outputs(toy_space_data(), "blimp", "Models", [])
    >>> table["label"], list(table["value"].data.columns[-3:])
    ('Models · 2 rows', ['Parameters', 'Date', 'Link'])
    """
    view = data.benchmarks[bench]
    frame = benchmark_views.family_leaderboard(view, family_uploads(data, uploads, bench))
    return table_outputs(frame, title, shown=linked(frame), stem=f"{bench}-leaderboard")


def board_datatypes_of(data: SpaceData, bench: str) -> list[str]:
    """The column types of benchmark ``bench``'s leaderboard (its page link Markdown).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> board_datatypes_of(toy_space_data(), "blimp")
    ['str', 'str', 'str', 'str', 'str', 'str', 'markdown']
    """
    return board_datatypes(benchmark_views.family_leaderboard(data.benchmarks[bench], []).columns)


def family_human(data: SpaceData, bench: str):
    """Benchmark ``bench``'s human row, apart from the ranking.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> family_human(toy_space_data(), "blimp").data["Model"].tolist()
    ['human']
    """
    return styled(benchmark_views.human_frame(data.benchmarks[bench]))


def family_breakdown(
    data: SpaceData, bench: str, label: str, statistic: str, uploads: Sequence[Upload]
):
    """One breakdown of benchmark ``bench``: its table and heatmap.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> table, fig = family_breakdown(toy_space_data(), "blimp", "per paradigm", "blimp", [])
    >>> table.data["paradigm"].tolist(), fig.axes[0].get_title()
    (['a', 'b'], 'BLiMP per paradigm: share of pairs passed')
    """
    view = data.benchmarks[bench]
    extra = family_uploads(data, uploads, bench)
    frame = benchmark_views.breakdown_frame(view, extra, label, statistic)
    title = f"{TITLES[bench]} {label}: {benchmark_views.STATISTIC_NAMES.get(statistic, statistic)}"
    return styled(frame), benchmark_views.breakdown_figure(frame, title, statistic)


def statistic_choices(bench: str, label: str):
    """The statistics one breakdown can show, the first selected.

    Examples
    --------
    >>> statistic_choices("cola", "per development set")["choices"]
    [('MCC', 'mcc'), ('accuracy', 'accuracy')]
    """
    stats = next(b.statistics for b in benchmark_views.BREAKDOWNS[bench] if b.label == label)
    return gr.update(choices=statistic_labels(stats), value=stats[0])


def statistic_labels(statistics: Sequence[str]) -> list[tuple[str, str]]:
    """Dropdown choices ``(readable name, statistic)``.

    Examples
    --------
    >>> statistic_labels(["blimp"])
    [('share of pairs passed', 'blimp')]
    """
    return [(benchmark_views.STATISTIC_NAMES.get(s, s), s) for s in statistics]


def predictions(data: SpaceData, bench: str, unit: str | None, uploads: Sequence[Upload]):
    """A cloze item's context and each model's rank and top predictions for its completion.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> predictions(toy_space_data(), "blimp", None, [])[0]
    'Choose an expected completion.'
    """
    if not unit:
        return "Choose an expected completion.", None
    view = data.benchmarks[bench]
    text, frame = benchmark_views.item_predictions(view, family_uploads(data, uploads, bench), unit)
    return text, styled(frame)
