"""Result rows and tables: a model's sentence scores + a pair table → one row of statistics.

This is the entry point that the command line, the Space and the human ceiling share:
:func:`evaluate_on_pairs` (any :class:`PairTable`), :func:`evaluate_li_adger` (the LI-Adger
dataset), :func:`reproduce_rows` (the thesis's 8 models), :func:`source_row` (a model on one
source's pairs), :func:`ceiling_row` (the human split-half ceiling as a row) and
:func:`analyze_on_pairs` (breakdowns, bootstrap intervals, a baseline comparison). A row
always has the keys of :data:`ROW_KEYS`; the math is in :mod:`metric_adc.core` and
:mod:`metric_adc.bootstrap`. :func:`format_table` and :func:`format_markdown` print rows.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from metric_adc import bootstrap, core

__all__ = [
    "ROW_KEYS",
    "PairTable",
    "analyze_on_pairs",
    "ceiling_row",
    "evaluate_li_adger",
    "evaluate_on_pairs",
    "format_markdown",
    "format_table",
    "li_adger_pairs",
    "model_deltas",
    "reproduce_rows",
    "source_row",
    "thesis_pair_table",
]

ROW_KEYS = (
    "model",
    "n_sentences",
    "n_pairs",
    "n_excluded",
    "blimp",
    "human_sign",
    "adc",
    "adc_auc",
    "pearson_pairs",
    "pearson_pairs_p",
    "spearman_pairs",
    "spearman_pairs_p",
    "pearson_sentences",
    "pearson_sentences_p",
    "spearman_sentences",
    "spearman_sentences_p",
    "standardized",
    "by_source",
    "note",
)
"""The keys of every result row, in order."""


@dataclass(frozen=True)
class PairTable:
    """Minimal pairs with their human judgements, ready for evaluation.

    ``judgements`` maps *every* sentence id of the dataset to its human judgement (NaN when
    missing); it defines which ids a scores mapping may contain. ``human_delta`` is NaN for a
    pair with a missing judgement (excluded and counted, never passed).

    Examples
    --------
    >>> t = PairTable.from_judgements(["g1", "g2"], ["b1", "b2"],
    ...     {"g1": 1.0, "b1": -0.5, "g2": 0.5, "b2": float("nan")})
    >>> t.human_delta.tolist(), len(t)
    ([1.5, nan], 2)
    """

    good_ids: list[str]
    bad_ids: list[str]
    human_delta: np.ndarray
    judgements: dict[str, float]
    source: list[str] | None = None
    phenomenon: list[str] | None = None

    def __len__(self) -> int:
        return len(self.good_ids)

    @classmethod
    def from_judgements(
        cls,
        good_ids: Sequence[str],
        bad_ids: Sequence[str],
        judgements: Mapping[str, float | None],
        *,
        source: Sequence[str] | None = None,
        phenomenon: Sequence[str] | None = None,
    ) -> PairTable:
        """Build a table from pair ids and sentence judgements (``None``/NaN = missing)."""
        j = {str(k): (math.nan if v is None else float(v)) for k, v in judgements.items()}
        h = core.pair_deltas(j, list(good_ids), list(bad_ids))
        for name, col in (("source", source), ("phenomenon", phenomenon)):
            if col is not None and len(col) != len(good_ids):
                raise ValueError(f"{name!r} has {len(col)} entries, expected {len(good_ids)}")
        return cls(
            list(good_ids),
            list(bad_ids),
            h,
            j,
            None if source is None else [str(s) for s in source],
            None if phenomenon is None else [str(p) for p in phenomenon],
        )


def thesis_pair_table(dir: str | os.PathLike | None = None) -> PairTable:
    """The thesis's pair file as a :class:`PairTable` (2,367 pairs, 2 without a judgement).

    Examples
    --------
    >>> t = thesis_pair_table()
    >>> len(t), int(np.isnan(t.human_delta).sum())
    (2367, 2)
    """
    from metric_adc import thesis

    p = thesis.load_thesis_pairs(dir)
    return PairTable.from_judgements(p.good_ids, p.bad_ids, p.judgements, source=p.source)


def li_adger_pairs() -> PairTable:
    """The LI-Adger dataset's evaluable pairs (the 2,365 not discarded) as a :class:`PairTable`.

    Needs the ``li_adger`` dataset built (``python -m li_adger build``).

    Examples
    --------
    >>> t = li_adger_pairs()
    >>> len(t), len(t.judgements), sorted(set(t.source))
    (2365, 4178, ['Adger', 'LI'])
    """
    import li_adger

    if not hasattr(li_adger, "load"):
        raise RuntimeError("the li_adger package has no load(); is the dataset package installed?")
    sentences = li_adger.load("sentences")
    pairs = li_adger.load("pairs")
    if hasattr(sentences, "keys") and "test" in sentences:
        sentences, pairs = sentences["test"], pairs["test"]
    judgements = dict(zip(sentences["id"], sentences["judgement"], strict=True))
    keep = [not d for d in pairs["discarded"]]

    def col(name: str) -> list:
        return [v for v, k in zip(pairs[name], keep, strict=True) if k]

    return PairTable.from_judgements(
        col("good_id"),
        col("bad_id"),
        judgements,
        source=col("source"),
        phenomenon=col("phenomenon"),
    )


def _check_ids(scores: Mapping[str, float], pairs: PairTable) -> None:
    unknown = [k for k in scores if k not in pairs.judgements]
    if unknown:
        raise ValueError(
            f"scores have {len(unknown)} sentence id(s) unknown to the dataset, "
            f"e.g. {unknown[0]!r} (expected ids of the {len(pairs.judgements)} dataset sentences)"
        )


def model_deltas(
    scores: Mapping[str, float], pairs: PairTable, *, standardize: bool = True
) -> tuple[dict[str, float], np.ndarray]:
    """Z-score the scores over all sentences given and return ``(z by id, Δlm per pair)``.

    With ``standardize=False`` the scores are taken as z-scores already. Every member of a
    pair with a human judgement needs a score; a pair without one may lack scores (its
    ``Δlm`` is then NaN; it is excluded from every statistic anyway).

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c"], ["b", "d"],
    ...                               {"a": 1.0, "b": 0.0, "c": 0.5, "d": 0.2})
    >>> z, d = model_deltas({"a": 4.0, "b": 2.0, "c": 3.0, "d": 3.0}, t)
    >>> d.round(4).tolist()
    [2.8284, 0.0]
    """
    if not isinstance(scores, Mapping):
        raise TypeError(f"'scores' must be a mapping of sentence id to score (got {type(scores)})")
    _check_ids(scores, pairs)
    ids = list(scores)
    values = [scores[k] for k in ids]
    if standardize:
        z = core.zscore_by_id(ids, values)
    else:
        z = dict(zip(ids, core._as_finite(values, "scores").tolist(), strict=True))
    # a pair excluded for a missing human judgement needs no model score: its Δlm is NaN then
    need = [
        not math.isnan(h) or (g in z and b in z)
        for g, b, h in zip(pairs.good_ids, pairs.bad_ids, pairs.human_delta, strict=True)
    ]
    dlm = np.full(len(pairs), np.nan)
    dlm[np.asarray(need, dtype=bool)] = core.pair_deltas(
        z,
        [g for g, k in zip(pairs.good_ids, need, strict=True) if k],
        [b for b, k in zip(pairs.bad_ids, need, strict=True) if k],
    )
    return z, dlm


def evaluate_on_pairs(
    scores: Mapping[str, float],
    pairs: PairTable,
    *,
    model: str = "unnamed",
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    standardize: bool = True,
    auc_max: float = core.DEFAULT_AUC_MAX,
    note: str | None = None,
) -> dict:
    """One result row (keys :data:`ROW_KEYS`) for a model's sentence scores on a pair table.

    Scores are z-scored over all sentences given (``standardize=True``); every pair member
    must have a score; ids unknown to the table raise. ``pearson_sentences`` correlates the
    model's (z-)scores with the human judgements over the scored sentences that have one.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c", "e"], ["b", "d", "f"],
    ...     {"a": 1.0, "b": -1.0, "c": 0.5, "d": -0.8, "e": 0.3, "f": None})
    >>> row = evaluate_on_pairs({"a": 3.0, "b": 1.0, "c": 2.5, "d": 2.0, "e": 1.0, "f": 0.0},
    ...                         t, model="toy", deltas=[0.5])
    >>> row["n_pairs"], row["n_excluded"], row["blimp"], row["adc"]
    (2, 1, 1.0, {'0.5': 0.5})
    """
    deltas = list(deltas)
    z, dlm = model_deltas(scores, pairs, standardize=standardize)
    summary = core.summarize(dlm, pairs.human_delta, deltas=deltas, auc_max=auc_max)
    rated = [k for k in z if not math.isnan(pairs.judgements[k])]
    sent = core.correlation([z[k] for k in rated], [pairs.judgements[k] for k in rated])
    by_source = None
    if pairs.source is not None:
        by_source = core.breakdown(
            pairs.source, dlm, pairs.human_delta, deltas=deltas, auc_max=auc_max
        )
    row = {
        "model": str(model),
        "n_sentences": len(z),
        **summary,
        "pearson_sentences": sent["pearson"],
        "pearson_sentences_p": sent["pearson_p"],
        "spearman_sentences": sent["spearman"],
        "spearman_sentences_p": sent["spearman_p"],
        "standardized": bool(standardize),
        "by_source": by_source,
        "note": note,
    }
    return {k: row[k] for k in ROW_KEYS}


def evaluate_li_adger(
    scores: Mapping[str, float],
    *,
    model: str = "unnamed",
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    standardize: bool = True,
    pairs: PairTable | None = None,
) -> dict:
    """:func:`evaluate_on_pairs` on the LI-Adger dataset's 2,365 evaluable pairs.

    Examples
    --------
    >>> from metric_adc.thesis import load_thesis_scores
    >>> row = evaluate_li_adger(load_thesis_scores()["bert-base-uncased-mlm"], model="bbu")
    >>> row["n_pairs"], row["n_excluded"], round(row["adc"]["1.0"], 3)
    (2365, 0, 0.63)
    """
    return evaluate_on_pairs(
        scores,
        pairs if pairs is not None else li_adger_pairs(),
        model=model,
        deltas=deltas,
        standardize=standardize,
    )


def reproduce_rows(
    dir: str | os.PathLike | None = None, *, deltas: Iterable[float] = core.DEFAULT_DELTAS
) -> list[dict]:
    """Rows for the thesis's 8 models, recomputed from its per-sentence scores and pair file.

    Examples
    --------
    >>> rows = reproduce_rows()
    >>> r = next(r for r in rows if r["model"] == "trigram-slor")
    >>> r["n_pairs"], r["n_excluded"], round(r["blimp"], 3), round(r["pearson_pairs"], 3)
    (2365, 2, 0.753, 0.333)
    """
    from metric_adc import thesis

    deltas = list(deltas)
    table = thesis_pair_table(dir)
    return [
        evaluate_on_pairs(
            m.scores,
            table,
            model=m.name,
            deltas=deltas,
            standardize=not m.standardized,
            note=m.note,
        )
        for m in thesis.load_thesis_models(dir)
    ]


def source_row(
    scores: Mapping[str, float],
    pairs: PairTable,
    source: str,
    *,
    model: str = "unnamed",
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    standardize: bool = True,
) -> dict:
    """A model's row on the pairs of one ``source`` (e.g. ``"LI"``), keys :data:`ROW_KEYS`.

    The scores are z-scored over *all* sentences given, exactly as for the full row; only the
    statistics are restricted: the pair statistics to the pairs of ``source`` (the values of
    the full row's ``by_source[source]``), ``pearson_sentences`` to the sentences that are
    members of those pairs (``n_sentences`` counts them). The model is named
    ``"<model> (<source> only)"``. This is the row to read beside the human split-half
    ceiling, which exists for the LI pairs only.

    Examples
    --------
    >>> t = PairTable.from_judgements(["a", "c", "e"], ["b", "d", "f"],
    ...     {"a": 1.0, "b": -1.0, "c": 0.5, "d": -0.8, "e": 0.3, "f": -0.2},
    ...     source=["LI", "LI", "Adger"])
    >>> s = {"a": 3.0, "b": 1.0, "c": 2.5, "d": 2.0, "e": 1.0, "f": 0.0}
    >>> row = source_row(s, t, "LI", model="toy", deltas=[1.0])
    >>> row["model"], row["n_pairs"], row["n_sentences"], row["adc"]
    ('toy (LI only)', 2, 4, {'1.0': 1.0})
    >>> row["adc"] == evaluate_on_pairs(s, t, deltas=[1.0])["by_source"]["LI"]["adc"]
    True
    """
    deltas = list(deltas)
    if pairs.source is None:
        raise ValueError("the pair table has no 'source' column: cannot select a source")
    sel = np.array([s == source for s in pairs.source], dtype=bool)
    if not sel.any():
        raise ValueError(
            f"no pair has source {source!r} (expected one of {sorted(set(pairs.source))})"
        )
    z, dlm = model_deltas(scores, pairs, standardize=standardize)
    summary = core.summarize(dlm[sel], pairs.human_delta[sel], deltas=deltas)
    members = dict.fromkeys(
        i for g, b, k in zip(pairs.good_ids, pairs.bad_ids, sel, strict=True) if k for i in (g, b)
    )
    rated = [k for k in members if k in z and not math.isnan(pairs.judgements[k])]
    sent = core.correlation([z[k] for k in rated], [pairs.judgements[k] for k in rated])
    row = {
        "model": f"{model} ({source} only)",
        "n_sentences": len(rated),
        **summary,
        "pearson_sentences": sent["pearson"],
        "pearson_sentences_p": sent["pearson_p"],
        "spearman_sentences": sent["spearman"],
        "spearman_sentences_p": sent["spearman_p"],
        "standardized": bool(standardize),
        "by_source": None,
        "note": f"{source} pairs only; z-scores over all {len(z)} sentences scored",
    }
    return {k: row[k] for k in ROW_KEYS}


CEILING_SPLITS: int = 100
"""Split-halves behind the human row of ``report`` and ``reproduce`` (a few seconds)."""


def ceiling_row(
    n_splits: int = CEILING_SPLITS,
    *,
    seed: int = 0,
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    result: Mapping | None = None,
) -> dict:
    """The human split-half ceiling (LI pairs only) as a result row, keys :data:`ROW_KEYS`.

    Values are the means over ``n_splits`` random split-halves
    (:func:`metric_adc.ceiling.compute_ceiling`, seeded with ``seed``; or pass its
    ``result``). Statistics a split-half has no counterpart for (p-values, Spearman, the
    breakdown by source) are ``None``. ``note`` is :data:`metric_adc.ceiling.NOTE` (LI only:
    the Adger part has no participant-level data); extra keys ``authors_note`` (the request
    of the data's authors, kept with every use), ``n_splits`` and ``seed``.

    Examples
    --------
    >>> row = ceiling_row(20, deltas=[1.0])
    >>> row["model"], row["n_pairs"], 0.5 < row["adc"]["1.0"] < 1
    ('human split-half (LI only)', 1174, True)
    >>> "Adger" in row["note"] and "Jon Sprouse" in row["authors_note"]
    True
    """
    from metric_adc import ceiling

    deltas = list(deltas)
    if result is None:
        if n_splits < 2:
            raise ValueError(f"'n_splits' must be >= 2 (got {n_splits})")
        result = ceiling.compute_ceiling(n_splits=n_splits, seed=seed, tasks=False, deltas=deltas)
    short = ceiling.human_ceiling_row(result)
    stats = result["stats"]
    row = dict.fromkeys(ROW_KEYS)
    row.update(
        model=short["model"],
        n_sentences=int(result["n_sentences"]),
        n_pairs=short["n_pairs"],
        n_excluded=0,
        blimp=short["blimp"],
        human_sign=stats["human_sign"]["mean"],
        adc=short["adc"],
        adc_auc=stats["adc_auc"]["mean"],
        pearson_pairs=short["pearson_pairs"],
        pearson_sentences=short["pearson_sentences"],
        standardized=True,
        note=short["note"],
    )
    return {
        **row,
        "authors_note": result["authors_note"],
        "n_splits": int(result["n_splits"]),
        "seed": result.get("seed", seed),
    }


_STATS_FOR_CI = ("blimp", "adc", "adc_auc", "pearson_pairs")


def analyze_on_pairs(
    scores: Mapping[str, float],
    pairs: PairTable,
    *,
    rng: np.random.Generator,
    model: str = "unnamed",
    deltas: Iterable[float] = core.DEFAULT_DELTAS,
    standardize: bool = True,
    n_resamples: int = 2000,
    baseline: Mapping[str, float] | None = None,
    baseline_standardize: bool = True,
) -> dict:
    """The row plus the analyses: δ sweep, breakdown by phenomenon, bootstrap intervals
    (resampling pairs and, when the table has phenomena, resampling phenomena), and, with a
    ``baseline``, overlap / reduced scores and a paired comparison at each δ.

    Keys: ``row``, ``sweep``, ``by_phenomenon``, ``ci``, ``baseline`` (``None`` where not
    applicable).

    Examples
    --------
    >>> t = thesis_pair_table()
    >>> from metric_adc.thesis import load_thesis_scores
    >>> s = load_thesis_scores()
    >>> a = analyze_on_pairs(s["bert-base-uncased-mlm"], t, rng=np.random.default_rng(0),
    ...                      n_resamples=200, baseline=s["trigram-slor"],
    ...                      baseline_standardize=False)
    >>> sorted(a), sorted(a["ci"]["pairs"])
    (['baseline', 'by_phenomenon', 'ci', 'row', 'sweep'], ['adc_0.5', 'adc_1.0', 'adc_5.0', 'adc_auc', 'blimp', 'pearson_pairs'])
    """
    deltas = list(deltas)
    row = evaluate_on_pairs(scores, pairs, model=model, deltas=deltas, standardize=standardize)
    _, dlm = model_deltas(scores, pairs, standardize=standardize)
    h = pairs.human_delta
    sweep = core.delta_sweep(dlm, h)
    by_phen = None
    if pairs.phenomenon is not None:
        by_phen = core.breakdown(pairs.phenomenon, dlm, h, deltas=deltas)

    def cis(clusters):
        out = {}
        for stat in _STATS_FOR_CI:
            for d in deltas if stat == "adc" else [None]:
                key = stat if d is None else f"adc_{core.delta_key(d)}"
                out[key] = bootstrap.bootstrap_ci(
                    dlm, h, statistic=stat, delta=d, rng=rng,
                    n_resamples=n_resamples, clusters=clusters,
                )  # fmt: skip
        return out

    ci = {"pairs": cis(None), "phenomena": cis(pairs.phenomenon) if by_phen else None}
    base = None
    if baseline is not None:
        _, dlm_b = model_deltas(baseline, pairs, standardize=baseline_standardize)
        keep = ~np.isnan(h)
        base = {"overlap": {}, "comparison": {}}
        for d in deltas:
            k = core.delta_key(d)
            base["overlap"][k] = core.overlap(
                core.adc_pass(dlm[keep], h[keep], d), core.adc_pass(dlm_b[keep], h[keep], d)
            )
            base["comparison"][k] = bootstrap.paired_comparison(
                dlm, dlm_b, h, statistic="adc", delta=d, rng=rng, n_resamples=n_resamples,
                clusters=pairs.phenomenon,
            )  # fmt: skip
    return {"row": row, "sweep": sweep, "by_phenomenon": by_phen, "ci": ci, "baseline": base}


def _fmt(x: float | None, digits: int = 3) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def format_table(rows: Sequence[Mapping]) -> str:
    """A plain-text table of result rows (BLiMP, ADC at each δ, pair and sentence Pearson).

    Examples
    --------
    >>> row = {"model": "toy", "n_pairs": 2, "n_excluded": 0, "blimp": 1.0,
    ...        "adc": {"1.0": 0.5}, "adc_auc": 0.4, "pearson_pairs": None,
    ...        "pearson_sentences": 0.25}
    >>> print(format_table([row]))
    model  pairs  excl  BLiMP  ADC δ=1.0  ADC area  r pairs  r sentences
    toy        2     0  1.000      0.500     0.400        —        0.250
    """
    keys = list(rows[0]["adc"]) if rows else []
    header = ["model", "pairs", "excl", "BLiMP", *[f"ADC δ={k}" for k in keys]]
    header += ["ADC area", "r pairs", "r sentences"]
    body = [
        [
            str(r["model"]),
            str(r["n_pairs"]),
            str(r["n_excluded"]),
            _fmt(r["blimp"]),
            *[_fmt(r["adc"].get(k)) for k in keys],
            _fmt(r.get("adc_auc")),
            _fmt(r.get("pearson_pairs")),
            _fmt(r.get("pearson_sentences")),
        ]
        for r in rows
    ]
    widths = [max(len(c[i]) for c in [header, *body]) for i in range(len(header))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(line, widths, strict=True))
        )
        for line in [header, *body]
    ]
    return "\n".join(ln.rstrip() for ln in lines)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def format_markdown(rows: Sequence[Mapping]) -> str:
    """A GitHub-markdown table of result rows, then each row's note as a list item.

    Columns: model, pairs, BLiMP, ADC at each δ of the first row, Pearson r at pair and at
    sentence level; values to 3 decimals (``—`` where undefined). Rows sharing a note share
    one list item.

    Examples
    --------
    >>> row = {"model": "toy", "n_pairs": 2, "blimp": 1.0, "adc": {"0.5": 0.5, "1.0": 0.75},
    ...        "pearson_pairs": None, "pearson_sentences": 0.25, "note": "a toy"}
    >>> print(format_markdown([row]))
    | model | pairs | BLiMP | ADC δ=0.5 | ADC δ=1 | Pearson (pairs) | Pearson (sentences) |
    |---|---:|---:|---:|---:|---:|---:|
    | toy | 2 | 1.000 | 0.500 | 0.750 | — | 0.250 |
    <BLANKLINE>
    - toy: a toy
    """
    keys = list(rows[0]["adc"]) if rows else []
    header = ["model", "pairs", "BLiMP", *[f"ADC δ={float(k):g}" for k in keys]]
    header += ["Pearson (pairs)", "Pearson (sentences)"]
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    for r in rows:
        cells = [
            _md_cell(str(r["model"])),
            str(r["n_pairs"]),
            _fmt(r["blimp"]),
            *[_fmt(r["adc"].get(k)) for k in keys],
            _fmt(r.get("pearson_pairs")),
            _fmt(r.get("pearson_sentences")),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    by_note: dict[str, list[str]] = {}
    for r in rows:
        if r.get("note"):
            by_note.setdefault(r["note"], []).append(str(r["model"]))
    notes = [f"- {', '.join(who)}: {note}" for note, who in by_note.items()]
    return "\n".join(lines + (["", *notes] if notes else []))
