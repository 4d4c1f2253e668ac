"""Tiny random causal LMs and word-level tokenizers, built offline, for the scorer tests."""

from __future__ import annotations

from pathlib import Path

WORDS = (
    *("the", "keys", "to", "cabinet", "are", "is", "was", "were", "lost", "found", "on"),
    *("table", "a", "an", "who", "what", "did", "you", "think", "that", "kim", "solved"),
    *("problem", ".", ",", "?", "!"),
)
SPECIALS = ("<unk>", "<s>", "</s>", "<|endoftext|>")


def tiny_tokenizer(*, bos: str | None = "<s>", eos: str | None = "</s>", add_bos: bool = False):
    """A lower-casing word-level tokenizer over :data:`WORDS` (unknown words → ``<unk>``).

    With ``add_bos=True`` its post-processor puts ``bos`` in front, like Llama tokenizers.
    """
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    vocab = {w: i for i, w in enumerate((*SPECIALS, *WORDS))}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    if add_bos:
        backend.post_processor = processors.TemplateProcessing(
            single=f"{bos} $A", special_tokens=[(bos, vocab[bos])]
        )
    specials = {"unk_token": "<unk>"}
    if bos:
        specials["bos_token"] = bos
    if eos:
        specials["eos_token"] = eos
    return PreTrainedTokenizerFast(tokenizer_object=backend, **specials)


def tiny_bpe_tokenizer():
    """A byte-level BPE tokenizer (GPT-2 style: ``Ġ`` marks a word after a space) trained on a
    few sentences over :data:`WORDS`, with ``<s>``, ``</s>`` and ``<unk>``; no special tokens
    are added when encoding."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    corpus = [
        " ".join(WORDS),
        "The keys to the cabinet are lost.",
        "Who did you think that Kim solved?",
        "A robin is a bird. A robin is not a tree.",
    ] * 3
    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<s>", "</s>", "<unk>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(corpus, trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=backend, bos_token="<s>", eos_token="</s>", unk_token="<unk>"
    )


def tiny_causal_lm(
    arch: str = "llama", *, seed: int = 0, max_positions: int = 64, vocab_size: int | None = None
):
    """A random two-layer causal LM over the :func:`tiny_tokenizer` vocabulary (or
    ``vocab_size`` tokens)."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    vocab_size = vocab_size or len(SPECIALS) + len(WORDS)
    if arch == "llama":
        config = LlamaConfig(
            vocab_size=vocab_size,
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            max_position_embeddings=max_positions,
            bos_token_id=1,
            eos_token_id=2,
        )
        return LlamaForCausalLM(config).eval()
    if arch == "gpt2":
        config = GPT2Config(
            vocab_size=vocab_size,
            n_positions=max_positions,
            n_embd=32,
            n_layer=2,
            n_head=4,
            bos_token_id=1,
            eos_token_id=2,
        )
        return GPT2LMHeadModel(config).eval()
    raise ValueError(f"arch must be 'llama' or 'gpt2' (got {arch!r})")


def save_tiny_causal_lm(folder: Path, arch: str = "llama", **kwargs) -> Path:
    """Save a tiny causal LM and its tokenizer to ``folder`` (loadable with ``from_pretrained``)."""
    tiny_causal_lm(arch, **kwargs).save_pretrained(folder)
    tiny_tokenizer().save_pretrained(folder)
    return folder


def save_tiny_bert(
    folder: Path,
    architecture: str = "BertForMaskedLM",
    *,
    seed: int = 0,
    hidden_size: int = 32,
    num_hidden_layers: int = 2,
    num_attention_heads: int = 4,
    intermediate_size: int = 64,
    **config,
) -> str:
    """Save a random BERT of ``architecture`` (a ``transformers`` class name) with the
    packaged all-MiniLM-L6-v2 WordPiece tokenizer (uncased) to ``folder``; return the folder.

    The weights are drawn from ``seed`` in a private random stream: the caller's global torch
    random state is left untouched.
    """
    import torch
    import transformers

    from baselines.models.minilm import packaged_encoder_path

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        bert = transformers.BertConfig(
            vocab_size=30522,
            hidden_size=hidden_size,
            num_hidden_layers=num_hidden_layers,
            num_attention_heads=num_attention_heads,
            intermediate_size=intermediate_size,
            **config,
        )
        getattr(transformers, architecture)(bert).save_pretrained(folder)
    transformers.AutoTokenizer.from_pretrained(packaged_encoder_path()).save_pretrained(folder)
    return str(folder)
