"""The PLL's encoder in ONNX Runtime: the same scores as PyTorch, exported once, refused clearly."""

from __future__ import annotations

import pytest
from baselines_tiny import save_tiny_bert

torch = pytest.importorskip("torch")
pytest.importorskip("onnxruntime")
pytest.importorskip("onnxscript")

from baselines.fast.mlm_onnx import check_runtime  # noqa: E402
from baselines.kinds.mlm import MaskedLMScorer  # noqa: E402
from baselines.spec import build_scorer  # noqa: E402

SENTENCES = [
    "The keys are lost.",
    "Go.",
    "Who did you say that the unflappable linguist interviewed yesterday?",
    "The souvenir shop isn't open, is it?",
]


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory):
    return save_tiny_bert(tmp_path_factory.mktemp("tiny-bert"), max_position_embeddings=128)


@pytest.mark.slow
@pytest.mark.parametrize("budget", [None, 24])  # the device's budget; passes of a few copies
def test_onnx_runtime_gives_the_torch_scores_and_reuses_its_export(
    bert_dir, budget, tmp_path, monkeypatch
):
    monkeypatch.setenv("LI_ADGER_CACHE", str(tmp_path))
    options = {"device": "cpu", "precision": "fp32", "progress": False, "token_budget": budget}
    torch_scores = MaskedLMScorer(bert_dir, **options)
    onnx_scores = MaskedLMScorer(bert_dir, runtime="onnx", **options)
    assert onnx_scores.metadata()["runtime"] == "onnx"
    assert torch_scores.metadata()["runtime"] == "torch"
    assert onnx_scores._passes.onnx.path.is_relative_to(tmp_path / "models" / "onnx")
    a, b = torch_scores.token_logprobs(SENTENCES), onnx_scores.token_logprobs(SENTENCES)
    for x, y in zip(a, b, strict=True):
        assert x.tokens == y.tokens
        assert x.logprobs == pytest.approx(y.logprobs, abs=1e-4)
    # a second scorer loads the cached export; nothing is left half-written beside it
    written = onnx_scores._passes.onnx.path.stat().st_mtime_ns
    again = MaskedLMScorer(bert_dir, runtime="onnx", **options)
    assert again._passes.onnx.path == onnx_scores._passes.onnx.path
    assert again._passes.onnx.path.stat().st_mtime_ns == written
    beside = again._passes.onnx.path.parent.parent.iterdir()
    assert [p.name for p in beside if p.suffix != ".lock"] == [again._passes.onnx.path.parent.name]


def test_the_runtime_is_refused_where_it_cannot_run(bert_dir):
    with pytest.raises(ValueError, match=r"runtime must be one of 'torch', 'onnx' \(got 'tvm'\)"):
        MaskedLMScorer(bert_dir, device="cpu", runtime="tvm")
    with pytest.raises(
        ValueError, match=r"runs on the CPU in fp32 \(got device 'cpu', dtype bfloat16\)"
    ):
        MaskedLMScorer(bert_dir, device="cpu", precision="bf16", runtime="onnx")
    model = MaskedLMScorer(bert_dir, device="cpu", progress=False).model
    with pytest.raises(ValueError, match=r"got device 'cuda'"):
        check_runtime("onnx", model=model, device="cuda", dtype=torch.float32)
    model.config.position_embedding_type = "relative_key"
    with pytest.raises(ValueError, match="BERT-style encoder with absolute positions"):
        check_runtime("onnx", model=model, device="cpu", dtype=torch.float32)
    with pytest.raises(ValueError, match=r"runtime does not apply to kind 'ngram' \(got 'onnx'\)"):
        build_scorer("trigram", runtime="onnx")
