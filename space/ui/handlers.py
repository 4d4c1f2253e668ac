"""The app's event handlers: one module-level function per event, testable without a server.

Each takes the shared :class:`~space.data.entries.SpaceData` first (bound by :mod:`space.ui.app`),
then the values of its input components, the session's uploads (a list of
:class:`~space.data.upload.Upload`) last, and returns the values of its output components:
styled tables, figures, Markdown, or ``gradio.update(...)`` for a component's choices.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import gradio as gr

from space.data.benchmark_data import TITLES, FamilyEntry
from space.data.entries import ModelEntry, SpaceData
from space.data.store import KeepError
from space.data.upload import (
    LI_ADGER,
    Upload,
    UploadError,
    evaluate_upload,
    taken_names,
    upload_summary,
)
from space.ui import benchmark_views, views
from space.ui.explorer import ALL, explore_pairs
from space.ui.leaderboard import ceiling_frame, leaderboard_frame, styled

__all__ = [
    "NONE",
    "adc_curves",
    "bind",
    "ceiling",
    "family_breakdown",
    "family_human",
    "family_leaderboard",
    "heatmap",
    "keep",
    "leaderboard",
    "model_choices",
    "model_plots",
    "pairs",
    "phenomena",
    "phenomenon_choices",
    "predictions",
    "statistic_choices",
    "statistic_labels",
    "upload",
]

NONE = "(none)"
"""The "no model B" choice of the pair explorer."""


# ----------------------------------------------------------------------------- helpers
def bind(handler, *args):
    """``handler`` with its first arguments bound (the data, a benchmark), keeping its name
    for the API page.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> f = bind(leaderboard, toy_space_data())
    >>> f.__name__, f(0.5, []).data["Model"].tolist()
    ('leaderboard', ['toy-length'])
    """
    bound = functools.partial(handler, *args)
    bound.__name__ = handler.__name__  # type: ignore[attr-defined]
    return bound


def li_uploads(uploads: Sequence[Upload]) -> list[ModelEntry]:
    """The session's LI-Adger models."""
    return [u.entry for u in uploads if u.benchmark == LI_ADGER]


def family_uploads(uploads: Sequence[Upload], bench: str) -> list[FamilyEntry]:
    """The session's models on benchmark ``bench``."""
    return [u.entry for u in uploads if u.benchmark == bench]


def _entry(data: SpaceData, uploads: Sequence[Upload], name: str | None) -> ModelEntry | None:
    """The LI-Adger model called ``name``, else the first one, else ``None``."""
    models = data.by_name(li_uploads(uploads))
    return models.get(name) or next(iter(models.values()), None)


def phenomena(data: SpaceData, source: str) -> list[str]:
    """The pair explorer's phenomenon choices for ``source``: ``all``, then each phenomenon.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> phenomena(toy_space_data(), "toy")
    ['all', 'agreement', 'islands']
    """
    f = data.frame
    sel = f if source == ALL else f[f["source"] == source]
    return [ALL, *sorted(sel["phenomenon"].dropna().unique().tolist())]


# ----------------------------------------------------------------------------- LI-Adger
def leaderboard(data: SpaceData, delta: float, uploads: Sequence[Upload]):
    """The LI-Adger leaderboard at ``delta``, the session's uploads highlighted.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> leaderboard(toy_space_data(), 0.5, []).data["Model"].tolist()
    ['toy-length']
    """
    return styled(leaderboard_frame(data, li_uploads(uploads), delta))


def ceiling(data: SpaceData, delta: float, uploads: Sequence[Upload]):
    """The human ceiling and every model on the LI pairs at ``delta`` (apart from the ranking).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> ceiling(toy_space_data(), 0.5, []).data.empty
    True
    """
    return styled(ceiling_frame(data, li_uploads(uploads), delta))


def adc_curves(data: SpaceData, delta: float, uploads: Sequence[Upload]):
    """ADC(δ) curves of every model, the human ceiling in black.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> len(adc_curves(toy_space_data(), 0.5, []).axes)
    1
    """
    return views.adc_curves_figure(data, [*data.shared_models(), *li_uploads(uploads)], delta)


def model_plots(data: SpaceData, name: str, delta: float, uploads: Sequence[Upload]):
    """The pair and sentence plots of model ``name`` (the first model when unknown).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> pair, sentence = model_plots(toy_space_data(), "nope", 0.5, [])
    >>> pair.axes[0].get_title().split(":")[0]
    'toy-length'
    """
    e = _entry(data, uploads, name)
    if e is None:
        return None, None
    return views.pair_figure(data, e, delta), views.sentence_figure(data, e)


def heatmap(data: SpaceData, delta: float, source: str, uploads: Sequence[Upload]):
    """The phenomena × models heatmap of ``source`` (``all`` for both sources).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> heatmap(toy_space_data(), 0.5, "toy", []).axes[0].get_title()[:14]
    'ADC δ=0.5 per '
    """
    entries = [*data.shared_models(), *li_uploads(uploads)]
    if not entries:
        return None
    return views.heatmap_figure(data, entries, delta, None if source == ALL else source)


def pairs(
    data: SpaceData,
    delta: float,
    source: str,
    phenomenon: str,
    model_a: str,
    outcome: str,
    model_b: str,
    disagreement: str,
    uploads: Sequence[Upload],
):
    """The pair explorer: a summary line and the matching pairs.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> text, table = pairs(toy_space_data(), 0.5, "all", "islands", "toy-length", "all",
    ...                     NONE, "all", [])
    >>> text, table.data["pair"].tolist()
    ('2 pairs match: model A (toy-length) passes 2 of them at δ = 0.5', ['toy.2', 'toy.3'])
    """
    a = _entry(data, uploads, model_a)
    if a is None:
        return "No model is loaded yet: upload scores in *Evaluate your scores*.", None
    b = None if model_b in (None, NONE) else _entry(data, uploads, model_b)
    if phenomenon not in phenomena(data, source):
        phenomenon = ALL
    text, df = explore_pairs(
        data,
        delta,
        a,
        b,
        source=source,
        phenomenon=phenomenon,
        outcome=outcome,
        disagreement=disagreement if b is not None else ALL,
    )
    return text, styled(df)


def phenomenon_choices(data: SpaceData, source: str):
    """The phenomenon dropdown for ``source``, reset to ``all``.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> phenomenon_choices(toy_space_data(), "toy")["choices"]
    ['all', 'agreement', 'islands']
    """
    return gr.update(choices=phenomena(data, source), value=ALL)


def model_choices(data: SpaceData, uploads: Sequence[Upload]):
    """The three model dropdowns (model plots, model A, model B) with every LI-Adger model,
    the kept ones and the session's uploads included.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> [u["choices"] for u in model_choices(toy_space_data(), [])]
    [['toy-length'], ['toy-length'], ['(none)', 'toy-length']]
    """
    names = list(data.by_name(li_uploads(uploads)))
    return (
        gr.update(choices=names),
        gr.update(choices=names),
        gr.update(choices=[NONE, *names]),
    )


# ----------------------------------------------------------------------------- uploads
def _keep_choices(uploads: Sequence[Upload]):
    names = [u.name for u in uploads]
    return gr.update(choices=names, value=names[-1] if names else None)


def upload(data: SpaceData, path, name: str, delta: float, uploads: list[Upload]):
    """Evaluate an uploaded scores file: the status line, the session's new uploads, and the
    "keep" dropdown's choices (the new upload selected).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> status, kept, _ = upload(toy_space_data(), None, "", 0.5, [])
    >>> status, kept
    ('⚠️ **Refused:** no file: choose a scores file (JSON Lines, or CSV with header id,score)', [])
    """
    try:
        u = evaluate_upload(path, data, uploads, name=name)
    except UploadError as exc:
        return f"⚠️ **Refused:** {exc}", uploads, _keep_choices(uploads)
    new = [*uploads, u]
    return upload_summary(u, data, delta), new, _keep_choices(new)


def keep(data: SpaceData, choice: str | None, uploads: list[Upload]):
    """Keep the session's upload ``choice`` on the leaderboard for everybody: the status
    line, the session's uploads without it (it is now a shared model), the "keep" dropdown.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> keep(toy_space_data(), None, [])[0]
    '⚠️ **Not kept:** upload a scores file first, then choose it here.'
    """
    u = next((x for x in uploads if x.name == choice), None)
    if u is None:
        return (
            "⚠️ **Not kept:** upload a scores file first, then choose it here.",
            uploads,
            (_keep_choices(uploads)),
        )
    if data.kept is None:
        return "⚠️ **Not kept:** keeping is switched off here.", uploads, _keep_choices(uploads)
    others = [x for x in uploads if x is not u]
    try:
        data.kept.keep(
            u.benchmark, u.entry, u.sf, name=u.name, file=u.file, taken=taken_names(data, [])
        )
    except KeepError as exc:
        return f"⚠️ **Not kept:** {exc}", uploads, _keep_choices(uploads)
    status = (
        f"**Kept `{u.name}`** on the {TITLES[u.benchmark]} leaderboard, in {data.kept.store.where}: "
        "everybody sees it, now and after a restart."
    )
    return status, others, _keep_choices(others)


# ----------------------------------------------------------------------------- the family
def family_leaderboard(data: SpaceData, bench: str, uploads: Sequence[Upload]):
    """Benchmark ``bench``'s leaderboard (kept models and the session's uploads included).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> family_leaderboard(toy_space_data(), "blimp", []).data["Model"].tolist()
    ['toy-good', 'toy-bad']
    """
    view = data.benchmarks[bench]
    kept = [] if data.kept is None else data.kept.entries(bench)
    frame = benchmark_views.family_leaderboard(view, [*kept, *family_uploads(uploads, bench)])
    return styled(frame)


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
    kept = [] if data.kept is None else data.kept.entries(bench)
    extra = [*kept, *family_uploads(uploads, bench)]
    frame = benchmark_views.breakdown_frame(view, extra, label, statistic)
    title = f"{TITLES[bench]} {label}: {benchmark_views.STATISTIC_NAMES.get(statistic, statistic)}"
    return styled(frame), benchmark_views.breakdown_figure(frame, title)


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
    kept = [] if data.kept is None else data.kept.entries(bench)
    text, frame = benchmark_views.item_predictions(
        view, [*kept, *family_uploads(uploads, bench)], unit
    )
    return text, styled(frame)
