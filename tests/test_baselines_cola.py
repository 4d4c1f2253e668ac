"""CoLA classifier: fine-tuning with selection by dev MCC, and the two output definitions."""

from __future__ import annotations

import json

import numpy as np
import pytest
from baselines_tiny import save_tiny_bert

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from baselines.interface import Scorer  # noqa: E402
from baselines.kinds.cola import ColaScorer, logit_margin, signed_confidence  # noqa: E402
from baselines.models import cola_data, cola_train  # noqa: E402
from baselines.models.cola_data import cola_file, read_cola  # noqa: E402
from baselines.models.cola_train import finetune  # noqa: E402
from baselines.models.minilm import minilm_cola_path  # noqa: E402
from metric_adc.classification import mcc  # noqa: E402

PROBE = ["The keys are lost.", "The keys is lost.", "Go.", "Who did you see and Mary?", "Go."]


def _head(path, n: int, target):
    lines = path.read_text(encoding="utf-8").splitlines()[:n]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def _finetune(encoder, train, dev, out, **options):
    """:func:`finetune` with the small settings these tests share: seeds 0 and 1, two epochs."""
    return finetune(
        encoder,
        train_path=train,
        dev_path=dev,
        out_dir=out,
        seeds=(0, 1),
        epochs=2,
        batch_size=16,
        device="cpu",
        progress=False,
        **options,
    )


@pytest.fixture(scope="module")
def tiny_encoder(tmp_path_factory):
    return save_tiny_bert(tmp_path_factory.mktemp("tiny-encoder"), "BertModel")


@pytest.fixture(scope="module")
def trained(tiny_encoder, tmp_path_factory):
    work = tmp_path_factory.mktemp("cola-run")
    train = _head(cola_file("in_domain_train.tsv"), 64, work / "train.tsv")
    dev = _head(cola_file("out_of_domain_dev.tsv"), 64, work / "dev.tsv")
    return _finetune(tiny_encoder, train, dev, work / "out", lr=1e-3), work


def test_selection_by_dev_mcc(trained):
    result, _ = trained
    assert [(h.seed, h.epoch) for h in result.history] == [(0, 1), (0, 2), (1, 1), (1, 2)]
    assert result.best == max(result.history, key=lambda h: h.dev_mcc)  # the first best
    saved = json.loads((result.best_path / "checkpoint.json").read_text())
    assert (saved["seed"], saved["epoch"]) == (result.best.seed, result.best.epoch)
    report = json.loads((result.best_path / "report.json").read_text())
    assert report["best"]["dev_mcc"] == result.best.dev_mcc
    assert len(report["history"]) == 4


def test_best_checkpoint_is_the_best_over_seeds_and_epochs(tiny_encoder, tmp_path, monkeypatch):
    """Scripted dev predictions give known MCCs; the checkpoint kept must be the best one."""
    dev = _head(cola_file("out_of_domain_dev.tsv"), 64, tmp_path / "dev.tsv")
    train = _head(cola_file("in_domain_train.tsv"), 32, tmp_path / "train.tsv")
    _, labels = read_cola(dev)
    half = [1 - y if i % 4 == 0 else y for i, y in enumerate(labels)]
    scripted = [[1] * len(labels), half, labels, [1 - y for y in labels]]  # MCC 0, ~0.5, 1, -1
    calls = iter(scripted)
    monkeypatch.setattr(cola_train, "predict_labels", lambda *a, **k: next(calls))
    result = _finetune(tiny_encoder, train, dev, tmp_path / "out")
    mccs = [h.dev_mcc for h in result.history]
    assert (mccs[0], mccs[2], mccs[3]) == (0.0, 1.0, -1.0) and 0 < mccs[1] < 1
    assert (result.best.seed, result.best.epoch) == (1, 1)
    kept = {
        folder: json.loads((tmp_path / "out" / folder / "checkpoint.json").read_text())
        for folder in ("best", "seed-0", "seed-1")
    }
    assert (kept["best"]["seed"], kept["best"]["epoch"]) == (1, 1)
    assert (kept["seed-0"]["seed"], kept["seed-0"]["epoch"]) == (0, 2)
    assert (kept["seed-1"]["seed"], kept["seed-1"]["epoch"]) == (1, 1)


def test_saved_checkpoint_reproduces_the_selected_mcc(trained):
    result, work = trained
    sentences, labels = read_cola(work / "dev.tsv")
    scorer = ColaScorer(str(result.best_path), device="cpu", progress=False)
    predicted = [int(s > 0) for s in scorer.score(sentences)]
    assert mcc(labels, predicted) == pytest.approx(result.best.dev_mcc, abs=1e-12)
    assert scorer.metadata()["training"]["best"]["dev_mcc"] == result.best.dev_mcc


def test_each_seed_folder_holds_its_best_epoch(trained):
    result, work = trained
    for seed in (0, 1):
        rows = [h for h in result.history if h.seed == seed]
        saved = json.loads((work / "out" / f"seed-{seed}" / "checkpoint.json").read_text())
        assert saved["dev_mcc"] == max(h.dev_mcc for h in rows)


def test_finished_run_resumes_without_training(trained, tiny_encoder, monkeypatch):
    result, work = trained

    def no_training(*args, **kwargs):
        raise AssertionError("a finished seed was trained again")

    monkeypatch.setattr(
        transformers.AutoModelForSequenceClassification, "from_pretrained", no_training
    )
    again = finetune(
        tiny_encoder,
        train_path=work / "train.tsv",
        dev_path=work / "dev.tsv",
        out_dir=work / "out",
        seeds=(1,),
        epochs=2,
        lr=1e-3,
        batch_size=16,
        device="cpu",
        progress=False,
    )
    assert [h.seed for h in again.history] == [1, 1]
    assert again.best == max(again.history, key=lambda h: h.dev_mcc)
    assert list(again.history) == [h for h in result.history if h.seed == 1]


@pytest.mark.parametrize("output", ["signed-confidence", "logit-margin"])
def test_outputs_follow_their_definitions(trained, output):
    result, _ = trained
    scorer = ColaScorer(str(result.best_path), device="cpu", output=output, progress=False)
    assert isinstance(scorer, Scorer)
    logits = torch.tensor(scorer.logits(PROBE))
    probs = logits.double().softmax(-1)
    scores = scorer.score(PROBE)
    assert scores[2] == scores[4]  # duplicates agree
    predicted_acceptable = (logits[:, 1] > logits[:, 0]).tolist()
    if output == "signed-confidence":
        for s, p, acc in zip(scores, probs.tolist(), predicted_acceptable, strict=True):
            assert -1 <= s <= 1 and abs(s) >= 0.5
            assert (s > 0) == acc
            assert abs(s) == pytest.approx(max(p), abs=1e-6)
    else:
        expected = (probs[:, 1].log() - probs[:, 0].log()).tolist()
        assert scores == pytest.approx(expected, abs=1e-6)
        assert [s > 0 for s in scores] == predicted_acceptable
    assert scorer.metadata()["variant"] == output


def test_signed_confidence_and_margin_agree_in_sign_and_order():
    rng = np.random.default_rng(0)
    logits = rng.normal(scale=4, size=(200, 2)).tolist()
    conf = np.array(signed_confidence(logits))
    margin = np.array(logit_margin(logits))
    assert (np.sign(conf) == np.sign(margin)).all()
    assert (np.diff(conf[np.argsort(margin)]) >= 0).all()  # both monotone in p(acceptable)
    assert signed_confidence([[0.0, 800.0], [800.0, 0.0]]) == [1.0, -1.0]  # no overflow


@pytest.mark.parametrize(
    ("y_true", "y_pred", "expected"),
    [
        # tp 2, fn 1, tn 1, fp 1: (2·1 − 1·1) / √(3·3·2·2) = 1/6
        ([1, 1, 1, 0, 0], [1, 1, 0, 0, 1], 1 / 6),
        # tp 3, fn 1, tn 5, fp 1: (3·5 − 1·1) / √(4·4·6·6) = 14/24
        ([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0, 0, 0, 1], 7 / 12),
        ([1, 1, 0, 0], [1, 0, 1, 0], 0.0),
        ([1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1], -1.0),
        ([0, 0, 1], [0, 0, 0], 0.0),  # a constant prediction: undefined, 0 as scikit-learn
    ],
)
def test_matthews_corrcoef_by_hand(y_true, y_pred, expected):
    assert mcc(y_true, y_pred) == pytest.approx(expected, abs=1e-12)


def test_acceptable_label_comes_from_label2id(tmp_path, tiny_encoder):
    model = transformers.BertForSequenceClassification.from_pretrained(
        tiny_encoder,
        num_labels=2,
        id2label={0: "acceptable", 1: "unacceptable"},
        label2id={"acceptable": 0, "unacceptable": 1},
    )
    model.save_pretrained(tmp_path)
    transformers.AutoTokenizer.from_pretrained(tiny_encoder).save_pretrained(tmp_path)
    scorer = ColaScorer(str(tmp_path), device="cpu", output="logit-margin", progress=False)
    assert scorer.acceptable_label == 0
    logits = scorer.logits(PROBE)
    assert scorer.score(PROBE) == pytest.approx([a - b for a, b in logits])


def test_bad_inputs(trained, tmp_path, tiny_encoder):
    result, _ = trained
    path = str(result.best_path)
    with pytest.raises(ValueError, match="output must be one of"):
        ColaScorer(path, device="cpu", output="probability")
    with pytest.raises(ValueError, match="batch_size must be a positive int"):
        ColaScorer(path, device="cpu", batch_size=0)
    scorer = ColaScorer(path, device="cpu", progress=False)
    with pytest.raises(ValueError, match=r"sentences\[1\] is empty"):
        scorer.score(["Go.", ""])
    with pytest.raises(ValueError, match="accepts at most 512"):
        scorer.score(["the keys are lost " * 200])
    transformers.BertForSequenceClassification.from_pretrained(
        tiny_encoder, num_labels=3
    ).save_pretrained(tmp_path / "three")
    transformers.AutoTokenizer.from_pretrained(tiny_encoder).save_pretrained(tmp_path / "three")
    with pytest.raises(ValueError, match="two-label classifier"):
        ColaScorer(str(tmp_path / "three"), device="cpu")


def test_cola_files_are_verified(tmp_path):
    (tmp_path / "cola").mkdir()
    (tmp_path / "cola" / "in_domain_dev.tsv").write_text("gj04\t1\t\tThe keys are lost.\n")
    with pytest.raises(ValueError, match="SHA-256"):
        cola_data.cola_file("in_domain_dev.tsv", source=tmp_path)


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ("gj04\t2\t\tThe keys are lost.", "label must be 0 or 1"),
        ("gj04\t1\tThe keys are lost.", "expected 4 tab-separated fields"),
        ("gj04\t1\t\t ", "the sentence is empty"),
    ],
)
def test_read_cola_rejects_bad_lines(tmp_path, line, match):
    path = tmp_path / "bad.tsv"
    path.write_text("gj04\t1\t\tGo.\n" + line + "\n")
    with pytest.raises(ValueError, match=rf"bad.tsv:2: {match}"):
        read_cola(path)


def test_untrained_named_model_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("LI_ADGER_MODELS", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="minilm-cola is not trained yet"):
        minilm_cola_path(train=False)


@pytest.mark.parametrize(
    ("name", "size"),
    [("in_domain_train.tsv", 8551), ("in_domain_dev.tsv", 527), ("out_of_domain_dev.tsv", 516)],
)
def test_cola_files_hold_the_published_sizes(name, size):
    sentences, labels = read_cola(cola_file(name))
    assert len(sentences) == len(labels) == size
    assert set(labels) == {0, 1}
