"""The harness utilities answer any bad item with one clear error naming the input and the field.

``process_results``, the aggregations (``summary``, ``evaluate``), ``read_samples`` and
``samples_to_scores`` get what the strategies of ``harness_strategies.py`` make: a valid item
gives a result, anything else a :class:`~metric_adc.harness.task.HarnessItemError` (in process)
or an :class:`~li_adger.io.readers.InputFileError` (a samples file) naming the document or the
file, the line and the field — never a bare ``ValueError``, ``TypeError`` or ``IndexError``,
and never the output file.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import pytest
from harness_strategies import (
    LOG_LIKELIHOODS,
    SENTENCE_IDS,
    documents,
    is_number,
    items,
    results,
    sample_records,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from li_adger.io.readers import InputFileError
from metric_adc.harness import samples, task, utils

FAST = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FAST
@given(doc=documents, res=results)
def test_process_results_gives_an_item_or_names_the_document_and_field(doc, res):
    try:
        out = utils.process_results(doc, res)
    except task.HarnessItemError as exc:
        message = str(exc)
        assert message.startswith("li_adger_adc: ")
        assert "\n" not in message
        sid = doc.get("id") if isinstance(doc, dict) else None
        if isinstance(sid, str) and sid:
            assert f"document {sid!r}" in message
            assert "results" in message  # the field at fault
        else:
            assert "doc['id']" in message
        return
    sid, ll = out["blimp"]
    assert sid == doc["id"] and math.isfinite(ll)
    assert is_number(res[0][0]) and ll == float(res[0][0])


@pytest.mark.parametrize("bad", [True, False, float("nan"), float("inf"), "x", None, 10**400])
def test_process_results_refuses_a_log_likelihood_that_is_not_a_finite_number(bad):
    with pytest.raises(task.HarnessItemError, match=r"document 's1': results\[0\]\[0\]"):
        utils.process_results({"id": "s1", "sentence": "A."}, [(bad, False)])


@FAST
@given(good=st.lists(st.tuples(st.sampled_from(SENTENCE_IDS), LOG_LIKELIHOODS), max_size=6),
       bad=st.lists(items, max_size=3), at=st.integers(0, 6))  # fmt: skip
def test_the_aggregations_evaluate_or_name_the_item(good, bad, at):
    given_items = good[:at] + bad + good[at:]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", task.PartialRunWarning)
        try:
            e = task.evaluate(given_items)
        except task.HarnessItemError as exc:
            message = str(exc)
            assert message.startswith("li_adger_adc: ") and "\n" not in message
            assert re.search(r"\bitems? \d", message) or "no documents" in message
            return
    assert e.n_sentences == len({sid for sid, _ in given_items})
    for name in task.METRICS:
        value = e.value(name)
        assert value is None or math.isfinite(value)


def test_summary_refuses_a_json_true_log_likelihood():
    with pytest.raises(task.HarnessItemError, match=r"item 2 .*must be a number \(got True\)"):
        task.summary([(SENTENCE_IDS[0], -1.0), (SENTENCE_IDS[1], True)])


def test_a_sentence_twice_names_both_items():
    with pytest.raises(task.HarnessItemError, match=r"scored twice \(items 1 and 3\)"):
        task.evaluate([(SENTENCE_IDS[0], -1.0), (SENTENCE_IDS[1], -2.0), (SENTENCE_IDS[0], -1.0)])


def _write(path: Path, records: list) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


@FAST
@given(records=st.lists(sample_records, min_size=1, max_size=4))
def test_read_samples_reads_or_names_the_file_line_and_field(tmp_path, records):
    path = tmp_path / "samples_li_adger_adc_x.jsonl"
    try:
        text = "".join(json.dumps(r) + "\n" for r in records)
    except (ValueError, TypeError):
        return
    try:
        path.write_text(text, encoding="utf-8")
    except UnicodeEncodeError:
        return
    try:
        got = samples.read_samples(path)
    except InputFileError as exc:
        message = str(exc)
        assert message.startswith(f"{path}"), message
        assert " line " in message or "no samples" in message
        return
    assert len(got) == len(records)
    for rec, raw in zip(got, records, strict=True):
        assert rec["id"] == raw["doc"]["id"] and math.isfinite(rec["score"])
        assert is_number(raw["filtered_resps"][0][0])


def test_a_json_true_log_likelihood_is_refused(tmp_path):
    path = tmp_path / "samples.jsonl"
    _write(path, [{"doc": {"id": "a", "sentence": "A."}, "filtered_resps": [[True, "False"]]}])
    with pytest.raises(InputFileError, match=r"line 1 \(doc.id 'a'\): filtered_resps\[0\]\[0\]"):
        samples.read_samples(path)


def test_a_sentence_twice_in_the_samples_names_both_lines(tmp_path):
    path = tmp_path / "samples.jsonl"
    rec = {"doc": {"id": "a", "sentence": "A."}, "filtered_resps": [["-1.0", "False"]]}
    _write(path, [rec, rec])
    with pytest.raises(InputFileError, match=r"line 2: doc.id 'a' appears twice \(lines 1 and 2\)"):
        samples.read_samples(path)


@pytest.mark.parametrize(
    "record",
    [
        {"doc": {"id": "a", "sentence": "A."}, "filtered_resps": [["-1e999", "False"]]},
        {"doc": {"id": "", "sentence": "A."}, "filtered_resps": [["-1", "False"]]},
        {"doc": {"id": "a", "sentence": 3}, "filtered_resps": [["-1", "False"]]},
        {"doc": {"id": "a"}, "filtered_resps": [["-1", "False"]]},
        {"doc": {"id": "a", "sentence": "A."}, "filtered_resps": []},
    ],
)
def test_samples_to_scores_names_the_input_not_the_output(tmp_path, record):
    path = tmp_path / "samples.jsonl"
    _write(path, [record])
    out = tmp_path / "scores.jsonl"
    with pytest.raises(InputFileError) as caught:
        samples.samples_to_scores(path, out, model="m")
    assert str(caught.value).startswith(f"{path} line 1")
    assert str(out) not in str(caught.value)
    assert not out.exists()
