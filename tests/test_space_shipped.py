"""The results that ship with the app (space/results/) are right and hold no benchmark text.

- The trigram's files are the trigram itself: re-scored here (a few seconds), its LI-Adger
  scores are equal to the shipped ``id,score`` file and its other benchmarks' results to the
  shipped summaries (BLiMP on three paradigms, which is enough to catch a stale file).
- Every shipped LI-Adger ``id,score`` file recomputed into a row equals its shipped summary,
  and the trigram's row, SmolLM2's fitted row and the human ceiling are the README's numbers.
- The thesis's 8 models are its published outputs z-scored as the thesis evaluates them, and
  their rows are the README's.
- No shipped file holds a sentence of any benchmark: ids and scores, or aggregates only.
"""

from __future__ import annotations

import csv
import json

import pytest
from space_helpers import readme_row

from li_adger.benchmarks import BENCHMARKS, load_items
from metric_adc import result_rows
from metric_adc.family.statistics import evaluate_items
from metric_adc.pairs import li_adger_pairs
from metric_adc.thesis.outputs import display_name
from space.data import shipped
from space.data.names import slug

SHIPPED = shipped.SHIPPED_DIR
TRIGRAM = "trigram-slor"


@pytest.fixture(scope="module")
def trigram():
    from baselines.spec import build_scorer

    return build_scorer("trigram", progress=False)


def _approx_equal(a, b, path="result"):
    """Two nested results are equal: the same keys, numbers within 1e-12."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), path
        for k in a:
            _approx_equal(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=0, abs=1e-12), path
    else:
        assert a == b, path


def test_the_shipped_trigram_li_adger_scores_are_the_trigram(trigram):
    import li_adger

    sentences = li_adger.load("sentences")
    got = dict(zip(sentences["id"], trigram.score(list(sentences["sentence"])), strict=True))
    with (SHIPPED / "li_adger" / f"{TRIGRAM}.csv").open(newline="") as fh:
        shipped_rows = list(csv.reader(fh))
    assert shipped_rows[0] == ["id", "score"] and len(shipped_rows) == 4179
    for i, s in shipped_rows[1:]:
        assert float(s) == pytest.approx(got[i], rel=0, abs=1e-12), i


@pytest.mark.parametrize("bench", ["npi", "cola"])
def test_the_shipped_trigram_results_are_the_trigram_rescored(trigram, bench):
    items = load_items(bench)
    scores = dict(zip(items.units["id"], trigram.score(list(items.units["sentence"])), strict=True))
    expected = evaluate_items(bench, items, scores, kind="ngram")
    got = json.loads((SHIPPED / bench / f"{TRIGRAM}.json").read_text())
    assert got["metadata"]["dataset"] == bench and got["metadata"]["kind"] == "ngram"
    _approx_equal(got["result"], expected)


def test_the_shipped_trigram_blimp_paradigms_are_the_trigram_rescored(trigram):
    items = load_items("blimp")
    got = json.loads((SHIPPED / "blimp" / f"{TRIGRAM}.json").read_text())["result"]
    paradigms = got["pairs"]["groups"]["UID"]
    assert len(paradigms) == 67
    # the headline is the mean over paradigms (each has 1,000 pairs)
    mean = sum(p["blimp"] for p in paradigms.values()) / 67
    assert got["headline"]["value"] == pytest.approx(mean, abs=1e-12)
    c = items.comparisons
    for uid in ("adjunct_island", "passive_1", "tough_vs_raising_2"):
        sel = c[c["UID"] == uid]
        good = trigram.score(items.units.set_index("id").loc[sel["good_id"], "sentence"].tolist())
        bad = trigram.score(items.units.set_index("id").loc[sel["bad_id"], "sentence"].tolist())
        passed = sum(g > b for g, b in zip(good, bad, strict=True)) / len(sel)
        assert paradigms[uid] == {"n_pairs": 1000, "blimp": pytest.approx(passed, abs=1e-12)}


def test_every_shipped_li_adger_file_recomputes_to_its_summary():
    table = li_adger_pairs()
    files = shipped.read_li_adger(SHIPPED)
    assert TRIGRAM in {slug(s.name) for s in files}
    for s in files:
        assert len(s.scores) == 4178, s.name
        row = result_rows.evaluate_on_pairs(s.scores, table, model=s.name, note=s.note)
        _approx_equal(json.loads(json.dumps(row.to_json_dict())), s.row, s.name)


def test_the_shipped_trigram_row_is_the_readmes():
    trigram = next(s for s in shipped.read_li_adger(SHIPPED) if s.name == "trigram (slor)")
    want = readme_row("trigram (slor)")
    got = trigram.row
    assert round(got["blimp"], 3) == want["blimp"]
    assert [round(got["adc"][k], 3) for k in ("0.5", "1.0", "5.0")] == [
        want["0.5"],
        want["1.0"],
        want["5.0"],
    ]
    assert round(got["pearson_pairs"], 3) == want["pearson_pairs"]
    assert round(got["pearson_sentences"], 3) == want["pearson_sentences"]


def test_the_shipped_ceiling_is_the_readmes_human_row_recomputed():
    from metric_adc.ceiling.compute import HUMAN_ROW_SPLITS
    from space.data.loaders import compute_ceiling

    c = shipped.read_ceiling(SHIPPED)
    want = readme_row("human split-half (LI only)")
    assert (c.row["n_splits"], c.row["seed"], c.row["n_pairs"]) == (HUMAN_ROW_SPLITS, 0, 1174)
    assert round(c.row["blimp"], 3) == want["blimp"]
    assert [round(c.adc_at(d), 3) for d in (0.5, 1.0, 5.0)] == [
        want["0.5"],
        want["1.0"],
        want["5.0"],
    ]
    fresh = compute_ceiling()  # from the participant-level data, as the README's row
    _approx_equal(json.loads(json.dumps(fresh.row)), c.row, "ceiling")
    assert c.adc.tolist() == pytest.approx(fresh.adc.tolist(), abs=1e-12)


def test_the_shipped_blimp_references_are_the_papers():
    refs = {e.name: e for e in shipped.read_references(SHIPPED, "blimp")}
    # Warstadt et al. (2020), Table 3 (corrected version): human 88.6, 5-gram 61.2, LSTM 69.8,
    # Transformer-XL 69.6, GPT-2 83.0
    got = {k: round(e.headline, 3) for k, e in refs.items()}
    assert got == {"human": 0.886, "5-gram": 0.612, "LSTM": 0.698, "Transformer-XL": 0.696,
                   "GPT-2": 0.83}  # fmt: skip


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def test_no_shipped_file_holds_a_benchmark_sentence():
    import li_adger

    texts = set(li_adger.load("sentences")["sentence"])
    for name in BENCHMARKS:
        if name != "li_adger":
            units = load_items(name).units
            texts |= set(units["sentence" if "sentence" in units else "context"])
            if "after" in units:  # the words after a blank inside the sentence (npi_cloze)
                texts |= set(units["after"])
    texts.discard("")  # a blank that opens a sentence has an empty context, which is no text
    files = [p for p in SHIPPED.rglob("*") if p.is_file()]
    assert files
    for path in files:
        if path.suffix == ".csv":
            with path.open(newline="") as fh:
                header, *body = list(csv.reader(fh))
            assert header == ["id", "score"] and all(len(r) == 2 for r in body), path
            strings = {r[0] for r in body}
        else:
            assert path.suffix == ".json", path
            strings = set(_strings(json.loads(path.read_text())))
        assert not strings & texts, (path, sorted(strings & texts)[:3])


# ----------------------------------------------------------------------------- the thesis
THESIS_ROWS = [
    "bert-base-uncased-mlm", "bert-large-uncased-mlm", "bert-large-cased-mlm",
    "bert-base-uncased-cola", "bert-large-uncased-cola", "bert-large-cased-cola",
    "trigram-slor", "trigram-logprob",
]  # fmt: skip


def _rounded(row: dict) -> dict:
    return {
        "pairs": row["n_pairs"],
        "blimp": round(row["blimp"], 3),
        **{k: round(row["adc"][k], 3) for k in ("0.5", "1.0", "5.0")},
        "pearson_pairs": round(row["pearson_pairs"], 3),
        "pearson_sentences": round(row["pearson_sentences"], 3),
    }


def test_the_shipped_thesis_models_give_the_readmes_rows():
    table = li_adger_pairs()
    found = {s.metadata["thesis_model"]: s for s in shipped.read_thesis(SHIPPED)}
    assert sorted(found) == sorted(THESIS_ROWS)
    for name in THESIS_ROWS:
        s = found[name]
        assert s.standardized, name
        # one name per model: the app shows the README's row name, display_name of the id
        assert s.name == display_name(name), name
        row = result_rows.evaluate_on_pairs(
            s.scores, table, model=s.name, standardize=False, note=s.note
        ).to_json_dict()
        assert _rounded(row) == readme_row(s.name), name
        # the same row but for where the z-scores were made (here: shipped as z-scores)
        row = {k: v for k, v in row.items() if k != "standardized"}
        shipped_row = {k: v for k, v in s.row.items() if k != "standardized"}
        _approx_equal(json.loads(json.dumps(row)), shipped_row, s.name)


def test_the_shipped_thesis_z_scores_are_its_outputs_z_scored():
    import numpy as np

    from metric_adc.thesis.outputs import load_thesis_models

    found = {s.metadata["thesis_model"]: s for s in shipped.read_thesis(SHIPPED)}
    for m in load_thesis_models(download=False):
        z = found[m.name].scores
        assert z.keys() == m.scores.keys(), m.name
        raw = np.array([m.scores[i] for i in z])
        # by hand: the BERT scores z-scored over the sentences (population SD), the trigram's
        # z-scores as the thesis gives them
        want = raw if m.standardized else (raw - raw.mean()) / raw.std()
        np.testing.assert_allclose([z[i] for i in z], want, rtol=0, atol=1e-12)


def test_the_shipped_smollm2_fitted_row_is_the_readmes():
    fitted = next(
        s for s in shipped.read_li_adger(SHIPPED) if s.name == "smollm2 (fitted, default)"
    )
    assert _rounded(fitted.row) == readme_row("smollm2 (fitted, default)")
    assert fitted.row["adc"]["0.5"] == pytest.approx(0.407, abs=5e-4)
    assert fitted.note.startswith("(logP − β·logPu + γ) / n_words, β, γ fitted")
