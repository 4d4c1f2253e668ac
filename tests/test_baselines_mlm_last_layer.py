"""The last encoder layer at the scored positions only equals the full forward pass."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from baselines.fast.mlm_last_layer import (  # noqa: E402
    _key_mask,
    hidden_at_positions,
    supports_scored_positions,
)

SMALL = {
    "vocab_size": 60,
    "hidden_size": 24,
    "num_hidden_layers": 3,
    "num_attention_heads": 3,
    "intermediate_size": 40,
}


def _model(kind: str, attention: str, tmp_path):
    config_class, model_class = {
        "bert": (transformers.BertConfig, transformers.BertForMaskedLM),
        "roberta": (transformers.RobertaConfig, transformers.RobertaForMaskedLM),
    }[kind]
    extra = {"pad_token_id": 1} if kind == "roberta" else {}
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(3)
        model_class(config_class(**SMALL, **extra)).save_pretrained(tmp_path)
    return model_class.from_pretrained(tmp_path, attn_implementation=attention).eval()


def _batch(pad_id: int):
    """Rows of unequal length, padded, each scored at a different position."""
    ids = torch.tensor(
        [
            [2, 11, 12, 13, 14, 15, 3],
            [2, 21, 22, 3, pad_id, pad_id, pad_id],
            [2, 31, 32, 33, 34, 3, pad_id],
            [2, 41, 42, 43, 44, 45, 3],
        ]
    )
    attention = (ids != pad_id).long()
    attention[:, 0] = 1
    positions = torch.tensor([1, 3, 5, 6])
    return {"input_ids": ids, "attention_mask": attention}, positions


@pytest.mark.parametrize("attention", ["eager", "sdpa"])
@pytest.mark.parametrize("kind", ["bert", "roberta"])
def test_equals_the_full_forward_pass(kind, attention, tmp_path):
    model = _model(kind, attention, tmp_path)
    assert supports_scored_positions(model)
    inputs, positions = _batch(pad_id=model.config.pad_token_id or 0)
    rows = torch.arange(len(positions))
    with torch.inference_mode():
        fast = hidden_at_positions(model, inputs, positions)
        full = model.base_model(**inputs)[0][rows, positions]
        unpadded = torch.stack(
            [
                model.base_model(
                    input_ids=inputs["input_ids"][
                        i : i + 1, : int(inputs["attention_mask"][i].sum())
                    ]
                )[0][0, positions[i]]
                for i in range(len(positions))
            ]
        )
    assert fast.shape == full.shape == (4, SMALL["hidden_size"])
    assert torch.allclose(fast, full, atol=1e-5, rtol=0)
    assert torch.allclose(fast, unpadded, atol=1e-5, rtol=0)  # padding is really masked out
    # and the hook is gone: the model's own forward runs every layer again
    assert not model.base_model.encoder.layer[-1]._forward_pre_hooks


def test_without_padding_the_model_passes_no_mask(tmp_path):
    model = _model("bert", "sdpa", tmp_path)
    ids = torch.tensor([[2, 5, 6, 7, 3], [2, 8, 9, 10, 3]])
    positions = torch.tensor([2, 4])
    with torch.inference_mode():
        fast = hidden_at_positions(model, {"input_ids": ids}, positions)
        full = model.base_model(input_ids=ids)[0][torch.arange(2), positions]
    assert torch.allclose(fast, full, atol=1e-5, rtol=0)


def test_key_mask_reads_the_scored_query_row():
    positions = torch.tensor([0, 2])
    square = torch.zeros(2, 1, 3, 3, dtype=torch.bool)
    square[0, 0, 0] = torch.tensor([True, True, False])
    square[1, 0, 2] = torch.tensor([True, False, True])
    picked = _key_mask(square, positions)
    assert picked.shape == (2, 1, 1, 3)
    assert picked[:, 0, 0].tolist() == [[True, True, False], [True, False, True]]
    padding = torch.tensor([[1, 1, 0], [1, 0, 1]])
    assert torch.equal(_key_mask(padding, positions), picked)
    assert _key_mask(None, positions) is None
    broadcast = torch.zeros(1, 1, 1, 3)
    assert _key_mask(broadcast, positions).shape == (2, 1, 1, 3)
    with pytest.raises(ValueError, match=r"2 or 4 dimensions \(got shape \(2, 3, 3\)\)"):
        _key_mask(torch.zeros(2, 3, 3), positions)


def test_unsupported_models_are_refused(tmp_path):
    bert = transformers.BertConfig(**SMALL)
    decoder = transformers.BertConfig(**SMALL, is_decoder=True)
    assert not supports_scored_positions(transformers.BertForMaskedLM(decoder))
    distil = transformers.DistilBertConfig(
        vocab_size=60, dim=24, n_layers=2, n_heads=3, hidden_dim=40
    )
    assert not supports_scored_positions(transformers.DistilBertForMaskedLM(distil))
    assert not supports_scored_positions(object())
    model = transformers.BertForMaskedLM(bert)
    model.config._attn_implementation = "flash_attention_2"
    assert not supports_scored_positions(model)
