"""``python -m tools.shipped_parameters``: a shipped record gets the parameter count of the
model it was scored with, loaded again, and nothing when another model loads."""

from __future__ import annotations

import json

from baselines_tiny import save_tiny_causal_lm

from space.data.shipped import shipped_json
from tools.shipped_parameters import fill_parameters


def _record(folder, name, metadata):
    path = folder / "li_adger" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(shipped_json({"model": name, "metadata": metadata, "row": {"blimp": 0.5}}))
    return path


def test_a_shipped_record_gets_the_count_of_the_model_loaded_again(tmp_path):
    import transformers

    from baselines import load_scorer

    model = str(save_tiny_causal_lm(tmp_path / "tiny", "llama"))
    scored = load_scorer(model, kind="causal", device="cpu").metadata()
    shipped = {k: v for k, v in scored.items() if k != "parameters"}  # as written before
    path = _record(tmp_path / "results", "tiny", shipped)
    trigram = _record(tmp_path / "results", "trigram", {"model": "trigram", "kind": "ngram"})
    before = trigram.read_text()
    assert fill_parameters(tmp_path / "results") == ([path], [])
    got = json.loads(path.read_text())
    want = transformers.AutoModelForCausalLM.from_pretrained(model).num_parameters()
    assert got["metadata"] == {**shipped, "parameters": want} and got["row"] == {"blimp": 0.5}
    assert trigram.read_text() == before  # an n-gram model has no parameter count
    assert fill_parameters(tmp_path / "results") == ([], [])  # recorded once


def test_another_model_loaded_writes_nothing(tmp_path):
    shipped = {"model": "m", "kind": "causal", "source": {"gguf": "a.gguf", "gguf_bytes": 10}}
    path = _record(tmp_path, "m", shipped)
    before = path.read_text()

    def load(model, kind):
        return {"model": model, "kind": kind, "source": {"gguf": "a.gguf", "gguf_bytes": 11},
                "parameters": 5}  # fmt: skip

    written, refused = fill_parameters(tmp_path, load=load)
    assert written == [] and path.read_text() == before
    assert refused == [f"{path}: the model loaded is not the one scored ('source' differs: "
                       "{'gguf': 'a.gguf', 'gguf_bytes': 10} shipped, "
                       "{'gguf': 'a.gguf', 'gguf_bytes': 11} loaded)"]  # fmt: skip
