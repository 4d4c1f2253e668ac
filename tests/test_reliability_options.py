"""Options never ignored: an option that does not apply to the model is refused by name, a
revision with a local folder is refused, and bad models and texts are named clearly."""

from __future__ import annotations

import json

import pytest
from baselines_tiny import save_tiny_bert, save_tiny_causal_lm

from baselines import load_scorer
from baselines.__main__ import main
from baselines.interface import ClozeUnit
from baselines.score_file import score_to_file


@pytest.fixture(scope="module")
def causal(tmp_path_factory):
    return save_tiny_causal_lm(tmp_path_factory.mktemp("tiny-causal"), "gpt2")


@pytest.fixture(scope="module")
def masked(tmp_path_factory):
    return save_tiny_bert(tmp_path_factory.mktemp("tiny-bert"))


@pytest.fixture(scope="module")
def classifier(tmp_path_factory):
    return save_tiny_bert(
        tmp_path_factory.mktemp("tiny-cola"), "BertForSequenceClassification", num_labels=2
    )


@pytest.mark.parametrize(
    ("model", "options", "message"),
    [
        ("masked", ["--convention", "harness"], "convention does not apply to kind 'mlm'"),
        ("classifier", ["--unigram", "trigram"], "unigram does not apply to kind 'cola'"),
        ("causal", ["--runtime", "onnx"], "runtime does not apply to kind 'causal'"),
        ("causal", ["--engine-arg", "max_model_len=64"], "--engine-arg applies to --engine vllm"),
        ("causal", ["--revision", "main"], "revision applies to models on the Hugging Face Hub, "
                                           "not to the local folder"),
        ("causal", ["--variant", "logprob", "--unigram", "wordfreq"],
         "unigram applies to the variants 'normlp', 'slor' only"),
        ("trigram", ["--threads", "1"], "--threads applies to neural models"),
        ("trigram", ["--precision", "fp16"], "precision does not apply to kind 'ngram'"),
        ("smollm2", ["--revision", "main"], "revision applies to Hugging Face models, not to the "
                                            "built-in 'smollm2'"),
    ],
)  # fmt: skip
def test_an_option_that_does_not_apply_is_refused_by_name(
    model, options, message, request, tmp_path, capsys
):
    folder = model if model in ("trigram", "smollm2") else str(request.getfixturevalue(model))
    capsys.readouterr()  # what saving the model printed
    out = tmp_path / "out.jsonl"
    argv = ["score", "--model", folder, "--dataset", "npi", "--limit", "2", "--out", str(out)]
    assert main([*argv, "--device", "cpu", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and len(err.splitlines()) == 1
    assert not out.exists()


def test_a_revision_with_a_local_folder_names_the_folder(causal):
    with pytest.raises(ValueError, match=f"not to the local folder {causal} .got revision='v2'"):
        load_scorer(causal, revision="v2")


@pytest.mark.parametrize(
    ("model", "error", "message"),
    [
        (None, TypeError, r"model must be a model name or folder path \(a str\), e\.g\. 'trigram' "
                          r"\(got None\)"),
        (3, TypeError, r"\(got 3\)"),
        ("", ValueError, r"model must be a model name or folder path, e\.g\. 'trigram' \(got ''\)"),
    ],
)  # fmt: skip
def test_a_missing_model_is_a_clear_error(model, error, message):
    with pytest.raises(error, match=message):
        load_scorer(model)


def test_a_path_object_names_a_model_folder(causal):
    from pathlib import Path

    assert load_scorer(Path(causal), device="cpu").kind == "causal"


def test_a_lone_surrogate_is_named_with_its_unit_id(tmp_path, capsys):
    rows = [{"id": "a", "sentence": "The keys are lost."}, {"id": "b", "sentence": "Caf\ud800."}]
    scorer = load_scorer("trigram")
    with pytest.raises(ValueError) as error:
        score_to_file(
            scorer, [r["id"] for r in rows], [r["sentence"] for r in rows],
            tmp_path / "out.jsonl", dataset="mine",
        )  # fmt: skip
    assert str(error.value) == (
        "sentence 'b' (row 1) holds a lone surrogate (U+D800 at character 3), which is "
        "not text; fix its encoding"
    )
    # a table file with one is refused by its reader, by file, line and field
    table = tmp_path / "mine.jsonl"
    table.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    argv = ["score", "--model", "trigram", "--dataset", str(table), "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{table} line 2: 'sentence' must be Unicode text" in err
    assert not out.exists()


def test_a_lone_surrogate_in_a_cloze_unit_or_a_scorer_call_is_an_error(tmp_path):
    scorer = load_scorer("trigram")
    with pytest.raises(ValueError, match=r"^sentences\[1\] holds a lone surrogate \(U\+DC80"):
        scorer.score(["Go.", "Go\udc80."])
    units = [ClozeUnit("A robin is a", "bird"), ClozeUnit("A robin is not a", "tr\udfffee")]
    with pytest.raises(
        ValueError, match=r"^cloze unit 'c2' \(row 1\) has a completion that holds a lone surrogate"
    ):
        score_to_file(scorer, ["c1", "c2"], units, tmp_path / "c.jsonl", dataset="toy")
