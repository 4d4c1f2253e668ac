"""The app's event handlers: one module-level function per event, testable without a server.

Each takes the shared :class:`~space.data.space_data.SpaceData` first (bound by
:func:`bind`), then the values of its input components, the session's uploads (a list of
:class:`~space.data.upload.Upload`), and returns the values of its output components: styled
tables, figures, Markdown, or ``gradio.update(...)`` for a component's choices. :func:`submit`
also takes the submitter's Hugging Face profile and the request (Gradio fills them in).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Sequence

import gradio as gr

from space.data.benchmark_data import LI_ADGER, TITLES, FamilyEntry
from space.data.entries import ModelEntry
from space.data.moderation import SubmitError
from space.data.space_data import SpaceData
from space.data.store import StoreError
from space.data.upload import Upload, UploadError, evaluate_upload, taken_names, upload_summary
from space.ui import views
from space.ui.explorer import ALL, explore_pairs
from space.ui.leaderboard import ceiling_frame, leaderboard_frame, ranked, styled
from space.ui.submit_state import SUBMIT_OFF, private_where, public, submit_button

__all__ = [
    "MIN_DELTA",
    "NONE",
    "SUBMIT_OFF",
    "adc_curves",
    "bind",
    "ceiling",
    "delta_note",
    "family_uploads",
    "heatmap",
    "leaderboard",
    "model_choices",
    "model_plots",
    "pairs",
    "phenomena",
    "phenomenon_choices",
    "shown_delta",
    "submit",
    "submit_button",
    "upload",
]

NONE = "(none)"
"""The "no model B" choice of the pair explorer."""

MIN_DELTA = 0.05
"""The smallest δ the page computes: a smaller one (δ = 0 typed in) is answered by
:func:`delta_note` and shown at this δ."""


# ----------------------------------------------------------------------------- helpers
def bind(handler, *args):
    """``handler`` with its first arguments bound (the data, a benchmark): a function with
    the handler's name (for the API page) and the signature and type hints of its other
    parameters, so that Gradio fills in those it provides (a request, a login profile).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> f = bind(leaderboard, toy_space_data())
    >>> f.__name__, list(inspect.signature(f).parameters), f(0.5, []).data["Model"].tolist()
    ('leaderboard', ['delta', 'uploads'], ['toy-length'])
    """

    @functools.wraps(handler)
    def bound(*rest):
        return handler(*args, *rest)

    params = list(inspect.signature(handler).parameters.values())[len(args) :]
    bound.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return bound


def _shown(data: SpaceData, uploads: Sequence[Upload], bench: str) -> list:
    """The session's models on ``bench``, less those it submitted that are now approved (they
    show as shared rows)."""
    approved = {e.name for e in data.approved(bench)}
    return [
        u.entry
        for u in uploads
        if u.benchmark == bench and not (u.submitted and u.name in approved)
    ]


def li_uploads(data: SpaceData, uploads: Sequence[Upload]) -> list[ModelEntry]:
    """The session's LI-Adger models."""
    return _shown(data, uploads, LI_ADGER)


def family_uploads(data: SpaceData, uploads: Sequence[Upload], bench: str) -> list[FamilyEntry]:
    """The session's models on benchmark ``bench``, after the approved submissions."""
    return [*data.approved(bench), *_shown(data, uploads, bench)]


def _entry(data: SpaceData, uploads: Sequence[Upload], name: str | None) -> ModelEntry | None:
    """The LI-Adger model called ``name``, else the first one, else ``None``."""
    models = data.by_name(li_uploads(data, uploads))
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


def shown_delta(delta: float | None) -> float:
    """The δ the page shows for the slider's ``delta``: itself, or :data:`MIN_DELTA` when
    smaller (no pair passes ADC(0): :func:`delta_note` says so).

    Examples
    --------
    >>> shown_delta(0.5), shown_delta(0), shown_delta(None)
    (0.5, 0.05, 0.05)
    """
    return MIN_DELTA if delta is None or not delta >= MIN_DELTA else float(delta)


def delta_note(delta: float | None) -> str:
    """The line under the δ slider: empty, or why a δ below :data:`MIN_DELTA` is not shown.

    Examples
    --------
    >>> delta_note(0.5)
    ''
    >>> print(delta_note(0))
    **δ = 0 is not shown:** ADC(δ) asks for |Δh − Δlm| < δ, which no pair meets at δ = 0, so every model would score 0. The tables and plots show δ = 0.05, the smallest δ here.
    """
    if delta is not None and delta >= MIN_DELTA:
        return ""
    given = "δ" if delta is None else f"δ = {delta:g}"
    return (
        f"**{given} is not shown:** ADC(δ) asks for |Δh − Δlm| < δ, which no pair meets at "
        f"{given}, so every model would score 0. The tables and plots show δ = {MIN_DELTA:g}, "
        "the smallest δ here."
    )


# ----------------------------------------------------------------------------- LI-Adger
def leaderboard(data: SpaceData, delta: float, uploads: Sequence[Upload]):
    """The LI-Adger leaderboard at ``delta``, the session's uploads highlighted.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> leaderboard(toy_space_data(), 0.5, []).data["Model"].tolist()
    ['toy-length']
    """
    return styled(leaderboard_frame(data, li_uploads(data, uploads), shown_delta(delta)))


def ceiling(data: SpaceData, delta: float, uploads: Sequence[Upload]):
    """The human ceiling and every model on the LI pairs at ``delta`` (apart from the ranking).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> ceiling(toy_space_data(), 0.5, []).data.empty
    True
    """
    return styled(ceiling_frame(data, li_uploads(data, uploads), shown_delta(delta)))


def adc_curves(data: SpaceData, delta: float, uploads: Sequence[Upload]):
    """ADC(δ) curves of every model, the human ceiling in black.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> len(adc_curves(toy_space_data(), 0.5, []).axes)
    1
    """
    entries = [*data.shared_models(), *li_uploads(data, uploads)]
    return views.adc_curves_figure(data, entries, shown_delta(delta))


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
    return views.pair_figure(data, e, shown_delta(delta)), views.sentence_figure(data, e)


def heatmap(data: SpaceData, delta: float, source: str, uploads: Sequence[Upload]):
    """The phenomena × models heatmap of ``source`` (``all`` for both sources), its models in
    the leaderboard's order (:func:`space.ui.leaderboard.ranked`).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> heatmap(toy_space_data(), 0.5, "toy", []).axes[0].get_title()[:14]
    'ADC δ=0.5 per '
    """
    d = shown_delta(delta)
    entries = ranked([*data.shared_models(), *li_uploads(data, uploads)], data.pairs.human_delta, d)
    if not entries:
        return None
    return views.heatmap_figure(data, entries, d, None if source == ALL else source)


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
        shown_delta(delta),
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
    the approved submissions and the session's uploads included.

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> [u["choices"] for u in model_choices(toy_space_data(), [])]
    [['toy-length'], ['toy-length'], ['(none)', 'toy-length']]
    """
    names = list(data.by_name(li_uploads(data, uploads)))
    return (
        gr.update(choices=names),
        gr.update(choices=names),
        gr.update(choices=[NONE, *names]),
    )


# ----------------------------------------------------------------------------- uploads
def _submit_choices(uploads: Sequence[Upload], value: str | None = None):
    """The "submit" dropdown: the uploads not yet submitted, ``value`` chosen (else the
    latest); a submitted upload stays chosen, marked, so that the choice never jumps to
    another file."""
    names = [u.name for u in uploads if not u.submitted]
    chosen = next((u for u in uploads if u.name == value), None)
    if chosen is not None and chosen.submitted:
        return gr.update(choices=[(f"{value} (submitted)", value), *names], value=value)
    return gr.update(choices=names, value=value if value in names else (names or [None])[-1])


def upload(data: SpaceData, path, name: str, delta: float, uploads: list[Upload]):
    """Evaluate an uploaded scores file: the status line, the session's new uploads, and the
    "submit" dropdown's choices (the new upload selected).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> status, mine, _ = upload(toy_space_data(), None, "", 0.5, [])
    >>> status, mine
    ('⚠️ **Refused:** no file: choose a scores file (JSON Lines, or CSV with header id,score)', [])
    """
    try:
        u = evaluate_upload(path, data, uploads, name=name)
    except UploadError as exc:
        return f"⚠️ **Refused:** {exc}", uploads, _submit_choices(uploads)
    except OSError as exc:  # the uploaded file vanished or cannot be read
        message = f"cannot read the uploaded file: {exc.strerror or exc}"
        return f"⚠️ **Refused:** {message}", uploads, _submit_choices(uploads)
    new = [*uploads, u]
    return upload_summary(u, data, shown_delta(delta)), new, _submit_choices(new)


def _login(profile) -> str | None:
    """The Hugging Face login of a Gradio OAuth profile (``None`` when signed out)."""
    return None if profile is None else profile.username


def submit(
    data: SpaceData,
    choice: str | None,
    uploads: list[Upload],
    profile: gr.OAuthProfile | None,
    request: gr.Request,
):
    """Submit the session's upload ``choice`` for review: the status line, the session's
    uploads (the submitted one marked: it stays in this session, highlighted), the "submit"
    dropdown. ``profile`` is the submitter's Hugging Face profile on a Space (``None``
    signed out or locally); the session's id comes from ``request`` (the rate limit of a
    submitter without a login).

    Examples
    --------
    >>> from space.data.toy import toy_space_data
    >>> submit(toy_space_data(), None, [], None, None)[0]
    '⚠️ **Not submitted:** upload a scores file first, then choose it here.'
    """
    u = next((x for x in uploads if x.name == choice and not x.submitted), None)
    if u is None:
        message = "upload a scores file first, then choose it here."
        return f"⚠️ **Not submitted:** {message}", uploads, _submit_choices(uploads)
    if data.submissions is None:
        message = (
            "submitting is off here: the app was started without a results folder or "
            "repository (`--results DIR` or `--results-repo REPO`)."
        )
        return f"⚠️ **Not submitted:** {message}", uploads, _submit_choices(uploads, choice)
    login = _login(profile)
    try:
        req = data.submissions.submit(
            u.benchmark, u.entry, u.sf, name=u.name, file=u.file, login=login,
            session=getattr(request, "session_hash", None), taken=taken_names(data, []),
        )  # fmt: skip
    except (SubmitError, StoreError) as exc:
        message = public(str(exc), data)
        return f"⚠️ **Not submitted:** {message}", uploads, _submit_choices(uploads, choice)
    except OSError as exc:  # a store that does not wrap the filesystem's errors
        message = public(f"cannot write to {data.submissions.store.where}: "
                          f"{exc.strerror or exc}", data)  # fmt: skip
        return f"⚠️ **Not submitted:** {message}", uploads, _submit_choices(uploads, choice)
    marked = [dataclasses.replace(x, submitted=True) if x is u else x for x in uploads]
    by = f" by {login}" if login else ""
    status = (
        f"**Submitted `{req.name}`**{by} for the {TITLES[u.benchmark]} leaderboard: it waits for "
        "a maintainer's review"
        + ("" if private_where(data) else f" in {data.submissions.store.where}")
        + ". Until it is approved, only this session shows it."
    )
    return status, marked, _submit_choices(marked, u.name)
