"""Fuzzing the linking fields: any values a scores file's records may carry for ``logprob``,
``unigram_logprob``, ``n_words`` and ``n_tokens`` give linking scores that are finite numbers,
or one ValueError naming the file, the record's line and id, and the field (docs/errors.md);
any judgements and phenomena given to the fitted linking give held-out scores or a ValueError
that says why there is nothing to fit.

The strategies draw what a reader lets through (finite numbers, whole lengths >= 0, as
:func:`metric_adc.scores.file.read_scores` checks them) with the edges a linking function has:
log-probabilities above 0, of 0 and of ±1e308, lengths of 0.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metric_adc.linking.fit import cross_fit
from metric_adc.linking.formulas import LINKING_NAMES
from metric_adc.linking.function_rows import linking_scores
from metric_adc.scores.file import read_scores, write_scores

LOG_PROB = st.one_of(
    st.floats(min_value=-1e308, max_value=1e-3, allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, -1e308, -5e-324, 1e-9, 1e308]),
)
"""A total log-probability as a record may hold it: mostly <= 0, sometimes above."""
LENGTH = st.one_of(st.integers(min_value=0, max_value=60), st.just(0), st.just(10**18))
"""A sentence length as a record may hold it: a whole number >= 0."""
RECORD = st.fixed_dictionaries(
    {"logprob": LOG_PROB, "unigram_logprob": LOG_PROB, "n_words": LENGTH, "n_tokens": LENGTH}
)
"""The linking fields of one record."""
LINE = re.compile(r"^\S+ line (\d+) \(id '(s\d+)'\): --linking \w+")

_settings = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.mark.parametrize("name", LINKING_NAMES)
@_settings
@given(records=st.lists(RECORD, min_size=1, max_size=5))
def test_any_linking_fields_give_finite_scores_or_name_the_record(name, records, tmp_path):
    path = write_scores(
        tmp_path / "s.jsonl",
        [{"id": f"s{k}", "score": 0.0, **r} for k, r in enumerate(records)],
        {"model": "m"},
    )
    sf = read_scores(path)
    try:
        scores, fit = linking_scores(sf, name)
    except ValueError as exc:
        message = str(exc)
        found = LINE.match(message.removeprefix(str(tmp_path) + "/"))
        assert found, message
        line, i = int(found[1]), found[2]
        assert line == int(i[1:]) + 2  # the metadata is line 1
        assert any(f"'{field}'" in message or "gives" in message or "undefined" in message
                   for field in records[0]), message  # fmt: skip
        return
    assert fit is None and list(scores) == sf.ids
    assert all(math.isfinite(v) for v in scores.values())


JUDGEMENT = st.one_of(
    st.floats(min_value=-10, max_value=10, allow_nan=False), st.just(math.nan), st.just(0.5)
)


@_settings
@given(
    rows=st.lists(
        st.tuples(
            st.floats(min_value=-200, max_value=-0.1),
            st.floats(min_value=-300, max_value=-0.1),
            st.integers(min_value=1, max_value=30),
            JUDGEMENT,
            st.sampled_from(["p0", "p1", "p2", "p3", "p4", "p5"]),
        ),
        min_size=1,
        max_size=30,
    ),
    k=st.integers(min_value=2, max_value=6),
)
def test_any_judgements_and_phenomena_give_held_out_scores_or_the_reason(rows, k):
    logp, logpu, n, judgement, phenomenon = (list(c) for c in zip(*rows, strict=True))
    try:
        out = cross_fit(logp, logpu, n, judgement, phenomenon, k=k, seed=0)
    except ValueError as exc:
        message = str(exc)
        assert message.startswith(("nothing to fit", "fold ")), message
        if message.startswith("fold "):
            assert "cannot be fitted on the other folds: " in message
        return
    assert out.scores.shape == (len(rows),) and np.isfinite(out.scores).all()
    judged = [j for j in judgement if not math.isnan(j)]
    assert len(set(judged)) > 1  # a fit was made of judgements that vary
