"""The NPI cloze test (``npi_cloze``): the reader against the source file, a tiny random masked
LM against a hand computation at the mask, the causal analogue, and ``score`` then ``report``
end to end on one environment.

Golden values come from the source file (its sentences and labels) and from the tiny model's
own logits computed here by hand; none from the code under test.
"""

from __future__ import annotations

import json

import pytest
import torch
from baselines_tiny import save_tiny_bert

from baselines.__main__ import main as baselines_main
from baselines.interface import ClozeUnit
from baselines.score_file import _score_infill
from li_adger.benchmarks import load_items
from li_adger.benchmarks.npi_cloze import FILE
from li_adger.benchmarks.tsv import read_tsv
from li_adger.sources import find_sources
from metric_adc.__main__ import main as metric_main


@pytest.fixture(scope="module")
def items():
    return load_items("npi_cloze")


def test_every_pair_rebuilds_the_files_sentences(items):
    path = find_sources([FILE])[FILE]
    rows = [f for _, f in read_tsv(path, 5)]
    units = items.units.set_index("id")
    assert len(items.comparisons) == len(rows) == 3869

    def sentence(unit_id: str) -> str:
        u = units.loc[unit_id]
        return ClozeUnit(u["context"], u["completion"], u["after"]).sentence

    for (env, a, b, label, _), (_, c) in zip(rows, items.comparisons.iterrows(), strict=True):
        good, bad = (a, b) if label == "0" else (b, a)
        assert (sentence(c["good_id"]), sentence(c["bad_id"])) == (good, bad)
        assert c["set"] == env.removeprefix("NPI-")
    assert (units["after"] != "").all()


def test_the_npi_is_the_unacceptable_word_of_every_npi_pair(items):
    words = items.units.set_index("id")["completion"].str.lower()
    c = items.comparisons
    npi = c[c["condition"] == "npi_present"]
    assert set(words[npi["bad_id"]]) == {"any", "ever"}
    licensor = c[c["condition"] == "licensor"]
    assert not set(words[licensor["good_id"]]) & {"any", "ever"}
    assert set(c["condition"]) == {"npi_present", "licensor"}  # a scope pair moves words


@pytest.fixture(scope="module")
def bert(tmp_path_factory):
    from baselines.kinds.mlm import MaskedLMScorer

    folder = save_tiny_bert(tmp_path_factory.mktemp("bert"))
    return MaskedLMScorer(folder, device="cpu", progress=False)


@pytest.mark.parametrize(
    "unit",
    [
        ClozeUnit("The boys have", "ever", "read books."),
        ClozeUnit("", "Rarely", "do the boys read."),  # the blank opens the sentence
    ],
)
def test_a_masked_lm_reads_both_sides_of_the_blank(bert, unit):
    tok = bert.tokenizer
    word_ids = tok(unit.completion, add_special_tokens=False)["input_ids"]
    assert len(word_ids) == 1  # one mask, as the paper's single-token pairs
    masked = " ".join(t for t in (unit.context, tok.mask_token, unit.after) if t)
    enc = tok(masked, return_tensors="pt")
    position = int((enc["input_ids"][0] == tok.mask_token_id).nonzero()[0, 0])
    with torch.no_grad():
        logits = bert.model(**enc).logits[0, position].double()
    expected = float(torch.log_softmax(logits, -1)[word_ids[0]])
    (record,) = _score_infill(bert, [unit])
    assert record["score"] == pytest.approx(expected, abs=1e-4)
    assert record["rank"] >= 1 and len(record["top"]) == 5


def test_the_causal_analogue_is_the_whole_sentence():
    from baselines.kinds.ngram import NGramScorer

    trigram = NGramScorer(variant="logprob")
    units = [ClozeUnit("The boys have", "ever", "read books."), ClozeUnit("", "Rarely", "do.")]
    records = _score_infill(trigram, units)
    whole = trigram.token_logprobs([u.sentence for u in units])
    assert [r["score"] for r in records] == [t.total for t in whole]


def test_a_tiny_masked_lm_on_pairs_evaluated_as_the_benchmark(bert, items):
    from li_adger.benchmarks import Items
    from metric_adc.family.statistics import evaluate_items

    c = items.comparisons[items.comparisons["set"] == "simplequestions"].head(12)
    needed = list(dict.fromkeys([*c["good_id"], *c["bad_id"]]))
    units = items.units.set_index("id").loc[needed].reset_index()
    texts = [ClozeUnit(*u) for u in units[["context", "completion", "after"]].itertuples(False)]
    scores = {i: r["score"] for i, r in zip(needed, _score_infill(bert, texts), strict=True)}
    result = evaluate_items("npi_cloze", Items("npi_cloze", "cloze", units, c), scores)
    by_hand = sum(scores[g] > scores[b] for g, b in zip(c["good_id"], c["bad_id"], strict=True))
    cell = result["cloze"]["sets"]["simplequestions"]
    assert cell["n_sensitivity_items"] == 12 and cell["sensitivity"] == by_hand / 12


def test_score_and_report_on_one_environment(tmp_path, capsys):
    out = tmp_path / "sq.jsonl"
    args = ["score", "--model", "trigram", "--dataset", "npi_cloze",
            "--subset", "simplequestions", "--out", str(out), "--quiet"]  # fmt: skip
    assert baselines_main(args) == 0
    lines = out.read_text().splitlines()
    meta = json.loads(lines[0])
    assert meta["blank"].startswith("causal analogue") and meta["subset"] == "simplequestions"
    assert len(lines) - 1 == 2 * 230 and all('"after"' in line for line in lines[1:])
    assert metric_main(["report", str(out), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["rows"][0]
    cell = row["cloze"]["sets"]["simplequestions"]["conditions"]["npi_present"]
    assert cell["n_sensitivity_items"] == 230
    assert metric_main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Fig. 3" in text and "SMP-Q" in text and "82.8 %" in text


def test_a_classifier_is_refused_by_name(tmp_path):
    from baselines.score_file import score_to_file
    from baselines.units import load_units

    class Classifier:  # a CoLA classifier's shape: sentences in, no cloze units
        name, kind, variant, reduction = "toy-cola", "cola", "signed-confidence", "none"

        def score(self, sentences):
            return [0.0] * len(sentences)

        def metadata(self):
            return {"model": self.name, "kind": self.kind}

    units = load_units("npi_cloze", subset="simplequestions")
    out = tmp_path / "c.jsonl"
    with pytest.raises(
        ValueError, match=r"'npi_cloze' has cloze units .* 'cola' scorer 'toy-cola'"
    ):
        score_to_file(Classifier(), units.ids, units.texts, out, dataset="npi_cloze")
    assert not out.exists()


def test_a_masked_lms_cloze_file_names_its_variant_truthfully(tmp_path, capsys):
    """A masked LM scores a cloze unit with only the completion masked (one mask for a
    one-token word), not by pseudo-log-likelihood: its npi_cloze file says so, a file of
    sentences still names the PLL variant, and a rerun recognises the cloze file as finished."""
    folder = save_tiny_bert(tmp_path / "bert")
    cloze, sentences = tmp_path / "cloze.jsonl", tmp_path / "sentences.jsonl"
    args = ["score", "--model", str(folder), "--kind", "mlm", "--device", "cpu",
            "--dataset", "npi_cloze", "--subset", "simplequestions", "--limit", "6",
            "--out", str(cloze), "--quiet"]  # fmt: skip
    assert baselines_main(args) == 0
    meta = json.loads(cloze.read_text().splitlines()[0])
    assert meta["variant"] == "masked-completion" and meta["kind"] == "mlm"
    assert meta["blank"].startswith("masked")
    capsys.readouterr()
    assert baselines_main(args) == 0
    assert "kept" in capsys.readouterr().err
    table = tmp_path / "s.csv"
    table.write_text("id,sentence\na,The boys read.\n", encoding="utf-8")
    args = ["score", "--model", str(folder), "--kind", "mlm", "--device", "cpu",
            "--dataset", str(table), "--out", str(sentences), "--quiet"]  # fmt: skip
    assert baselines_main(args) == 0
    assert json.loads(sentences.read_text().splitlines()[0])["variant"] == "pll-original"
