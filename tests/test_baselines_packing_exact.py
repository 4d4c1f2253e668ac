"""A packing is exact or it is not used: tiny random models of each attention family the
``rows`` and ``trie`` layouts can break (sliding windows, ALiBi, positions from the mask, an
attention that drops a 4-D mask), each scored by the causal scorer as asked and compared
with its own logits on each sentence alone; the packing recorded is the one used."""

from __future__ import annotations

import warnings

import pytest
import torch
import transformers
from baselines_tiny import SPECIALS, WORDS, tiny_tokenizer

from baselines.fast.isolation import PROBE_LIMIT, attention_window, packing_problem
from baselines.kinds.causal import CausalLMScorer

VOCAB = len(SPECIALS) + len(WORDS)
SENTENCES = [
    "The keys to the cabinet are lost on the table.",
    "The keys to the cabinet is lost on the table.",
    "The keys to the cabinet are lost.",
    "Who did you think that Kim solved?",
    "Who did you think solved the problem?",
    "Kim solved the problem.",
]
SMALL = {"vocab_size": VOCAB, "hidden_size": 16, "intermediate_size": 32,
         "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 2,
         "max_position_embeddings": 64, "bos_token_id": 1, "eos_token_id": 2, "pad_token_id": 0}  # fmt: skip


def build(config_class: str, model_class: str, **config):
    """A random model of ``model_class`` from a ``config_class`` config, in eval mode."""
    torch.manual_seed(0)
    return getattr(transformers, model_class)(getattr(transformers, config_class)(**config)).eval()


FAMILIES = {
    # sliding-window attention, every layer
    "mistral window 4": ("MistralConfig", "MistralForCausalLM", {**SMALL, "sliding_window": 4}),
    "phi3 window 4": ("Phi3Config", "Phi3ForCausalLM", {**SMALL, "sliding_window": 4}),
    # sliding on the second layer only
    "qwen2 window 4": (
        "Qwen2Config",
        "Qwen2ForCausalLM",
        {**SMALL, "use_sliding_window": True, "sliding_window": 4, "max_window_layers": 1},
    ),
    # Gemma 2: alternating sliding and full layers, soft-capped logits
    "gemma2 window 4": (
        "Gemma2Config",
        "Gemma2ForCausalLM",
        {**SMALL, "sliding_window": 4, "head_dim": 8},
    ),
    # ALiBi position biases
    "bloom": (
        "BloomConfig",
        "BloomForCausalLM",
        {"vocab_size": VOCAB, "hidden_size": 16, "n_layer": 2, "n_head": 2},
    ),
    "mpt": (
        "MptConfig",
        "MptForCausalLM",
        {"vocab_size": VOCAB, "d_model": 16, "n_layers": 2, "n_heads": 2},
    ),
    # positions from the mask
    "opt": (
        "OPTConfig",
        "OPTForCausalLM",
        {
            "vocab_size": VOCAB,
            "hidden_size": 16,
            "ffn_dim": 32,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "word_embed_proj_dim": 16,
        },
    ),
    "llama": ("LlamaConfig", "LlamaForCausalLM", SMALL),
}


def alone_logprobs(model, ids: list[int]) -> list[float]:
    """log p(ids[i] | ids[:i]), i ≥ 1, from ``model(...).logits`` on the list alone."""
    with torch.no_grad():
        logp = torch.log_softmax(model(input_ids=torch.tensor([ids])).logits[0].double(), -1)
    return [logp[i - 1, ids[i]].item() for i in range(1, len(ids))]


def scored_as_asked(model, packing: str) -> tuple[CausalLMScorer, list[str]]:
    """The scorer asked for ``packing``, and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scorer = CausalLMScorer.from_objects(
            model, tiny_tokenizer(), name="tiny", batch_size=6, packing=packing
        )
    return scorer, [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("packing", ["trie", "rows"])
def test_every_family_is_scored_as_each_sentence_alone(family, packing):
    config_class, model_class, config = FAMILIES[family]
    model = build(config_class, model_class, **config)
    scorer, said = scored_as_asked(model, packing)
    assert scorer.metadata()["packing"] == scorer.packing
    if scorer.packing != packing:
        assert len(said) == 1 and f"scoring with packing {scorer.packing!r}" in said[0]
    encoded = scorer._encode(SENTENCES)
    assert max(len(ids) for ids in encoded) > 6  # past every window of 4
    for ids, got in zip(encoded, scorer.token_logprobs(SENTENCES), strict=True):
        assert got.logprobs == pytest.approx(alone_logprobs(model, ids), abs=1e-4), family


def test_a_4_token_window_is_not_packed_as_a_trie():
    """The regression: a tiny Mistral with a 4-token window was scored with ``trie``, recorded
    as such, 0.19 away from each sentence alone; the check's probe was shorter than the
    window. Now the trie is refused, saying why, and ``rows`` (which keeps the window) used."""
    config_class, model_class, config = FAMILIES["mistral window 4"]
    scorer, said = scored_as_asked(build(config_class, model_class, **config), "trie")
    assert scorer.packing == "rows" and scorer.metadata()["packing"] == "rows"
    assert said == [
        "tiny: packing 'trie' is not exact for this model (the model does not honour a custom "
        "4-D attention mask (checked past its 4-token attention window)); scoring with packing "
        "'rows'"
    ]


def test_a_window_too_wide_to_probe_is_not_packed():
    config = {**SMALL, "sliding_window": PROBE_LIMIT, "max_position_embeddings": 4 * PROBE_LIMIT}
    model = build("MistralConfig", "MistralForCausalLM", **config)
    scorer, said = scored_as_asked(model, "trie")
    assert scorer.packing == "padded"
    assert len(said) == 1 and f"its {PROBE_LIMIT}-token attention window is longer" in said[0]


def test_a_window_no_accepted_list_reaches_is_no_reason_to_refuse():
    config = {**SMALL, "sliding_window": 4 * PROBE_LIMIT}  # 64 positions, under the window
    scorer, said = scored_as_asked(build("MistralConfig", "MistralForCausalLM", **config), "trie")
    assert (scorer.packing, said) == ("trie", [])


def test_an_attention_that_drops_the_4d_mask_is_caught():
    """An attention implementation that ignores the mask it is given (as some kernels do
    with a 4-D mask) and attends causally over the whole row: neither packing is exact."""
    from transformers import AttentionInterface
    from transformers.integrations.sdpa_attention import sdpa_attention_forward

    def causal_only(module, query, key, value, attention_mask, **kwargs):
        kwargs.pop("is_causal", None)
        return sdpa_attention_forward(module, query, key, value, None, is_causal=True, **kwargs)

    AttentionInterface.register("relb_causal_only", causal_only)
    model = build("LlamaConfig", "LlamaForCausalLM", **SMALL)
    model.set_attn_implementation("relb_causal_only")
    for packing in ("trie", "rows"):
        assert packing_problem(model.model, packing, max_length=64) is not None
    scorer, said = scored_as_asked(model, "trie")
    assert scorer.packing == "padded" and len(said) == 1


@pytest.mark.parametrize(
    ("family", "window"),
    [
        ("mistral window 4", 4),
        ("phi3 window 4", 4),
        ("qwen2 window 4", 4),
        ("gemma2 window 4", 4),
        ("llama", None),
        ("bloom", None),
    ],
)
def test_the_window_is_read_from_each_config(family, window):
    config_class, _, config = FAMILIES[family]
    assert attention_window(getattr(transformers, config_class)(**config)) == window


def test_qwen2_without_its_sliding_window_has_none():
    config = transformers.Qwen2Config(**{**SMALL, "sliding_window": 4})  # use_sliding_window off
    assert attention_window(config) is None
