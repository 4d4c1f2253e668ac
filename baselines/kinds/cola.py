"""CoLA acceptability classifiers as scorers: signed confidence or logit margin per sentence.

A binary sequence classifier fine-tuned on CoLA gives, per sentence, the probabilities of
*acceptable* and *unacceptable*. Two scores are offered:

``"signed-confidence"`` (the thesis's score)
    ``+max(p)`` when the predicted label is acceptable, ``-max(p)`` otherwise; in [-1, -0.5]
    ∪ (0.5, 1]. The prediction is *acceptable* iff p(acceptable) > p(unacceptable); an exact
    tie counts as unacceptable.
``"logit-margin"``
    ``log p(acceptable) − log p(unacceptable)``, which for two classes equals the difference of
    the two logits. Unbounded and monotone in p(acceptable), so it does not clump near ±1.

Any local folder or Hub name of a two-label CoLA classifier works; the built-in
``"minilm-cola"`` is the all-MiniLM-L6-v2 encoder fine-tuned here on CoLA on first use and
cached (:func:`baselines.models.minilm.minilm_cola_path`).

Examples
--------
>>> signed_confidence([[0.0, 2.0], [1.0, -1.0]])
[0.8807970779778823, -0.8807970779778823]
>>> logit_margin([[0.0, 2.0], [1.0, -1.0]])
[2.0, -2.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Unpack

from baselines.hf import LoadOptions, library_versions, load_pretrained, parameter_metadata
from baselines.interface import UnitError, check_sentences, scorer_identity

OUTPUTS: tuple[str, ...] = ("signed-confidence", "logit-margin")


def check_output(output: str) -> None:
    """The one check of the CoLA scorer's output (its variant): the spec
    (:func:`baselines.spec.score_spec`) and the scorer's constructor call it.

    Examples
    --------
    >>> check_output("margin")
    Traceback (most recent call last):
    ...
    ValueError: output must be one of 'signed-confidence', 'logit-margin' (got 'margin')
    """
    if output not in OUTPUTS:
        raise ValueError(
            f"output must be one of 'signed-confidence', 'logit-margin' (got {output!r})"
        )


ACCEPTABLE = 1  # CoLA's label for acceptable sentences


def _check_logits(logits: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    rows = []
    for i, row in enumerate(logits):
        row = [float(x) for x in row]
        if len(row) != 2:
            raise ValueError(f"logits row {i} must hold 2 values (got {len(row)})")
        if not all(math.isfinite(x) for x in row):
            raise ValueError(f"logits row {i} must be finite (got {row})")
        rows.append((row[0], row[1]))
    return rows


def signed_confidence(
    logits: Sequence[Sequence[float]], *, acceptable: int = ACCEPTABLE
) -> list[float]:
    """(+1 if predicted acceptable else −1) × max softmax probability, per row of logits.

    Examples
    --------
    >>> signed_confidence([[0.0, 0.0]])
    [-0.5]
    >>> signed_confidence([[3.0, 0.0]], acceptable=0)
    [0.9525741268224334]
    """
    out = []
    for row in _check_logits(logits):
        margin = row[acceptable] - row[1 - acceptable]
        # max softmax of two classes = sigmoid(|margin|), written to never overflow
        out.append(
            1.0 / (1.0 + math.exp(-margin)) if margin > 0 else -1.0 / (1.0 + math.exp(margin))
        )
    return out


def logit_margin(logits: Sequence[Sequence[float]], *, acceptable: int = ACCEPTABLE) -> list[float]:
    """log p(acceptable) − log p(unacceptable) per row of logits (= the logit difference).

    Examples
    --------
    >>> logit_margin([[0.5, -0.25]])
    [-0.75]
    >>> logit_margin([[1.0, 2.0, 3.0]])
    Traceback (most recent call last):
    ...
    ValueError: logits row 0 must hold 2 values (got 3)
    """
    return [row[acceptable] - row[1 - acceptable] for row in _check_logits(logits)]


class ColaScorer:
    """Sentence scores from a binary CoLA classifier.

    Parameters
    ----------
    model_name_or_path:
        A local folder or a Hub name of a two-label sequence classifier.
    output:
        ``"signed-confidence"`` or ``"logit-margin"`` (see the module docstring).
    batch_size:
        Sentences per forward pass (sorted by length, so padding is minimal).
    acceptable_label:
        Index of the *acceptable* class; by default taken from the model's ``label2id``
        (key ``"acceptable"``) when present, else 1 as in CoLA.
    name:
        The model name written to the scores file (default: ``model_name_or_path``).
    device, precision, revision:
        Where and how the model is loaded (:class:`baselines.hf.LoadOptions`).

    Examples
    --------
    >>> import tempfile, torch
    >>> from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification
    >>> from baselines.models.minilm import packaged_encoder_path
    >>> folder = tempfile.mkdtemp()
    >>> _ = torch.manual_seed(0)
    >>> cfg = BertConfig(vocab_size=30522, hidden_size=16, num_hidden_layers=1,
    ...                  num_attention_heads=2, intermediate_size=32, num_labels=2)
    >>> BertForSequenceClassification(cfg).save_pretrained(folder)
    >>> AutoTokenizer.from_pretrained(packaged_encoder_path()).save_pretrained(folder)
    ('...
    >>> scores = ColaScorer(folder, device="cpu", progress=False).score(["Go.", "The go."])
    >>> all(0.5 <= abs(s) <= 1 for s in scores)
    True
    """

    kind = "cola"
    reduction = "none"

    def __init__(
        self,
        model_name_or_path: str,
        *,
        output: str = "signed-confidence",
        batch_size: int = 64,
        acceptable_label: int | None = None,
        progress: bool = True,
        name: str | None = None,
        **load: Unpack[LoadOptions],
    ) -> None:
        from transformers import AutoModelForSequenceClassification

        check_output(output)
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int (got {batch_size!r})")
        self.path = str(model_name_or_path)
        self.name = name or self.path
        self.variant = output
        self.batch_size = batch_size
        self.progress = progress
        loaded = load_pretrained(AutoModelForSequenceClassification, self.path, **load)
        model = loaded.model
        if model.config.num_labels != 2:
            raise ValueError(
                f"model {self.name!r} must be a two-label classifier "
                f"(got num_labels={model.config.num_labels})"
            )
        self.model, self.tokenizer = model, loaded.tokenizer
        self.device, self.dtype, self._revision = loaded.device, loaded.dtype, loaded.revision
        label2id = {str(k).lower(): int(v) for k, v in (model.config.label2id or {}).items()}
        if acceptable_label is None:
            acceptable_label = label2id.get("acceptable", ACCEPTABLE)
        if acceptable_label not in (0, 1):
            raise ValueError(f"acceptable_label must be 0 or 1 (got {acceptable_label!r})")
        self.acceptable_label = acceptable_label
        self.max_length = loaded.max_length

    packing: str | None = None
    """A classifier's batch is padded, never packed (:class:`baselines.interface.BatchedScorer`)."""

    positions_share: float | None = None
    """Not counted: every position of a padded batch is computed."""

    def count_positions(self) -> None:
        """Nothing to count (:attr:`positions_share` stays ``None``)."""

    def logits(self, sentences: Sequence[str]) -> list[tuple[float, float]]:
        """The classifier's two float32 logits per sentence, in order."""
        import torch
        from tqdm.auto import tqdm

        sentences = check_sentences(sentences)
        unique = list(dict.fromkeys(sentences))
        lengths = [len(ids) for ids in self.tokenizer(unique)["input_ids"]]
        for s, n in zip(unique, lengths, strict=True):
            if self.max_length is not None and n > self.max_length:
                raise UnitError(
                    sentences.index(s),
                    "sentence",
                    f"is too long for {self.name}: {n} tokens after tokenisation, but the "
                    f"model accepts at most {self.max_length} (it starts {s[:60]!r})",
                )
        order = sorted(range(len(unique)), key=lambda k: -lengths[k])
        found: dict[str, tuple[float, float]] = {}
        starts = range(0, len(order), self.batch_size)
        with torch.inference_mode():
            for start in tqdm(
                starts,
                desc=f"CoLA {self.name}",
                unit="batch",
                leave=False,
                disable=not self.progress,
            ):
                batch_sentences = [unique[k] for k in order[start : start + self.batch_size]]
                batch = self.tokenizer(batch_sentences, padding=True, return_tensors="pt")
                logits = self.model(**{k: v.to(self.device) for k, v in batch.items()}).logits
                for s, row in zip(batch_sentences, logits.float().cpu().tolist(), strict=True):
                    found[s] = (row[0], row[1])
        return [found[s] for s in sentences]

    def score(self, sentences: Sequence[str]) -> list[float]:
        """One score per sentence, in order (signed confidence or logit margin)."""
        function = signed_confidence if self.variant == "signed-confidence" else logit_margin
        return function(self.logits(sentences), acceptable=self.acceptable_label)

    def metadata(self) -> dict[str, Any]:
        """Facts needed to reproduce the scores, with the fine-tuning report when known."""
        import json

        meta: dict[str, Any] = {
            **scorer_identity(self),
            "acceptable_label": self.acceptable_label,
            "precision": str(self.dtype).removeprefix("torch."),
            "device": str(self.device),
            **self._revision,
            **parameter_metadata(self.model),
            "versions": library_versions(),
        }
        report = Path(self.path) / "report.json"
        if report.is_file():
            training = json.loads(report.read_text(encoding="utf-8"))
            meta["training"] = {"best": training["best"], "settings": training["settings"]}
        return meta
