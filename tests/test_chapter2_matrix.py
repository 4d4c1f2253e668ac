"""``matrix``: the correlation matrices over humans and every model, against the thesis's
Table 2.3 (its human-against-model cells, printed there)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from metric_adc.__main__ import main

# Table 2.3 of the thesis (PCC with the human judgements on LI-Adger's sentences and minimal
# pairs), typed from the printed table.
TABLE_2_3 = {
    "bert-base-uncased-cola": (0.608, 0.340),
    "bert-large-uncased-cola": (0.632, 0.338),
    "bert-large-cased-cola": (0.631, 0.335),
    "trigram-slor": (0.368, 0.333),
    "trigram-logprob": (0.131, 0.156),
}


def test_matrix_reproduces_table_2_3(capsys, tmp_path):
    assert main(["matrix", "--json", "--plots", str(tmp_path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "matrix-pairs.png",
        "matrix-sentences.png",
    ]
    for k, level in enumerate(("sentences", "pairs")):
        m = report["levels"][level]
        assert m["names"][0] == "human" and len(m["names"]) == 9
        r = np.array(m["matrix"], dtype=float)
        assert np.allclose(r, r.T) and np.allclose(np.diag(r), 1)
        for model, printed in TABLE_2_3.items():
            got = r[0, m["names"].index(model)]
            # the trigram's sentence-level z-scores cover 4,124 of the 4,178 sentences
            # here; the thesis's 0.368 is 0.370 on them (the only cell off in the third place)
            tol = 0.0025 if (model, level) == ("trigram-slor", "sentences") else 0.0005
            assert got == pytest.approx(printed[k], abs=tol), (model, level)
    assert report["levels"]["pairs"]["n"][0][0] == 2365


def test_matrix_with_a_scores_file(capsys, tmp_path):
    from metric_adc.family.items import items_of

    units = items_of("li_adger").units
    path = tmp_path / "toy.jsonl"
    rng = np.random.default_rng(0)
    lines = [json.dumps({"format": "adc-scores", "version": 1, "model": "toy", "kind": "ngram",
                         "dataset": "li_adger"})]  # fmt: skip
    lines += [json.dumps({"id": i, "score": float(s)}) for i, s in zip(units["id"], rng.normal(size=len(units)), strict=True)]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    assert main(["matrix", "--with", str(path), "--level", "pairs", "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["levels"]["pairs"]
    assert m["names"][-1] == "toy" and abs(m["matrix"][0][-1]) < 0.1  # noise: no correlation


def test_matrix_text_names_models_as_the_tables_do(capsys):
    assert main(["matrix", "--level", "pairs"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[2].startswith("(1) human") and rows[3].startswith(
        "(2) BERT base-uncased (MLM, PLL)"
    )
    assert rows[-1].startswith("(9) BNC trigram (log-prob)")
    assert not any("bert-base-uncased-mlm" in r for r in rows)
