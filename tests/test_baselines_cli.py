"""``python -m baselines``: the scores file it writes, kind detection, and bad input."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from baselines_tiny import save_tiny_bert, save_tiny_causal_lm

from baselines.__main__ import main
from baselines.registry import resolve_kind
from metric_adc.scores.file import read_scores

REPO = Path(__file__).resolve().parents[1]
# the content fingerprint of the committed LI-Adger build
BUILD_FINGERPRINT = json.loads((REPO / "li_adger" / "data" / "build_report.json").read_text())[
    "fingerprint"
]
ROWS = [
    ("p1.g", "The keys to the cabinet are lost."),
    ("p1.*", "The keys to the cabinet is lost."),
    ("p2.g", "Who did you think solved the problem?"),
    ("p2.*", "Who did you think that solved the problem?"),
]


@pytest.fixture
def dataset(tmp_path) -> Path:
    path = tmp_path / "mine.csv"
    path.write_text("id,sentence\n" + "\n".join(f"{i},{s}" for i, s in ROWS) + "\n")
    return path


def trigram_slor_by_hand(sentence: str) -> float:
    """SLOR of a lower-cased, punctuation-free, in-vocabulary sentence, straight from
    pocketsphinx: (log P(words, </s> | <s>) − unigram log P) / (words + 1), natural logs."""
    import pocketsphinx

    from baselines.models.ngram_file import default_lm_path

    lm = pocketsphinx.NGramModel(
        pocketsphinx.Config(), pocketsphinx.LogMath(), str(default_lm_path())
    )
    ln = pocketsphinx.LogMath().log_to_ln
    units = ["<s>", *sentence.lower().strip(".?").split(), "</s>"]
    logp = sum(
        ln(lm.prob([units[i], *units[max(i - 2, 0) : i][::-1]])) for i in range(1, len(units))
    )
    unigram = sum(ln(lm.prob([u])) for u in units[1:])
    return (logp - unigram) / (len(units) - 1)


def test_trigram_scores_file(dataset, tmp_path):
    out = tmp_path / "trigram.jsonl"
    assert (
        main(
            ["score", "--model", "trigram", "--dataset", str(dataset), "--out", str(out), "--quiet"]
        )
        == 0
    )
    scores = read_scores(out)
    assert scores.ids == [i for i, _ in ROWS]
    assert scores.sentences == [s for _, s in ROWS]
    meta = scores.metadata
    assert (meta["model"], meta["kind"], meta["variant"]) == ("trigram", "ngram", "slor")
    assert meta["reduction"] == "(sum - unigram sum) / n"
    assert "parameters" not in meta  # an n-gram model has counts, not parameters
    assert meta["dataset"] == str(dataset) and meta["n_sentences"] == 4
    assert meta["versions"]["pocketsphinx"] == version("pocketsphinx")
    assert meta["dataset_sha256"] == hashlib.sha256(dataset.read_bytes()).hexdigest()
    assert scores.scores.tolist() == pytest.approx([trigram_slor_by_hand(s) for _, s in ROWS])
    assert not list(tmp_path.glob("*.partial"))


def test_variant_and_limit(dataset, tmp_path):
    out = tmp_path / "lp.jsonl"
    argv = ["score", "--model", "trigram", "--dataset", str(dataset), "--out", str(out)]
    assert main([*argv, "--variant", "logprob", "--limit", "2", "--quiet"]) == 0
    scores = read_scores(out)
    assert len(scores) == 2 and scores.metadata["variant"] == "logprob"
    assert scores.metadata["limit"] == 2


def test_li_adger_is_the_default_dataset(tmp_path):
    out = tmp_path / "trigram.jsonl"
    assert main(["score", "--model", "trigram", "--out", str(out), "--limit", "3", "--quiet"]) == 0
    meta = read_scores(out).metadata
    assert meta["dataset"] == "li_adger" and meta["dataset_fingerprint"] == BUILD_FINGERPRINT


def test_causal_kind_is_detected_from_a_local_config(dataset, tmp_path):
    folder = save_tiny_causal_lm(tmp_path / "tiny", "gpt2")
    assert resolve_kind(str(folder)) == "causal"
    out = tmp_path / "tiny.jsonl"
    assert (
        main(
            [
                "score",
                "--model",
                str(folder),
                "--dataset",
                str(dataset),
                "--out",
                str(out),
                "--device",
                "cpu",
                "--variant",
                "meanlp",
                "--quiet",
            ]
        )
        == 0
    )
    meta = read_scores(out).metadata
    assert (meta["kind"], meta["variant"], meta["reduction"]) == ("causal", "meanlp", "mean")
    assert meta["context_token"] == "<s>"
    assert meta["versions"]["transformers"] == version("transformers")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--model", "trigram", "--dataset", "glue"], "unknown dataset 'glue'"),
        (["--model", "trigram", "--convention", "harness"], "convention does not apply"),
        (
            ["--model", "trigram", "--dataset", "nope.csv"],
            "unknown dataset 'nope.csv' (file not found)",
        ),
        (["--model", "no-such-model"], "unknown model 'no-such-model': not a built-in name"),
        (["--model", "trigram", "--kind", "causal"], "model 'trigram' is of kind 'ngram'"),
        (["--model", "trigram", "--variant", "pll"], "variant must be one of"),
        (["--model", "trigram", "--device", "cuda"], "device must be 'auto' or 'cpu'"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(argv, message, dataset, tmp_path, capsys):
    out = tmp_path / "x.jsonl"
    argv = ["score", *argv, "--out", str(out), "--quiet"]
    if "--dataset" not in argv:
        argv += ["--dataset", str(dataset)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ")
    assert message in err
    assert not out.exists()


def test_empty_and_over_long_sentences(tmp_path, capsys):
    empty = tmp_path / "empty.csv"
    empty.write_text('id,sentence\na,Go home.\nb,""\n')
    out = tmp_path / "x.jsonl"
    assert main(["score", "--model", "trigram", "--dataset", str(empty), "--out", str(out)]) == 2
    assert "empty.csv line 3: 'sentence' is blank (id 'b')" in capsys.readouterr().err

    folder = save_tiny_causal_lm(tmp_path / "short", "gpt2", max_positions=8)
    long = tmp_path / "long.csv"
    long.write_text(
        "id,sentence\nok,the keys are lost\ntoo-long,the keys to the cabinet are lost .\n"
    )
    argv = ["score", "--model", str(folder), "--dataset", str(long), "--out", str(out), "--quiet"]
    assert main(argv) == 2
    assert "is too long for" in capsys.readouterr().err
    assert not out.exists()


def test_an_over_long_sentence_is_named_by_its_file_line_and_id(tmp_path, capsys):
    """Not by its place in a batch sorted by text (``sentences[2]``): by the table's file,
    line and id, and the field."""
    folder = save_tiny_causal_lm(tmp_path / "short", "gpt2", max_positions=8)
    table = tmp_path / "mine.csv"
    table.write_text(
        "id,sentence\na,the keys are lost\nb,kim solved the problem\n"
        "c,who did you think that kim solved the problem ?\nd,the keys is lost\n"
    )
    out = tmp_path / "x.jsonl"
    argv = ["score", "--model", str(folder), "--dataset", str(table), "--out", str(out)]
    assert main([*argv, "--quiet", "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert f"error: {table} line 4 (id 'c'): 'sentence' is too long for {folder}: " in err
    assert "sentences[" not in err and not out.exists()


def test_a_sentence_the_trigram_cannot_read_is_named_by_its_file_line_and_id(tmp_path, capsys):
    table = tmp_path / "mine.csv"
    table.write_text("id,sentence\na,the keys are lost\nb,?!\nc,the keys is lost\n")
    out = tmp_path / "x.jsonl"
    argv = ["score", "--model", "trigram", "--dataset", str(table), "--out", str(out), "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"error: {table} line 3 (id 'b'): 'sentence' has no words the n-gram model can" in err


def test_bad_numbers_are_rejected_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["score", "--model", "trigram", "--out", "x.jsonl", "--batch-size", "0"])
    assert exit_.value.code == 2
    assert "argument --batch-size: expected an integer >= 1 (got '0')" in capsys.readouterr().err
    for option in ("--limit", "--threads"):
        with pytest.raises(SystemExit):
            main(["score", "--model", "trigram", "--out", "x.jsonl", option, "two"])
        assert f"argument {option}: expected an integer >= 1 (got 'two')" in capsys.readouterr().err


def test_module_entry_point_lists_the_builtin_models():
    done = subprocess.run(
        [sys.executable, "-m", "baselines", "models"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[::2]] == ["trigram", "smollm2", "minilm-cola"]
    # each model's local file or folder, for other tools (lm-eval's pretrained=FOLDER)
    from baselines.models.cache import models_dir
    from baselines.models.ngram_file import default_lm_path

    paths = [line.split()[0] for line in lines[1::2]]
    assert paths == [
        str(default_lm_path()),
        str(models_dir() / "smollm2"),
        str(models_dir() / "minilm-cola" / "best"),
    ]


def test_models_checks_each_folder_s_manifest_before_offering_its_path(
    tmp_path, monkeypatch, capsys
):
    """A converted SmolLM2 folder whose weights were zeroed (same size) is listed as damaged,
    with the command that rebuilds it, and its path is not offered for ``pretrained=``."""
    from baselines.models.manifest import write_manifest

    monkeypatch.setenv("LI_ADGER_MODELS", str(tmp_path))
    folder = tmp_path / "smollm2"
    folder.mkdir()
    (folder / "source.json").write_text("{}\n")
    weights = folder / "model.safetensors"
    weights.write_bytes(bytes(range(256)) * 4)
    write_manifest(folder)
    assert main(["models"]) == 0
    assert f"         {folder}\n" in capsys.readouterr().out
    weights.write_bytes(bytes(1024))
    assert main(["models"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert not any(line.split()[0] == str(folder) for line in lines)
    assert (
        f"damaged: {folder} (model.safetensors does not have the SHA-256 the manifest records); "
        "rebuild it with `python -m baselines score --model smollm2 --limit 1 --out "
        "smollm2-rebuilt.jsonl`"
    ) in lines[3]


@pytest.mark.parametrize(
    ("architecture", "variant", "kind"),
    [
        ("BertForMaskedLM", "word-l2r", "mlm"),
        ("BertForSequenceClassification", "logit-margin", "cola"),
    ],
)
def test_masked_lm_and_classifier_kinds_are_detected_and_run(
    architecture, variant, kind, dataset, tmp_path
):
    folder = save_tiny_bert(
        tmp_path / "tiny-bert",
        architecture,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        num_labels=2,
    )
    assert resolve_kind(str(folder)) == kind
    out = tmp_path / f"{kind}.jsonl"
    argv = ["score", "--model", str(folder), "--dataset", str(dataset), "--out", str(out)]
    assert main([*argv, "--device", "cpu", "--variant", variant, "--quiet"]) == 0
    scores = read_scores(out)
    assert scores.metadata["kind"] == kind and variant in scores.metadata["variant"]
    assert len(scores) == len(ROWS)


@pytest.mark.parametrize(
    ("architecture", "kind"),
    [
        ("llama", "causal"),
        ("BertForMaskedLM", "mlm"),
        ("BertForSequenceClassification", "cola"),
    ],
)
def test_a_scores_file_records_the_model_s_parameter_count(architecture, kind, dataset, tmp_path):
    import transformers

    from space.data.names import model_parameters

    if kind == "causal":
        folder = save_tiny_causal_lm(tmp_path / "tiny", architecture)
        model_class = transformers.AutoModelForCausalLM
    else:
        folder = save_tiny_bert(tmp_path / "tiny", architecture, hidden_size=16,
                                num_hidden_layers=1, num_attention_heads=2,
                                intermediate_size=32, num_labels=2)  # fmt: skip
        model_class = getattr(transformers, architecture)
    out = tmp_path / f"{kind}.jsonl"
    argv = ["score", "--model", str(folder), "--dataset", str(dataset), "--out", str(out)]
    assert main([*argv, "--device", "cpu", "--quiet"]) == 0
    meta = read_scores(out).metadata
    want = model_class.from_pretrained(folder).num_parameters()  # transformers' own count
    assert meta["kind"] == kind and meta["parameters"] == want > 1000
    assert model_parameters(meta) == want  # the app's Parameters column reads it


def test_threads_option_sets_torch_threads(dataset, tmp_path):
    import torch

    folder = save_tiny_causal_lm(tmp_path / "tiny", "llama")
    before = torch.get_num_threads()
    out = tmp_path / "t.jsonl"
    argv = ["score", "--model", str(folder), "--dataset", str(dataset), "--out", str(out)]
    try:
        assert main([*argv, "--threads", "1", "--quiet"]) == 0
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
    assert len(read_scores(out)) == len(ROWS)


def test_every_benchmark_into_one_folder(tmp_path, capsys):
    """--dataset all: one scores file per benchmark, named for it, with its metadata."""
    from li_adger.benchmarks import BENCHMARKS, load_items

    out = tmp_path / "trigram"
    argv = ["score", "--model", "trigram", "--dataset", "all", "--out", str(out)]
    assert main([*argv, "--limit", "3", "--quiet"]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{b}.jsonl" for b in BENCHMARKS)
    fingerprints = {}
    for name, spec in BENCHMARKS.items():
        scores = read_scores(out / f"{name}.jsonl")
        meta = scores.metadata
        assert (meta["dataset"], meta["form"], meta["limit"]) == (name, spec.form, 3)
        fingerprints[name] = meta["dataset_fingerprint"]
        assert scores.ids == load_items(name).units["id"].tolist()[:3]
    # LI-Adger's is the committed build's; the others' are SHA-256 of their pinned files
    assert fingerprints.pop("li_adger") == BUILD_FINGERPRINT
    assert all(re.fullmatch("[0-9a-f]{64}", f) for f in fingerprints.values())
    assert len(set(fingerprints.values())) == len(fingerprints)
    cloze = read_scores(out / "diagnostics.jsonl")
    assert set(cloze.fields) == {"context", "completion", "rank", "top"}
    assert cloze.metadata["n_units"] == 3 and cloze.sentences is None
    assert all(len(top) == 5 for top in cloze.fields["top"])
    assert capsys.readouterr().err.count("wrote 3 scores") == len(BENCHMARKS)


def test_a_classifier_skips_cloze_units_in_all_and_refuses_them_by_name(tmp_path, capsys):
    folder = save_tiny_bert(
        tmp_path / "tiny-cola",
        "BertForSequenceClassification",
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        num_labels=2,
    )
    out = tmp_path / "cola-model"
    argv = ["score", "--model", str(folder), "--out", str(out), "--device", "cpu", "--quiet"]
    assert main([*argv, "--dataset", "all", "--limit", "2"]) == 0
    err = capsys.readouterr().err
    assert "skipping diagnostics has cloze units, which the cola scorer" in err
    assert sorted(p.name for p in out.iterdir()) == [
        "blimp.jsonl", "cola.jsonl", "li_adger.jsonl", "npi.jsonl"
    ]  # fmt: skip
    assert read_scores(out / "cola.jsonl").metadata["form"] == "labelled"
    single = tmp_path / "d.jsonl"
    argv = ["score", "--model", str(folder), "--out", str(single), "--device", "cpu"]
    assert main([*argv, "--dataset", "diagnostics"]) == 2
    assert "diagnostics has cloze units, which the cola scorer" in capsys.readouterr().err
    assert not single.exists()


def test_harness_convention_is_written_to_the_metadata(dataset, tmp_path):
    folder = save_tiny_causal_lm(tmp_path / "tiny", "gpt2")
    metas = {}
    for convention in ("default", "harness"):
        out = tmp_path / f"{convention}.jsonl"
        argv = ["score", "--model", str(folder), "--dataset", str(dataset), "--out", str(out)]
        assert main([*argv, "--convention", convention, "--device", "cpu", "--quiet"]) == 0
        metas[convention] = read_scores(out).metadata
    assert metas["default"]["convention"] == "default"  # the default is named too
    assert metas["harness"]["convention"] == "harness"
    assert metas["harness"]["context_token"] == "<s>"  # the tokenizer's BOS


def test_all_needs_a_folder(tmp_path, capsys):
    out = tmp_path / "file.jsonl"
    out.write_text("")
    assert main(["score", "--model", "trigram", "--dataset", "all", "--out", str(out)]) == 2
    assert "--out must be a folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("zero.csv", b"", "zero.csv: file is empty"),
        ("bad.jsonl", b'{"id": "a", "sentence": "Go."}\n{"id": "b", "sent', "bad.jsonl line 2"),
        ("latin.csv", b"id,sentence\na,Caf\xe9.\n", "latin.csv"),
    ],
)
def test_a_damaged_sentence_table_is_named_with_its_line(tmp_path, capsys, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    out = tmp_path / "x.jsonl"
    assert main(["score", "--model", "trigram", "--dataset", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err
    assert not out.exists()
