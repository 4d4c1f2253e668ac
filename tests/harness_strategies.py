"""Hypothesis strategies for what lm-evaluation-harness hands the ``li_adger_adc`` task, and
for what it writes: documents, answers, aggregation items and samples-file records, valid or
damaged in any field (booleans, NaN, infinities, huge integers, lone surrogates, wrong shapes).
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

import li_adger

SENTENCE_IDS: list[str] = li_adger.load("sentences")["id"]

ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**400),
    st.floats(),
    st.text(max_size=6),
    st.sampled_from(["\ud800", "nan", "-inf", "1e999", "True", "", " "]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
"""Any value a damaged item may hold in any field."""

LOG_LIKELIHOODS = st.floats(min_value=-500.0, max_value=0.0, allow_nan=False)
"""A log-likelihood the harness could give (a finite number)."""

IDS = st.one_of(st.sampled_from(SENTENCE_IDS), ODD)
"""A sentence id: LI-Adger's, or anything else."""


def is_number(value: object) -> bool:
    """Whether the task must accept ``value`` as a log-likelihood (a finite non-bool number,
    or its text)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        try:
            return math.isfinite(float(value))
        except ValueError:
            return False
    if isinstance(value, int | float):
        try:
            return math.isfinite(float(value))
        except OverflowError:
            return False
    return False


documents = st.one_of(
    st.fixed_dictionaries({"id": IDS, "sentence": st.text(max_size=10)}),
    st.dictionaries(st.sampled_from(["id", "sentence", "doc"]), ODD, max_size=2),
    ODD,
)
"""A document as ``process_results`` gets it: a dataset row, or something broken."""

answers = st.one_of(
    st.tuples(st.one_of(LOG_LIKELIHOODS, ODD), st.booleans()).map(list),
    st.lists(st.one_of(LOG_LIKELIHOODS, ODD), max_size=3),
    ODD,
)
results = st.one_of(st.lists(answers, min_size=1, max_size=1), st.lists(answers, max_size=3), ODD)
"""``process_results``'s ``results``: one answer ``(log-likelihood, is_greedy)``, or not."""

items = st.one_of(
    st.tuples(st.sampled_from(SENTENCE_IDS), LOG_LIKELIHOODS),
    st.tuples(IDS, st.one_of(LOG_LIKELIHOODS, ODD)),
    st.lists(ODD, max_size=3),
    ODD,
)
"""One aggregation item: ``(sentence id, log-likelihood)``, or something else."""

sample_records = st.one_of(
    st.fixed_dictionaries(
        {
            "doc": st.fixed_dictionaries(
                {"id": IDS, "sentence": st.one_of(st.text(max_size=8), ODD)}
            ),
            "filtered_resps": st.one_of(
                st.lists(
                    st.lists(st.one_of(LOG_LIKELIHOODS.map(repr), ODD), max_size=2), max_size=2
                ),
                ODD,
            ),
        }
    ),
    st.dictionaries(st.sampled_from(["doc", "filtered_resps"]), ODD, max_size=2),
    ODD,
)
"""One record of a samples file as the harness writes it, or damaged."""
