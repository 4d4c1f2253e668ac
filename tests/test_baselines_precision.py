"""bf16 and fp16 scores against fp32: the path ``--device auto`` takes on a GPU, run on the CPU.

On a GPU ``precision="auto"`` loads the model in bf16 (fp16 where bf16 is unsupported) and
computes the log-softmax in float32 from its logits (``baselines.device.inference_dtype``);
the same code runs here on the CPU with ``precision="bf16"``/``"fp16"``. The tolerance is the
one docs/scorers.md states: per token, 4 units of roundoff of the model's dtype (u = 2⁻⁸ for
bf16, 2⁻¹¹ for fp16), for these tiny models whose logits are of order 1.
"""

from __future__ import annotations

import pytest
from baselines_tiny import save_tiny_bert, save_tiny_causal_lm

torch = pytest.importorskip("torch")

from baselines.kinds.causal import CausalLMScorer  # noqa: E402
from baselines.kinds.mlm import MaskedLMScorer  # noqa: E402

SENTENCES = [
    "The keys to the cabinet are lost.",
    "The keys to the cabinet is lost.",
    "Who did you think that Kim solved?",
    "Kim solved the problem.",
    "The key was found on a table.",
    "Who did you think solved the problem that the keys to the cabinet were on?",
]
UNIT_ROUNDOFF = {"bf16": 2.0**-8, "fp16": 2.0**-11}
DTYPE = {"bf16": "bfloat16", "fp16": "float16"}


def per_token_differences(reference, other) -> list[float]:
    differences = []
    for a, b in zip(reference, other, strict=True):
        assert a.tokens == b.tokens
        differences += [abs(x - y) for x, y in zip(a.logprobs, b.logprobs, strict=True)]
    return differences


@pytest.fixture(scope="module")
def causal_dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("precision-causal")
    return {arch: save_tiny_causal_lm(root / arch, arch) for arch in ("llama", "gpt2")}


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory):
    return save_tiny_bert(tmp_path_factory.mktemp("precision-bert"), "BertForMaskedLM")


@pytest.mark.parametrize("precision", ["bf16", "fp16"])
@pytest.mark.parametrize("arch", ["llama", "gpt2"])
def test_causal_scores_in_half_precision_stay_near_fp32(causal_dirs, arch, precision):
    folder = causal_dirs[arch]
    full = CausalLMScorer(folder, device="cpu", precision="fp32")
    half = CausalLMScorer(folder, device="cpu", precision=precision)
    assert half.metadata()["dtype"] == DTYPE[precision]  # the model really runs in it
    differences = per_token_differences(
        full.token_logprobs(SENTENCES), half.token_logprobs(SENTENCES)
    )
    assert max(differences) > 0  # the half-precision path changes the numbers...
    assert max(differences) <= 4 * UNIT_ROUNDOFF[precision]  # ...by a few roundoffs at most
    sums = zip(full.score(SENTENCES), half.score(SENTENCES), strict=True)
    lengths = [len(t) for t in full.token_logprobs(SENTENCES)]
    for (a, b), n in zip(sums, lengths, strict=True):
        assert abs(a - b) <= 4 * UNIT_ROUNDOFF[precision] * n


@pytest.mark.parametrize("precision", ["bf16", "fp16"])
@pytest.mark.parametrize("last_layer_scored_only", [True, False])
def test_pll_in_half_precision_stays_near_fp32(
    bert_dir, precision, last_layer_scored_only, monkeypatch
):
    full = MaskedLMScorer(bert_dir, device="cpu", precision="fp32", progress=False)
    half = MaskedLMScorer(bert_dir, device="cpu", precision=precision, progress=False)
    assert half.metadata()["precision"] == DTYPE[precision]
    assert half.metadata()["last_layer"] == "scored positions only"
    if not last_layer_scored_only:  # the head-only path of other BERT-style models
        monkeypatch.setattr(half._passes, "last_layer_scored_only", False)
        monkeypatch.setattr(full._passes, "last_layer_scored_only", False)
    differences = per_token_differences(
        full.token_logprobs(SENTENCES), half.token_logprobs(SENTENCES)
    )
    assert 0 < max(differences) <= 4 * UNIT_ROUNDOFF[precision]
