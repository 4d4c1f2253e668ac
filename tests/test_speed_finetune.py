"""The speed tool's fine-tuning section (tools/speed/finetune.py) measured on a tiny random
encoder: positive rates, and figures consistent with each other and with the model's shape
(no timing is asserted beyond positivity)."""

from __future__ import annotations

import pytest
from baselines_tiny import save_tiny_bert


def test_measure_finetune_on_a_tiny_encoder(tmp_path):
    import torch
    from transformers import AutoConfig

    from tools.speed.finetune import dense_training_flops, format_finetune, measure_finetune
    from tools.speed.flops import spec_from_config

    model = save_tiny_bert(tmp_path / "tiny", "BertModel")
    threads = torch.get_num_threads()
    try:
        result = measure_finetune(model, sentences=24, repeats=1, threads=1, dev=True)
    finally:
        torch.set_num_threads(threads)
    assert result["sentences"] == 24 and result["threads"] == 1 and result["model"] == model
    assert result["matmul_flops"] > 0
    rows = {r["grouping"]: r for r in result["rows"]}
    assert list(rows) == ["pad64", "length"]
    shape = spec_from_config(AutoConfig.from_pretrained(model))
    tokens = rows["pad64"]["tokens"]
    assert rows["length"]["tokens"] == tokens and tokens >= 2 * 24  # [CLS] and [SEP] at least
    flops = dense_training_flops(
        layer_params=shape.layer_params, n_layers=shape.n_layers, tokens=tokens
    )
    assert rows["pad64"]["flops"] == rows["length"]["flops"] == flops
    assert rows["pad64"]["positions"] == 64 * 24  # every batch padded to the thesis's 64
    assert tokens <= rows["length"]["positions"] < rows["pad64"]["positions"]
    for r in rows.values():
        assert r["seconds"] > 0
        assert result["sentences"] / r["seconds"] > 0  # sentences/s
        share = r["flops"] / r["seconds"] / result["matmul_flops"]
        assert 0 < share <= 1  # a share of the dense-FLOP limit
        assert -1 <= r["dev_mcc"] <= 1
    text = format_finetune(result).splitlines()
    assert [line.split()[0] for line in text[2:4]] == ["pad64", "length"]
    rate = {g: 24 / rows[g]["seconds"] for g in rows}
    assert float(text[2].split()[1]) == pytest.approx(rate["pad64"], abs=0.05)
    assert text[-1].startswith(f"length / pad64: {rate['length'] / rate['pad64']:.2f}x")
