"""The causal-LM scorer on tiny random models: BOS convention, batching, reductions, bad input."""

from __future__ import annotations

import copy
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from baselines_tiny import save_tiny_causal_lm, tiny_causal_lm, tiny_tokenizer

from baselines.kinds.causal import CausalLMScorer

SENTENCES = [
    "The keys to the cabinet are lost.",
    "The keys to the cabinet is lost.",
    "Who did you think that Kim solved?",
    "Kim solved the problem.",
    "What did you think?",
    "The key was found on a table.",
    "Lost.",
    "Who did you think solved the problem that the keys to the cabinet were on?",
    "A table.",
]


def naive_logprobs(model, ids: list[int]) -> list[float]:
    """log p(ids[i] | ids[:i]) for i >= 1, one unpadded sequence, full log-softmax."""
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([ids])).logits[0].double()
    logp = torch.log_softmax(logits, dim=-1)
    return [logp[i - 1, ids[i]].item() for i in range(1, len(ids))]


@pytest.fixture(scope="module", params=["llama", "gpt2"])
def scorer(request):
    return CausalLMScorer.from_objects(
        tiny_causal_lm(request.param), tiny_tokenizer(), name=f"tiny-{request.param}"
    )


def test_first_word_is_scored_given_the_context_token(scorer):
    tokenizer = scorer.tokenizer
    for sentence in SENTENCES:
        words = tokenizer(sentence, add_special_tokens=False)["input_ids"]
        expected = naive_logprobs(scorer.model, [tokenizer.bos_token_id, *words])
        got = scorer.token_logprobs([sentence])[0]
        assert len(got) == len(words)  # every sentence token, the first included
        assert got.tokens == tuple(tokenizer.convert_ids_to_tokens(words))
        assert got.logprobs == pytest.approx(expected, abs=1e-5)


def test_batched_scores_equal_one_at_a_time(scorer):
    batched = CausalLMScorer.from_objects(
        scorer.model, scorer.tokenizer, name="b", batch_size=4
    ).token_logprobs(SENTENCES)
    for sentence, together in zip(SENTENCES, batched, strict=True):
        alone = scorer.token_logprobs([sentence])[0]
        assert together.tokens == alone.tokens
        assert together.logprobs == pytest.approx(alone.logprobs, abs=1e-5)


def test_context_token_auto_explicit_and_missing():
    model = tiny_causal_lm("llama")
    assert CausalLMScorer.from_objects(model, tiny_tokenizer(), name="m").context_token == "<s>"
    no_bos = tiny_tokenizer(bos=None)
    assert CausalLMScorer.from_objects(model, no_bos, name="m").context_token == "</s>"
    chosen = CausalLMScorer.from_objects(
        model, tiny_tokenizer(), name="m", context_token="<|endoftext|>"
    )
    assert chosen.context_token_id == 3
    first = chosen.token_logprobs(["Kim solved the problem."])[0].logprobs[0]
    words = chosen.tokenizer("Kim solved the problem.", add_special_tokens=False)["input_ids"]
    assert first == pytest.approx(naive_logprobs(model, [3, *words])[0], abs=1e-5)
    with pytest.raises(ValueError, match=r"context_token '<bos>' is not in the tokenizer"):
        CausalLMScorer.from_objects(model, tiny_tokenizer(), name="m", context_token="<bos>")
    with pytest.raises(ValueError, match="neither a bos_token nor an eos_token"):
        CausalLMScorer.from_objects(model, tiny_tokenizer(bos=None, eos=None), name="m")


def test_a_tokenizer_that_adds_bos_itself_gets_no_second_bos():
    model = tiny_causal_lm("llama")
    plain = CausalLMScorer.from_objects(model, tiny_tokenizer(), name="m")
    adding = CausalLMScorer.from_objects(model, tiny_tokenizer(add_bos=True), name="m")
    assert adding.tokenizer("Kim")["input_ids"][0] == adding.tokenizer.bos_token_id
    a, b = plain.token_logprobs(SENTENCES), adding.token_logprobs(SENTENCES)
    assert [t.tokens for t in a] == [t.tokens for t in b]
    assert [t.logprobs for t in a] == [t.logprobs for t in b]


def test_reductions_sum_mean_and_penalty():
    model, tokenizer = tiny_causal_lm("gpt2"), tiny_tokenizer()
    tokens = CausalLMScorer.from_objects(model, tokenizer, name="m").token_logprobs(SENTENCES)
    scores = {
        v: CausalLMScorer.from_objects(model, tokenizer, name="m", variant=v).score(SENTENCES)
        for v in ("logprob", "meanlp", "penlp")
    }
    for k, t in enumerate(tokens):
        assert scores["logprob"][k] == pytest.approx(math.fsum(t.logprobs), abs=1e-9)
        assert scores["meanlp"][k] == pytest.approx(math.fsum(t.logprobs) / len(t), abs=1e-9)
        penalty = ((5 + len(t)) / 6) ** 0.8
        assert scores["penlp"][k] == pytest.approx(math.fsum(t.logprobs) / penalty, abs=1e-9)
    with pytest.raises(ValueError, match=r"variant must be one of 'logprob', 'meanlp', 'penlp'"):
        CausalLMScorer.from_objects(model, tokenizer, name="m", variant="slor")


def test_caller_objects_are_not_mutated_and_model_is_in_eval_mode():
    model, tokenizer = tiny_causal_lm("llama").train(), tiny_tokenizer()
    before = copy.deepcopy(tokenizer.__dict__), tokenizer.padding_side, tokenizer.pad_token
    weights = {k: v.clone() for k, v in model.state_dict().items()}
    scorer = CausalLMScorer.from_objects(model, tokenizer, name="m", batch_size=3)
    first, second = scorer.score(SENTENCES), scorer.score(SENTENCES)
    assert not model.training
    assert first == second
    assert (tokenizer.padding_side, tokenizer.pad_token) == before[1:]
    assert tokenizer.__dict__.keys() == before[0].keys()
    assert all(torch.equal(v, model.state_dict()[k]) for k, v in weights.items())


def test_bad_input_is_named():
    scorer = CausalLMScorer.from_objects(
        tiny_causal_lm("gpt2", max_positions=8), tiny_tokenizer(), name="short"
    )
    with pytest.raises(ValueError, match=r"sentences\[1\] is empty"):
        scorer.score(["Kim solved the problem.", " "])
    long = "the keys " * 4  # 8 tokens + the context token > 8 positions
    with pytest.raises(ValueError, match=r"sentences\[0\] is too long for short: 9 tokens"):
        scorer.score([long])
    assert len(scorer.score([long.rsplit(" ", 2)[0]])) == 1  # 7 + 1 fits
    with pytest.raises(TypeError, match="not a single str"):
        scorer.score("Kim solved the problem.")
    with pytest.raises(ValueError, match="batch_size must be a positive int"):
        CausalLMScorer.from_objects(scorer.model, scorer.tokenizer, name="m", batch_size=0)


def test_loading_from_a_folder_matches_the_objects(tmp_path):
    folder = save_tiny_causal_lm(tmp_path / "tiny", "llama")
    loaded = CausalLMScorer(folder, device="cpu", batch_size=2)
    direct = CausalLMScorer.from_objects(tiny_causal_lm("llama"), tiny_tokenizer(), name="m")
    assert loaded.score(SENTENCES) == pytest.approx(direct.score(SENTENCES), abs=1e-5)
    meta = loaded.metadata()
    assert meta["model"] == str(folder)
    assert (meta["kind"], meta["variant"], meta["reduction"]) == ("causal", "logprob", "sum")
    assert (meta["context_token"], meta["dtype"], meta["max_length"]) == ("<s>", "float32", 64)
    assert set(meta["versions"]) == {"torch", "transformers"}


@pytest.mark.slow
def test_smollm2_end_to_end(tmp_path):
    """The real SmolLM2 default on the first 64 LI-Adger sentences, through the CLI."""
    from baselines.models.smollm2 import CONTEXT_TOKEN
    from baselines.spec import build_scorer
    from metric_adc.scores.file import read_scores

    out = tmp_path / "smollm2.jsonl"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "baselines", "score", "--model", "smollm2", "--out", str(out)]
    cmd += ["--limit", "64", "--device", "cpu", "--quiet"]
    done = subprocess.run(cmd, cwd=Path(__file__).parents[1], env=env, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    scores = read_scores(out)
    assert len(scores) == 64 and scores.metadata["context_token"] == CONTEXT_TOKEN
    assert scores.metadata["kind"] == "causal" and scores.metadata["model"] == "smollm2"

    # The same numbers in-process, and the context-token choice documented in smollm2.py:
    # conditioning on <|endoftext|> gives higher log-probabilities than the chat marker.
    sentences = scores.sentences[:16]
    ours = build_scorer("smollm2", device="cpu", batch_size=16)
    assert ours.score(sentences) == pytest.approx(scores.scores[:16].tolist(), abs=1e-3)
    chat = CausalLMScorer.from_objects(
        ours.model, ours.tokenizer, name="chat", batch_size=16, context_token="<|im_start|>"
    )
    assert sum(ours.score(sentences)) > sum(chat.score(sentences))
    assert scores.metadata["convention"] == "default"

    # lm-evaluation-harness's convention scores after the tokenizer's BOS, the chat marker,
    # with a space before the sentence
    harness = build_scorer("smollm2", device="cpu", batch_size=16, convention="harness")
    assert (harness.context_token, harness.metadata()["convention"]) == ("<|im_start|>", "harness")
    spaced = [" " + s for s in sentences]
    assert harness.score(sentences) == pytest.approx(chat.score(spaced), abs=1e-3)


@pytest.mark.parametrize("arch", ["llama", "gpt2"])
@pytest.mark.parametrize("packing", ["trie", "rows", "padded"])
def test_the_output_layer_on_scored_positions_only_gives_the_full_logits_scores(
    arch, packing, tmp_path, monkeypatch
):
    """The fast path (decoder on packed or padded rows, output layer on the real positions in
    chunks) against ``model(...).logits`` on the same model, one sentence per row with
    padding. Packed: the longest sentence (12 tokens) is wider than the 8-token rows asked
    for, so the rows take its width and the two others share one with an empty tail; output
    chunks of 5 positions end inside sentences."""
    from baselines.kinds import causal
    from baselines.kinds.causal import CausalLMScorer

    monkeypatch.setattr(causal, "HEAD_ROWS", 5)
    monkeypatch.setattr(causal, "PACK_WIDTH", 8)

    folder = save_tiny_causal_lm(tmp_path / arch, arch)
    sentences = ["The keys are lost.", "The keys to the cabinet is lost on the table.", "Kim?"]
    fast = CausalLMScorer(folder, device="cpu", batch_size=3, packing=packing)
    assert fast._head is not None and fast.packing == packing  # exact for both architectures
    assert [len(ids) for ids in fast._encode(sentences)] == [6, 12, 3]
    full = CausalLMScorer(folder, device="cpu", batch_size=3)
    full._head = None
    a, b = fast.token_logprobs(sentences), full.token_logprobs(sentences)
    for x, y in zip(a, b, strict=True):
        assert x.tokens == y.tokens
        assert x.logprobs == pytest.approx(y.logprobs, abs=1e-5)


def test_a_run_names_an_over_long_unit_by_its_dataset_id_and_field(tmp_path):
    """A benchmark's unit, sentence or cloze, is named by the benchmark, its id and field."""
    from baselines.interface import ClozeUnit
    from baselines.score_file import score_to_file

    scorer = CausalLMScorer.from_objects(
        tiny_causal_lm("gpt2", max_positions=8), tiny_tokenizer(), name="short"
    )
    long = "who did you think that kim solved the problem ?"
    with pytest.raises(ValueError, match=r"^blimp \(id 'x2'\): 'sentence' is too long for short"):
        score_to_file(scorer, ["x1", "x2"], ["the keys are lost", long], tmp_path / "s.jsonl",
                      dataset="blimp", progress=False)  # fmt: skip
    units = [ClozeUnit("the keys are", "lost"), ClozeUnit(long, "lost")]
    with pytest.raises(ValueError, match=r"^npi \(id 'c2'\): 'context' is too long for short"):
        score_to_file(scorer, ["c1", "c2"], units, tmp_path / "c.jsonl", dataset="npi",
                      progress=False)  # fmt: skip
