"""Pairs where two criteria or two sets of models disagree (the thesis's Tables 2.5, 2.7, 2.8
and 3.2–3.5), pure.

A pair is listed when every model of one set passes one criterion and every model of another
set fails another (:func:`disagreement_mask`): the BLiMP criterion against the ADC at δ for
one set (Tables 2.5, 3.2, 3.3), or the ADC at δ for one set against another (Tables 2.7, 2.8,
3.4, 3.5). Pairs without a human judgement are never listed. :data:`THESIS_TABLES` holds the
thesis's seven tables as such selections.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from metric_adc import core
from metric_adc.pairs import PairTable

__all__ = [
    "CRITERIA",
    "THESIS_TABLES",
    "Selection",
    "criterion_pass",
    "disagreement_mask",
    "disagreements",
]

CRITERIA = ("blimp", "adc")
COLA = ("bert-base-uncased-cola", "bert-large-uncased-cola", "bert-large-cased-cola")
MLM = ("bert-base-uncased-mlm", "bert-large-uncased-mlm", "bert-large-cased-mlm")
GROUPS: dict[str, tuple[str, ...]] = {
    "thesis-cola": COLA,
    "thesis-mlm": MLM,
    "thesis-trigram": ("trigram-slor", "trigram-logprob"),
}
"""Names that stand for several thesis models in ``--set``, ``--passes`` and ``--fails``."""


@dataclass(frozen=True)
class Selection:
    """Every model of ``passes`` passes ``pass_criterion`` and every model of ``fails`` fails
    ``fail_criterion``, the ADC at ``delta``."""

    passes: tuple[str, ...]
    pass_criterion: str
    fails: tuple[str, ...]
    fail_criterion: str
    delta: float
    caption: str = ""

    def __post_init__(self) -> None:
        for field in ("pass_criterion", "fail_criterion"):
            if getattr(self, field) not in CRITERIA:
                raise ValueError(
                    f"{field!r} must be one of {CRITERIA} (got {getattr(self, field)!r})"
                )
        if not self.passes or not self.fails:
            raise ValueError("'passes' and 'fails' must each name at least one model")
        core.check_delta(self.delta)

    def describe(self) -> str:
        """The selection in words.

        Examples
        --------
        >>> Selection(("a",), "blimp", ("a",), "adc", 5.0).describe()
        'a: pass BLiMP, fail ADC δ=5'
        >>> Selection(("a", "b"), "adc", ("c",), "adc", 0.5).describe()
        'all of a, b pass ADC δ=0.5; all of c fail it'
        """
        d = f"δ={self.delta:g}"
        name = {"blimp": "BLiMP", "adc": f"ADC {d}"}
        if self.passes == self.fails:
            who = self.passes[0] if len(self.passes) == 1 else f"all of {', '.join(self.passes)}"
            return f"{who}: pass {name[self.pass_criterion]}, fail {name[self.fail_criterion]}"
        fails = (
            "fail it"
            if self.pass_criterion == self.fail_criterion
            else f"fail {name[self.fail_criterion]}"
        )
        return (
            f"all of {', '.join(self.passes)} pass {name[self.pass_criterion]}; "
            f"all of {', '.join(self.fails)} {fails}"
        )


THESIS_TABLES: dict[str, Selection] = {
    "2.5": Selection(("bert-large-cased-cola",), "blimp", ("bert-large-cased-cola",), "adc", 5.0,
                     "BERT-CoLA large-cased meets the BLiMP criterion but not the ADC δ=5 "
                     "(the thesis: its 4 printed pairs and 54 others)"),
    "2.7": Selection(COLA, "adc", ("trigram-slor",), "adc", 0.5,
                     "all BERT-CoLA models meet the ADC δ=0.5, the trigram (SLOR) does not"),
    "2.8": Selection(("trigram-slor",), "adc", COLA, "adc", 0.5,
                     "the trigram (SLOR) meets the ADC δ=0.5, none of the BERT-CoLA models do"),
    "3.2": Selection(MLM, "blimp", MLM, "adc", 5.0,
                     "all BERT-MLM models pass the BLiMP criterion but not the ADC δ=5"),
    "3.3": Selection(MLM, "adc", MLM, "blimp", 5.0,
                     "all BERT-MLM models pass the ADC δ=5 but not the BLiMP criterion"),
    "3.4": Selection(COLA, "adc", MLM, "adc", 5.0,
                     "all BERT-CoLA models meet the ADC δ=5, no BERT-MLM model does"),
    "3.5": Selection(MLM, "adc", COLA, "adc", 5.0,
                     "all BERT-MLM models meet the ADC δ=5, no BERT-CoLA model does"),
}  # fmt: skip
"""The thesis's disagreement tables (captions of Tables 2.5, 2.7, 2.8, 3.2–3.5) as selections
of its models on its pair file."""


def criterion_pass(
    model_delta: ArrayLike, human_delta: ArrayLike, criterion: str, delta: float
) -> np.ndarray:
    """Per pair: the BLiMP criterion (``Δlm > 0``) or the ADC at ``delta``
    (:func:`metric_adc.core.blimp_pass`, :func:`metric_adc.core.adc_pass`); a pair whose
    ``Δlm`` is NaN passes neither.

    Examples
    --------
    >>> criterion_pass([1.0, -0.2, 3.0], [0.5, 0.1, 0.2], "blimp", 1.0).tolist()
    [True, False, True]
    >>> criterion_pass([1.0, -0.2, 3.0], [0.5, 0.1, 0.2], "adc", 1.0).tolist()
    [True, False, False]
    """
    m = np.asarray(model_delta, dtype=float)
    scored = ~np.isnan(m)
    out = np.zeros(m.shape, dtype=bool)
    if criterion == "blimp":
        out[scored] = core.blimp_pass(m[scored])
    elif criterion == "adc":
        out[scored] = core.adc_pass(m[scored], np.asarray(human_delta, dtype=float)[scored], delta)
    else:
        raise ValueError(f"'criterion' must be one of {CRITERIA} (got {criterion!r})")
    return out


def disagreement_mask(
    deltas: Mapping[str, ArrayLike], human_delta: ArrayLike, selection: Selection
) -> np.ndarray:
    """Per pair: every model of ``selection.passes`` passes its criterion and every model of
    ``selection.fails`` fails its own; pairs without a human delta are never selected.

    Examples
    --------
    >>> s = Selection(("a",), "blimp", ("a",), "adc", 1.0)
    >>> disagreement_mask({"a": [1.0, 3.0, 0.5]}, [0.5, 0.2, float("nan")], s).tolist()
    [False, True, False]
    >>> disagreement_mask({}, [0.5], s)
    Traceback (most recent call last):
    ...
    ValueError: no scores for model 'a' (models given: [])
    """
    h = np.asarray(human_delta, dtype=float)
    for name in (*selection.passes, *selection.fails):
        if name not in deltas:
            raise ValueError(f"no scores for model {name!r} (models given: {sorted(deltas)})")
    mask = ~np.isnan(h)
    for name in selection.passes:
        mask &= criterion_pass(deltas[name], h, selection.pass_criterion, selection.delta)
    for name in selection.fails:
        m = np.asarray(deltas[name], dtype=float)
        mask &= ~np.isnan(m) & ~criterion_pass(m, h, selection.fail_criterion, selection.delta)
    return mask


def disagreements(pairs: PairTable, deltas: Mapping[str, ArrayLike], selection: Selection) -> dict:
    """The pairs of ``selection`` as a result: the selection, the count and one row per pair
    (ids, ``Δh`` and each named model's ``Δlm``), in the table's order.

    Examples
    --------
    >>> t = PairTable.from_judgements(["g1", "g2"], ["b1", "b2"],
    ...                               {"g1": 1.0, "b1": 0.5, "g2": 0.2, "b2": 0.0})
    >>> r = disagreements(t, {"a": [3.0, 0.1]}, Selection(("a",), "blimp", ("a",), "adc", 1.0))
    >>> r["n_pairs"], r["rows"][0]["good_id"], r["rows"][0]["model_delta"]
    (1, 'g1', {'a': 3.0})
    """
    mask = disagreement_mask(deltas, pairs.human_delta, selection)
    names = list(dict.fromkeys((*selection.passes, *selection.fails)))
    rows = [
        {
            "good_id": pairs.good_ids[k],
            "bad_id": pairs.bad_ids[k],
            "human_delta": float(pairs.human_delta[k]),
            "model_delta": {n: _number(np.asarray(deltas[n], dtype=float)[k]) for n in names},
        }
        for k in np.flatnonzero(mask)
    ]
    return {
        "selection": selection.describe(),
        "caption": selection.caption,
        "passes": list(selection.passes),
        "pass_criterion": selection.pass_criterion,
        "fails": list(selection.fails),
        "fail_criterion": selection.fail_criterion,
        "delta": selection.delta,
        "n_evaluable": int((~np.isnan(pairs.human_delta)).sum()),
        "n_pairs": len(rows),
        "rows": rows,
    }


def _number(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def expand(names: Sequence[str]) -> tuple[str, ...]:
    """Model names with the :data:`GROUPS` expanded, each once, in order.

    Examples
    --------
    >>> expand(["thesis-cola", "trigram-slor"])[-2:]
    ('bert-large-cased-cola', 'trigram-slor')
    """
    return tuple(dict.fromkeys(n for name in names for n in GROUPS.get(name, (name,))))
