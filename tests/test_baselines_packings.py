"""The causal scorer's three layouts (trie, rows, padded) give the scores of ``model(...).logits``
on sentences and cloze units that share prefixes; fallback, metadata, resume and the command."""

from __future__ import annotations

import warnings

import pytest
import torch
from baselines_tiny import save_tiny_causal_lm, tiny_causal_lm, tiny_tokenizer

from baselines.fast import isolation
from baselines.kinds import causal
from baselines.kinds.causal import CausalLMScorer
from baselines.resume import fingerprint

# shared beginnings, a sentence that is a prefix of another, a duplicate, a lone one
SENTENCES = [
    "The keys to the cabinet are lost.",
    "The keys to the cabinet is lost.",
    "The keys to the cabinet are lost on the table.",
    "The keys to the cabinet",
    "The keys to the cabinet is lost.",
    "The keys are lost.",
    "The key was found on a table.",
    "Who did you think that Kim solved?",
    "Who did you think solved the problem?",
    "Lost.",
    "Kim solved the problem.",
]
CLOZE = [
    ("the keys to the cabinet", "are"),
    ("the keys to the cabinet", "is lost"),
    ("the keys to the", "cabinet are"),
    ("who did you think that kim", "solved"),
]


def model_logprobs(model, ids: list[int]) -> list[float]:
    """log p(ids[i] | ids[:i]), i ≥ 1, from ``model(...).logits`` on the list alone."""
    with torch.no_grad():
        logp = torch.log_softmax(model(input_ids=torch.tensor([ids])).logits[0].double(), -1)
    return [logp[i - 1, ids[i]].item() for i in range(1, len(ids))]


@pytest.fixture(scope="module", params=["llama", "gpt2"])
def model(request):
    return tiny_causal_lm(request.param)


@pytest.mark.parametrize("width", [64, 8], ids=["whole rows", "subtrees split"])
def test_every_packing_gives_the_model_s_own_logits(model, width, monkeypatch):
    monkeypatch.setattr(causal, "PACK_WIDTH", width)
    tokenizer = tiny_tokenizer()
    scorers = {
        p: CausalLMScorer.from_objects(model, tokenizer, name=p, batch_size=6, packing=p)
        for p in ("trie", "rows", "padded")
    }
    assert {p: s.packing for p, s in scorers.items()} == {p: p for p in scorers}
    encoded = scorers["trie"]._encode(SENTENCES)
    expected = [model_logprobs(model, ids) for ids in encoded]
    for scorer in scorers.values():
        got = scorer.token_logprobs(SENTENCES)
        for want, have in zip(expected, got, strict=True):
            assert have.logprobs == pytest.approx(want, abs=1e-4)
    trie, rows = scorers["trie"].positions_share, scorers["rows"].positions_share
    assert trie < rows  # the shared prefixes are computed once
    if width == 64:  # one batch of 6 and one of 5, each a trie in one row
        prefixes = {tuple(ids[: j + 1]) for ids in encoded[:6] for j in range(len(ids))}
        assert scorers["trie"].positions[1] == sum(len(ids) for ids in encoded)
        assert scorers["trie"].positions[0] >= len(prefixes)


def test_cloze_units_read_rank_and_top_at_the_parent_position(model):
    tokenizer = tiny_tokenizer()
    contexts, completions = zip(*CLOZE, strict=True)
    records = {
        p: CausalLMScorer.from_objects(model, tokenizer, name=p, packing=p).score_cloze(
            contexts, completions
        )
        for p in ("trie", "rows", "padded")
    }
    full = CausalLMScorer.from_objects(model, tokenizer, name="full")
    full._head = None  # model(...).logits, right-padded
    reference = full.score_cloze(contexts, completions)
    for packing, got in records.items():
        for want, have in zip(reference, got, strict=True):
            assert have["score"] == pytest.approx(want["score"], abs=1e-4), packing
            assert (have["rank"], have["top"]) == (want["rank"], want["top"]), packing


def test_a_model_without_the_custom_mask_falls_back_saying_so(monkeypatch):
    monkeypatch.setattr(isolation, "_trie_isolates", lambda decoder, n: False)
    with pytest.warns(UserWarning, match="packing 'trie' is not exact for this model .*'rows'"):
        scorer = CausalLMScorer.from_objects(tiny_causal_lm("llama"), tiny_tokenizer(), name="m")
    assert scorer.packing == "rows" and scorer.metadata()["packing"] == "rows"


def test_each_packing_is_checked_on_the_model_itself():
    """OPT reads a row packed without a mask as one sequence (rows are not exact), but
    honours a custom 4-D mask with position ids (the trie is): each check decides alone."""
    from transformers import OPTConfig, OPTForCausalLM

    torch.manual_seed(0)
    config = OPTConfig(vocab_size=40, hidden_size=16, ffn_dim=32, num_hidden_layers=1,
                       num_attention_heads=2, word_embed_proj_dim=16)  # fmt: skip
    opt = OPTForCausalLM(config).eval()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        trie = CausalLMScorer.from_objects(opt, tiny_tokenizer(), name="opt")
    assert trie.packing == "trie"
    for want, have in zip(
        [model_logprobs(opt, ids) for ids in trie._encode(SENTENCES)],
        trie.token_logprobs(SENTENCES),
        strict=True,
    ):
        assert have.logprobs == pytest.approx(want, abs=1e-4)
    with pytest.warns(UserWarning, match="packing 'rows' is not exact .*packing 'padded'"):
        rows = CausalLMScorer.from_objects(opt, tiny_tokenizer(), name="opt", packing="rows")
    assert rows.packing == "padded"


def test_packing_is_recorded_but_does_not_split_the_resume_cache(model):
    tokenizer = tiny_tokenizer()
    trie = CausalLMScorer.from_objects(model, tokenizer, name="m").metadata()
    rows = CausalLMScorer.from_objects(model, tokenizer, name="m", packing="rows").metadata()
    assert (trie["packing"], rows["packing"]) == ("trie", "rows")
    before = {k: v for k, v in trie.items() if k != "packing"}  # written before the key existed
    assert fingerprint(trie, "x") == fingerprint(rows, "x") == fingerprint(before, "x")
    with pytest.raises(ValueError, match="packing must be one of 'trie', 'rows', 'padded'"):
        CausalLMScorer.from_objects(model, tokenizer, name="m", packing="stacked")


def test_every_way_to_a_causal_scorer_checks_packing_once_before_loading(monkeypatch):
    """The spec, the constructor and from_objects all refuse a packing through the scorer's
    one check (check_options), before any model loads."""
    import transformers

    from baselines.kinds import causal
    from baselines.spec import score_spec

    def load(*args, **kwargs):
        raise AssertionError("a model was loaded")

    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", load)
    monkeypatch.setattr(transformers.AutoModelForCausalLM, "from_pretrained", load)
    calls = []
    check = causal.check_options
    monkeypatch.setattr(causal, "check_options", lambda **o: (calls.append(o), check(**o)))
    for make in (
        lambda: score_spec("smollm2", packing="stacked"),
        lambda: CausalLMScorer("gpt2", device="cpu", packing="stacked"),
        lambda: CausalLMScorer.from_objects(None, None, name="m", packing="stacked"),
    ):
        with pytest.raises(ValueError, match="packing must be one of 'trie', 'rows', 'padded'"):
            make()
    assert [c["packing"] for c in calls] == ["stacked"] * 3


def test_the_command_scores_alike_with_each_packing_and_prints_the_share(tmp_path, capsys):
    from baselines.__main__ import main
    from metric_adc.scores.file import read_scores

    folder = save_tiny_causal_lm(tmp_path / "tiny", "gpt2")
    table = tmp_path / "mine.csv"
    table.write_text(
        "id,sentence\n" + "".join(f"s{k},{s}\n" for k, s in enumerate(dict.fromkeys(SENTENCES)))
    )
    scores, shares = {}, {}
    for packing in ("trie", "rows", "padded"):
        out = tmp_path / f"{packing}.jsonl"
        argv = ["score", "--model", str(folder), "--dataset", str(table), "--out", str(out)]
        assert main([*argv, "--device", "cpu", "--packing", packing, "--quiet"]) == 0
        line = [x for x in capsys.readouterr().err.splitlines() if "positions computed" in x]
        assert len(line) == 1 and f"(packing {packing})" in line[0]
        shares[packing] = float(line[0].split()[2])
        read = read_scores(out)
        assert read.metadata["packing"] == packing
        scores[packing] = read.scores
    assert shares["trie"] < min(shares["rows"], shares["padded"])
    for packing in ("rows", "padded"):
        assert scores[packing] == pytest.approx(scores["trie"], abs=1e-4)


@pytest.mark.slow
def test_smollm2_packings_equal_its_own_logits():
    """The real SmolLM2 default on 16 BLiMP pairs (two paradigms) and 16 LI-Adger sentences:
    every packing within 1e-4 of ``model(...).logits`` on each sentence alone."""
    from baselines.spec import build_scorer
    from baselines.units import load_units
    from tools.speed.trie import whole_pairs

    blimp = load_units("blimp")
    sentences = whole_pairs(blimp.ids, blimp.texts, ["adjunct_island", "wh_island"], 8)
    sentences += load_units("li_adger").texts[:16]
    scorers = {
        p: build_scorer("smollm2", device="cpu", batch_size=16, packing=p, progress=False)
        for p in ("trie", "rows", "padded")
    }
    model = scorers["trie"].model
    expected = [model_logprobs(model, ids) for ids in scorers["trie"]._encode(sentences)]
    for packing, scorer in scorers.items():
        assert scorer.packing == packing
        for want, have in zip(expected, scorer.token_logprobs(sentences), strict=True):
            assert have.logprobs == pytest.approx(want, abs=1e-4), packing
    assert scorers["trie"].positions_share < scorers["rows"].positions_share


@pytest.mark.slow
def test_the_shipped_smollm2_scores_are_reproduced_by_the_trie():
    """A sample of the shipped SmolLM2 LI-Adger scores (computed before trie packing existed),
    rescored by the default scorer: the scores file's numbers do not move."""
    import csv
    from pathlib import Path

    from baselines.batch_order import plan_batches
    from baselines.spec import build_scorer
    from baselines.units import load_units

    shipped = Path(__file__).parents[1] / "space" / "results" / "li_adger"
    with (shipped / "smollm2-logprob-default.csv").open(encoding="utf-8") as fh:
        scores = {row["id"]: float(row["score"]) for row in csv.DictReader(fh)}
    units = load_units("li_adger")
    ids, texts = list(units.ids[:128]), list(units.texts[:128])
    scorer = build_scorer("smollm2", device="cpu", progress=False)
    assert scorer.packing == "trie"
    got = {}
    for batch in plan_batches(
        texts, 64, by_prefix=True, longest_first=True
    ):  # as the scoring run batches them
        for k, s in zip(batch, scorer.score([texts[k] for k in batch]), strict=True):
            got[ids[k]] = s
    assert scorer.positions_share < 1.0
    # float rounding only, which batch shapes and CPUs move: rescored on a 2-core Xeon, all
    # 4,178 shipped scores are within 6.8e-4 by trie and 7.1e-4 by rows (docs/speed.md)
    assert max(abs(got[i] - scores[i]) for i in ids) <= 1e-3
