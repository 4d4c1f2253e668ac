"""The typed parts of a report beside its rows (:class:`metric_adc.report.shape.Report`): the
analyses (:class:`PairAnalysis` on LI-Adger's pairs, :class:`OutcomeAnalysis` on the family's
outcomes), how a fitted linking function was fitted (:class:`LinkingFits`) and the groups a
file scores (:class:`Subset`).

Each is a frozen dataclass that formatters read by attribute and that becomes a dict only as
JSON, through its ``to_json_dict`` (keys in the order ``--json`` prints them). The statistics
inside stay the plain dicts their functions return: a bootstrap interval
(:func:`metric_adc.bootstrap.bootstrap_cis`, :func:`~metric_adc.bootstrap.stratified_ci`,
:func:`~metric_adc.bootstrap.paired_comparison`), a δ sweep
(:func:`metric_adc.core.delta_sweep`), a breakdown (:func:`metric_adc.core.breakdown`), an
overlap (:func:`metric_adc.core.overlap`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from metric_adc.linking.fit import CrossFit

__all__ = [
    "BaselineComparison",
    "LabelledIntervals",
    "LinkingFits",
    "OutcomeAnalysis",
    "PairAnalysis",
    "PairIntervals",
    "Subset",
]


@dataclass(frozen=True)
class PairIntervals:
    """The bootstrap intervals of :func:`metric_adc.report.analysis.analyze_on_pairs`, statistic
    → interval: resampling ``pairs``, and resampling ``phenomena`` (``None`` when the pairs
    have none).

    Examples
    --------
    >>> PairIntervals({"blimp": {"low": 0.5}}, None).to_json_dict()
    {'pairs': {'blimp': {'low': 0.5}}, 'phenomena': None}
    """

    pairs: Mapping[str, dict]
    phenomena: Mapping[str, dict] | None

    def to_json_dict(self) -> dict:
        """``{"pairs", "phenomena"}``."""
        return {"pairs": dict(self.pairs), "phenomena": _dict(self.phenomena)}


@dataclass(frozen=True)
class BaselineComparison:
    """The model against a baseline on the same pairs, δ key → statistics: ``overlap``
    (:func:`metric_adc.core.overlap`) and ``comparison``
    (:func:`metric_adc.bootstrap.paired_comparison`).

    Examples
    --------
    >>> BaselineComparison({"1.0": {"both": 0.5}}, {"1.0": {"difference": 0.1}}).to_json_dict()
    {'overlap': {'1.0': {'both': 0.5}}, 'comparison': {'1.0': {'difference': 0.1}}}
    """

    overlap: Mapping[str, dict]
    comparison: Mapping[str, dict]

    def to_json_dict(self) -> dict:
        """``{"overlap", "comparison"}``."""
        return {"overlap": dict(self.overlap), "comparison": dict(self.comparison)}


@dataclass(frozen=True)
class PairAnalysis:
    """The analyses beside a model's ADC row
    (:func:`metric_adc.report.analysis.analyze_on_pairs`): the δ ``sweep``, the breakdown
    ``by_phenomenon`` (``None`` without phenomena), the intervals ``ci`` and the comparison
    with a ``baseline`` (``None`` without one).

    Examples
    --------
    >>> a = PairAnalysis({"auc": 0.5}, None, PairIntervals({}, None), None)
    >>> a.to_json_dict()
    {'sweep': {'auc': 0.5}, 'by_phenomenon': None, 'ci': {'pairs': {}, 'phenomena': None}, 'baseline': None}
    """

    sweep: Mapping
    by_phenomenon: Mapping[str, dict] | None
    ci: PairIntervals
    baseline: BaselineComparison | None

    def to_json_dict(self) -> dict:
        """``{"sweep", "by_phenomenon", "ci", "baseline"}``."""
        return {
            "sweep": dict(self.sweep),
            "by_phenomenon": _dict(self.by_phenomenon),
            "ci": self.ci.to_json_dict(),
            "baseline": None if self.baseline is None else self.baseline.to_json_dict(),
        }


@dataclass(frozen=True)
class LabelledIntervals:
    """The MCC intervals of labelled outcomes: pooled over splits (``mcc``) and per split
    (``splits``: split → interval).

    Examples
    --------
    >>> LabelledIntervals({"low": 0.1}, {"dev": {"low": 0.2}}).to_json_dict()
    {'mcc': {'low': 0.1}, 'splits': {'dev': {'low': 0.2}}}
    """

    mcc: Mapping
    splits: Mapping[str, dict]

    def to_json_dict(self) -> dict:
        """``{"mcc", "splits"}``."""
        return {"mcc": dict(self.mcc), "splits": dict(self.splits)}


@dataclass(frozen=True)
class OutcomeAnalysis:
    """The bootstrap intervals of a family benchmark's report
    (:func:`metric_adc.report.analysis.analyze_outcomes`; the keys
    :data:`~metric_adc.report.analysis.ANALYSIS_KEYS`): the scheme of the headline
    (``resampled``), ``n_resamples``, the ``headline``'s interval, and each section's:
    ``pairs`` (group column → level → interval), ``cloze`` (set → ``sensitivity``,
    ``sensitivity_thresholded``, ``accuracy@k`` → interval or ``None``), ``labelled``; ``None``
    where the benchmark lacks the section.

    Examples
    --------
    >>> a = OutcomeAnalysis(n_resamples=9, resampled="pairs", headline={"low": 0.4})
    >>> a.to_json_dict()
    {'resampled': 'pairs', 'n_resamples': 9, 'headline': {'low': 0.4}, 'pairs': None, 'cloze': None, 'labelled': None}
    """

    n_resamples: int
    resampled: str | None = None
    headline: Mapping | None = None
    pairs: Mapping[str, Mapping[str, dict]] | None = None
    cloze: Mapping[str, Mapping[str, dict | None]] | None = None
    labelled: LabelledIntervals | None = None

    def to_json_dict(self) -> dict:
        """``{"resampled", "n_resamples", "headline", "pairs", "cloze", "labelled"}``."""
        return {
            "resampled": self.resampled,
            "n_resamples": self.n_resamples,
            "headline": _dict(self.headline),
            "pairs": _dict(self.pairs),
            "cloze": _dict(self.cloze),
            "labelled": None if self.labelled is None else self.labelled.to_json_dict(),
        }


@dataclass(frozen=True)
class LinkingFits:
    """How each fitted linking function of a ``report --linking`` was fitted: name →
    :class:`~metric_adc.linking.fit.CrossFit` (empty when none of the functions is fitted).

    Examples
    --------
    >>> LinkingFits({}).to_json_dict()
    {}
    """

    fits: Mapping[str, CrossFit]

    def to_json_dict(self) -> dict:
        """Name → :meth:`CrossFit.as_dict <metric_adc.linking.fit.CrossFit.as_dict>`."""
        return {name: fit.as_dict() for name, fit in self.fits.items()}


@dataclass(frozen=True)
class Subset:
    """The whole groups a scores file scores when it scores only some of its benchmark's: the
    ``column`` naming a group (BLiMP: ``UID``), the ``word`` for a group (``paradigm``), the
    ``groups`` and how many the benchmark has (``of``).

    Examples
    --------
    >>> Subset("environment", "environment", ("only",), 9).to_json_dict()
    {'column': 'environment', 'word': 'environment', 'groups': ['only'], 'of': 9}
    """

    column: str
    word: str
    groups: tuple[str, ...]
    of: int

    def to_json_dict(self) -> dict:
        """``{"column", "word", "groups", "of"}``."""
        return {
            "column": self.column,
            "word": self.word,
            "groups": list(self.groups),
            "of": self.of,
        }


def _dict(value: Mapping | None) -> dict | None:
    return None if value is None else dict(value)
