"""Masked-LM PLL scorer: equal to a naive one-mask-at-a-time loop, budgeted, conventions kept."""

from __future__ import annotations

import functools
import math

import pytest
from baselines_tiny import save_tiny_bert

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from baselines.fast import mlm_passes  # noqa: E402
from baselines.interface import TokenScorer  # noqa: E402
from baselines.kinds.mlm import MaskedLMScorer, mask_plan  # noqa: E402
from baselines.models.cola_data import cola_file, read_cola  # noqa: E402

SENTENCES = [
    "The keys are lost.",
    "The souvenir shop isn't open, is it?",
    "Go.",
    "Kerry attempted to study physics.",
    "The keys are lost.",  # a duplicate
    "Who did you say that the unflappable linguist interviewed yesterday?",
]
ROBERTA_POSITIONS = 40


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory):
    return save_tiny_bert(
        tmp_path_factory.mktemp("tiny-bert"), "BertForMaskedLM", max_position_embeddings=512
    )


@pytest.fixture(scope="module")
def roberta_dir(tmp_path_factory):
    from tokenizers import ByteLevelBPETokenizer

    folder = tmp_path_factory.mktemp("tiny-roberta")
    corpus, _ = read_cola(cola_file("in_domain_dev.tsv"))
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(
        corpus,
        vocab_size=500,
        min_frequency=2,
        special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
    )
    bpe.save_model(str(folder))
    tokenizer = transformers.RobertaTokenizer(
        vocab=str(folder / "vocab.json"), merges=str(folder / "merges.txt")
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(1)
        config = transformers.RobertaConfig(
            vocab_size=len(tokenizer),
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=64,
            pad_token_id=tokenizer.pad_token_id,
            max_position_embeddings=ROBERTA_POSITIONS + tokenizer.pad_token_id + 1,
        )
        transformers.RobertaForMaskedLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


@functools.cache
def naive_model(folder: str):
    tokenizer = transformers.AutoTokenizer.from_pretrained(folder)
    model = transformers.AutoModelForMaskedLM.from_pretrained(
        folder, attn_implementation="eager"
    ).eval()
    return tokenizer, model


def naive_pll(folder: str, sentence: str, variant: str, every: int = 1) -> list[float]:
    """One forward pass per scored token, no batching, no padding, eager attention.

    With ``every=k`` only every k-th scored token is computed (for long sentences).
    """
    tokenizer, model = naive_model(folder)
    enc = tokenizer(sentence, return_special_tokens_mask=True, return_tensors="pt")
    ids = enc["input_ids"][0]
    special = enc["special_tokens_mask"][0].tolist()
    words = enc.word_ids(0)
    out = []
    scored = [i for i in range(len(ids)) if not special[i]][::every]
    with torch.no_grad():
        for i in scored:
            masked = ids.clone()
            masked[i] = tokenizer.mask_token_id
            if variant == "word-l2r":
                for j in range(i + 1, len(ids)):
                    if not special[j] and words[j] is not None and words[j] == words[i]:
                        masked[j] = tokenizer.mask_token_id
            logits = model(input_ids=masked[None]).logits[0, i]
            out.append(float(torch.log_softmax(logits.double(), -1)[ids[i]]))
    return out


def input_ids_seen(scorer: MaskedLMScorer) -> tuple[list, object]:
    seen: list = []
    hook = scorer.model.get_input_embeddings().register_forward_pre_hook(
        lambda module, args: seen.append(args[0].detach().clone())
    )
    return seen, hook


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["original", "word-l2r"])
@pytest.mark.parametrize("which", ["bert", "roberta"])
def test_equals_naive_loop(which, variant, request):
    folder = request.getfixturevalue(f"{which}_dir")
    scorer = MaskedLMScorer(folder, device="cpu", variant=variant, token_budget=64, progress=False)
    results = scorer.token_logprobs(SENTENCES)
    scores = scorer.score(SENTENCES)
    for sentence, result, score in zip(SENTENCES, results, scores, strict=True):
        expected = naive_pll(folder, sentence, variant)
        assert len(result.logprobs) == len(expected)
        assert result.logprobs == pytest.approx(expected, abs=1e-5)
        assert score == pytest.approx(math.fsum(expected), abs=1e-4)


@pytest.mark.parametrize("which", ["bert", "roberta"])
def test_the_three_forward_paths_agree(which, request, monkeypatch):
    """Last layer at the scored positions only, head only there, and the full forward pass."""
    folder = request.getfixturevalue(f"{which}_dir")
    scorer = MaskedLMScorer(folder, device="cpu", token_budget=64, progress=False)
    assert scorer.metadata()["last_layer"] == "scored positions only"
    calls = []
    real = mlm_passes.hidden_at_positions
    monkeypatch.setattr(mlm_passes, "hidden_at_positions", lambda *a: calls.append(1) or real(*a))
    scored_only = scorer.score(SENTENCES)
    n_calls = len(calls)
    assert n_calls > 0  # the scored-positions path really ran
    monkeypatch.setattr(scorer._passes, "last_layer_scored_only", False)
    head_only = scorer.score(SENTENCES)
    monkeypatch.setattr(scorer._passes, "head_name", None)
    full = scorer.score(SENTENCES)
    assert len(calls) == n_calls  # and not on the other two paths
    assert scored_only == pytest.approx(full, abs=1e-5)
    assert head_only == pytest.approx(full, abs=1e-5)


def test_models_without_a_known_head_run_the_full_forward(bert_dir, monkeypatch):
    monkeypatch.setattr(mlm_passes, "HEAD_ATTRIBUTE", {})
    scorer = MaskedLMScorer(bert_dir, device="cpu", progress=False)
    assert scorer.metadata()["last_layer"] == "full"
    expected = [sum(naive_pll(bert_dir, s, "original")) for s in SENTENCES[:3]]
    assert scorer.score(SENTENCES[:3]) == pytest.approx(expected, abs=1e-4)


def test_special_tokens_never_masked_or_scored(bert_dir):
    scorer = MaskedLMScorer(bert_dir, device="cpu", token_budget=100, progress=False)
    tok = scorer.tokenizer
    seen, hook = input_ids_seen(scorer)
    results = scorer.token_logprobs(SENTENCES[:3])
    hook.remove()
    for result, sentence in zip(results, SENTENCES[:3], strict=True):
        ids = tok(sentence)["input_ids"]
        assert result.tokens == tuple(tok.convert_ids_to_tokens(ids[1:-1]))
        assert "[CLS]" not in result.tokens and "[SEP]" not in result.tokens
    rows = torch.cat([torch.nn.functional.pad(b, (0, 40 - b.shape[1])) for b in seen])
    assert (rows[:, 0] == tok.cls_token_id).all()  # [CLS] is never replaced by [MASK]
    for row in rows:
        length = int((row != tok.pad_token_id).sum())
        assert row[length - 1] == tok.sep_token_id  # nor is [SEP]
        assert int((row == tok.mask_token_id).sum()) == 1  # one mask per copy
    assert len(rows) == sum(len(r) for r in results)  # one copy per scored token


def test_roberta_specials_are_not_scored(roberta_dir):
    scorer = MaskedLMScorer(roberta_dir, device="cpu", progress=False)
    (result,) = scorer.token_logprobs(["The keys are lost."])
    assert "<s>" not in result.tokens and "</s>" not in result.tokens
    assert len(result) == len(scorer.tokenizer("The keys are lost.")["input_ids"]) - 2


@pytest.mark.parametrize("budget", [30, 64, 500])
def test_token_budget_respected(bert_dir, budget):
    scorer = MaskedLMScorer(bert_dir, device="cpu", token_budget=budget, progress=False)
    seen, hook = input_ids_seen(scorer)
    results = scorer.token_logprobs(SENTENCES)
    hook.remove()
    assert all(b.numel() <= budget for b in seen)
    unique_tokens = sum(len(r) for r in dict(zip(SENTENCES, results, strict=True)).values())
    assert sum(b.shape[0] for b in seen) == unique_tokens  # duplicates scored once


def test_passes_pad_only_to_their_own_longest_copy(bert_dir):
    scorer = MaskedLMScorer(bert_dir, device="cpu", token_budget=64, progress=False)
    seen, hook = input_ids_seen(scorer)
    scorer.score(SENTENCES)
    hook.remove()
    for batch in seen:
        assert (batch[:, -1] != scorer.tokenizer.pad_token_id).any()


def test_word_l2r_masks_the_rest_of_a_split_word(bert_dir):
    scorer = MaskedLMScorer(bert_dir, device="cpu", progress=False)
    enc = scorer.tokenizer("a souvenir shop", return_special_tokens_mask=True)
    pieces = scorer.tokenizer.convert_ids_to_tokens(enc["input_ids"])
    assert pieces == ["[CLS]", "a", "so", "##uven", "##ir", "shop", "[SEP]"]
    plan = dict(mask_plan(enc.word_ids(), enc["special_tokens_mask"], "word-l2r"))
    assert plan == {1: (1,), 2: (2, 3, 4), 3: (3, 4), 4: (4,), 5: (5,)}
    original = dict(mask_plan(enc.word_ids(), enc["special_tokens_mask"], "original"))
    assert original == {i: (i,) for i in range(1, 6)}

    l2r = MaskedLMScorer(bert_dir, device="cpu", variant="word-l2r", progress=False)
    (a,) = scorer.token_logprobs(["a souvenir shop"])
    (b,) = l2r.token_logprobs(["a souvenir shop"])
    # the copies of single-piece words and of a word's last piece are identical ...
    for i in (0, 3, 4):
        assert a.logprobs[i] == pytest.approx(b.logprobs[i], abs=1e-6)
    # ... those of the first pieces of a split word are not
    assert a.logprobs[1] != pytest.approx(b.logprobs[1], abs=1e-6)
    assert a.logprobs[2] != pytest.approx(b.logprobs[2], abs=1e-6)


@pytest.mark.slow
def test_long_sentence_within_budget(bert_dir):
    sentence = " ".join(["the keys to the cabinet are on the table and"] * 32) + " done."
    scorer = MaskedLMScorer(bert_dir, device="cpu", token_budget=2048, progress=False)
    n_tokens = len(scorer.tokenizer(sentence)["input_ids"])
    assert 300 < n_tokens <= 512
    seen, hook = input_ids_seen(scorer)
    (result,) = scorer.token_logprobs([sentence])
    hook.remove()
    assert len(result) == n_tokens - 2
    assert all(b.numel() <= 2048 for b in seen) and len(seen) > 1
    expected = naive_pll(bert_dir, sentence, "original", every=16)
    assert result.logprobs[::16] == pytest.approx(expected, abs=1e-5)


@pytest.mark.slow
def test_default_budget_is_small_on_cpu_and_widens_for_a_long_sentence(bert_dir, monkeypatch):
    budget = 128  # the CPU default, lowered below the long sentence
    monkeypatch.setattr(mlm_passes, "CPU_TOKEN_BUDGET", budget)
    short, long = SENTENCES[1], " ".join(["the keys to the cabinet are on the table"] * 32) + "."
    scorer = MaskedLMScorer(bert_dir, device="cpu", progress=False)
    assert scorer.token_budget == budget
    n_long = len(scorer.tokenizer(long)["input_ids"])
    assert n_long > budget
    seen, hook = input_ids_seen(scorer)
    scores = scorer.score([short, long])
    hook.remove()
    # each pass holds at most one copy of the long sentence, or `budget` tokens of short ones
    assert all(b.numel() <= max(budget, n_long) for b in seen)
    assert all(b.shape[0] == 1 for b in seen if b.shape[1] > budget)
    wide = MaskedLMScorer(bert_dir, device="cpu", token_budget=4096, progress=False)
    assert scores == pytest.approx(wide.score([short, long]), abs=1e-5)
    with pytest.raises(ValueError, match="token_budget"):
        MaskedLMScorer(bert_dir, device="cpu", token_budget=budget, progress=False).score([long])


def test_order_and_duplicates_do_not_change_scores(bert_dir):
    scorer = MaskedLMScorer(bert_dir, device="cpu", token_budget=64, progress=False)
    forward = scorer.score(SENTENCES)
    backward = scorer.score(SENTENCES[::-1])
    assert forward == pytest.approx(backward[::-1], abs=1e-6)
    assert forward[0] == forward[4]
    alone = scorer.score([SENTENCES[1]])
    assert alone[0] == pytest.approx(forward[1], abs=1e-6)


def test_protocol_and_metadata(bert_dir):
    scorer = MaskedLMScorer(bert_dir, device="cpu", variant="word-l2r", progress=False)
    assert isinstance(scorer, TokenScorer)
    meta = scorer.metadata()
    assert (meta["kind"], meta["variant"], meta["reduction"]) == ("mlm", "pll-word-l2r", "sum")
    assert meta["model"] == bert_dir and meta["attn_implementation"] == "sdpa"


@pytest.mark.parametrize(
    ("sentences", "error", "match"),
    [
        (["The keys are lost.", ""], ValueError, r"sentences\[1\] is empty"),
        (["   "], ValueError, r"sentences\[0\] is empty"),
        ("The keys are lost.", TypeError, "not a single str"),
        ([None], TypeError, r"sentences\[0\] must be a str"),
    ],
)
def test_bad_sentences(bert_dir, sentences, error, match):
    scorer = MaskedLMScorer(bert_dir, device="cpu", progress=False)
    with pytest.raises(error, match=match):
        scorer.score(sentences)


def test_over_long_sentence_names_the_limit(roberta_dir):
    scorer = MaskedLMScorer(roberta_dir, device="cpu", progress=False)
    assert scorer.max_length == ROBERTA_POSITIONS
    with pytest.raises(ValueError, match=f"accepts at most {ROBERTA_POSITIONS}"):
        scorer.score(["the keys are lost " * 20])


def test_budget_below_one_copy_is_an_error(bert_dir):
    scorer = MaskedLMScorer(bert_dir, device="cpu", token_budget=5, progress=False)
    with pytest.raises(ValueError, match=r"token_budget \(5\) is smaller than one masked copy"):
        scorer.score(["The keys are lost."])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"variant": "l2r"}, "variant must be one of"),
        ({"token_budget": 0}, "token_budget must be a positive int"),
        ({"precision": "fp8"}, "precision must be one of"),
        ({"device": "tpu"}, "device must be"),
    ],
)
def test_bad_options(bert_dir, kwargs, match):
    with pytest.raises(ValueError, match=match):
        MaskedLMScorer(bert_dir, **{"device": "cpu", **kwargs})
