"""One scoring run's options as one frozen, checked object: :class:`ScoreSpec`.

:func:`score_spec` builds it from the options of ``python -m baselines score`` or of
:func:`baselines.load_scorer`, and checks every option there, once: the model name, the kind
(built in, given or detected), the engine and its arguments, whether each option applies to
the kind or engine (:data:`baselines.registry.SCORER_FACTORIES`), the variant, the packing and
the batch size; :meth:`ScoreSpec.perturbed` adds ``--perturbation`` and its settings. Nothing is loaded, converted or trained before the spec stands, so a bad option
fails at once. :meth:`ScoreSpec.scorer` then builds the scorer it describes, and the run reads
its settings from the spec, never from guesses about the scorer.

Examples
--------
>>> spec = score_spec("trigram", variant="logprob")
>>> spec.kind, spec.engine, spec.variant, spec.batch_size
('ngram', 'hf', 'logprob', 512)
>>> spec.scorer().reduction
'sum'
>>> score_spec("minilm-cola", variant="slor")
Traceback (most recent call last):
...
ValueError: output must be one of 'signed-confidence', 'logit-margin' (got 'slor')
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from baselines.interface import ENGINES, Scorer
from baselines.registry import (
    BUILTIN_MODELS,
    ENGINE_FACTORIES,
    SCORER_FACTORIES,
    ScorerFactory,
    default_batch_size,
    detect_kind,
    model_name,
    resolve_kind,
)

if TYPE_CHECKING:
    from li_adger.benchmarks.perturbations import Perturbation

__all__ = ["ScoreSpec", "build_scorer", "score_spec"]

_OPTIONS: tuple[str, ...] = (
    "variant",
    "device",
    "precision",
    "unigram",
    "convention",
    "revision",
    "runtime",
    "packing",
    "engine_args",
    "device_map",
    "max_memory",
    "offload_folder",
)
"""The options a kind or an engine may take (:attr:`ScorerFactory.options`), in order."""


@dataclass(frozen=True)
class ScoreSpec:
    """What a scoring run scores with, checked (build it with :func:`score_spec`).

    ``None`` options take the scorer's defaults. ``batch_size`` is the size the run starts
    with (the model's or kind's default when none was given); ``auto_batch_size`` is
    ``--batch-size auto``, which looks for the largest size that fits on a GPU.
    ``perturbation`` is ``--perturbation`` with its settings, checked by :meth:`perturbed`
    (``None``: the benchmarks' own units).
    """

    model: str
    kind: str
    engine: str = "hf"
    variant: str | None = None
    device: str = "auto"
    batch_size: int = 64
    auto_batch_size: bool = False
    batch_size_given: bool = False
    precision: str | None = None
    unigram: str | None = None
    convention: str | None = None
    revision: str | None = None
    runtime: str | None = None
    packing: str | None = None
    engine_args: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    device_map: str | None = None
    max_memory: Mapping[int | str, int | str] | None = None
    offload_folder: str | None = None
    progress: bool = True
    perturbation: Perturbation | None = None

    @property
    def factory(self) -> ScorerFactory:
        """How this spec's scorer is built: its engine's, or (``hf``) its kind's."""
        return SCORER_FACTORIES[self.kind] if self.engine == "hf" else ENGINE_FACTORIES[self.engine]

    def options(self) -> dict[str, Any]:
        """The keyword options of the scorer's factory: the given options, then the run
        settings (``batch_size``, ``progress``) the factory takes."""
        given = {name: getattr(self, name) for name in _OPTIONS}
        given["engine_args"] = dict(self.engine_args) or None
        given["max_memory"] = dict(self.max_memory) if self.max_memory else None
        options = {name: value for name, value in given.items() if value is not None}
        settings = {"batch_size": self.batch_size, "progress": self.progress}
        options.update((name, settings[name]) for name in self.factory.settings)
        return options

    def scorer(self) -> Scorer:
        """The scorer this spec describes (loaded, converted or trained as needed)."""
        return self.factory.build(self.model, **self.options())

    def perturbed(
        self,
        names: str | None,
        *,
        dataset: str,
        subset: str | None = None,
        shuffles: int | None = None,
        seed: int | None = None,
    ) -> ScoreSpec:
        """This spec scoring Ettinger's perturbations ``names`` of the diagnostics
        (``--perturbation``, :mod:`li_adger.benchmarks.perturbations`) with ``shuffles`` and
        ``seed`` (``--shuffles``, ``--perturbation-seed``), checked against the ``dataset``
        and ``subset`` scored; with no ``names``, this spec.

        Examples
        --------
        >>> spec = score_spec("trigram")
        >>> spec.perturbed("trunc", dataset="diagnostics", shuffles=2).perturbation
        Perturbation(('trunc',), seed=0, shuffles=2)
        >>> spec.perturbed(None, dataset="diagnostics") is spec
        True
        >>> spec.perturbed(None, dataset="diagnostics", shuffles=3)
        Traceback (most recent call last):
        ...
        ValueError: --shuffles and --perturbation-seed apply to --perturbation
        >>> spec.perturbed("shuf", dataset="npi")
        Traceback (most recent call last):
        ...
        ValueError: --perturbation rewrites Ettinger's diagnostics: give --dataset diagnostics without --subset (got --dataset npi)
        >>> spec.perturbed("shuffle", dataset="diagnostics")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: unknown perturbation 'shuffle'; expected 'all' or names from [...], comma-separated
        """
        if names is None:
            if shuffles is not None or seed is not None:
                raise ValueError("--shuffles and --perturbation-seed apply to --perturbation")
            return self
        if dataset != "diagnostics" or subset is not None:
            raise ValueError(
                "--perturbation rewrites Ettinger's diagnostics: give --dataset diagnostics "
                f"without --subset (got --dataset {dataset}"
                + (f" --subset {subset})" if subset is not None else ")")
            )
        from li_adger.benchmarks.perturbations import (
            DEFAULT_SHUFFLES,
            Perturbation,
            parse_perturbations,
        )

        perturbation = Perturbation(
            parse_perturbations(names),
            seed=0 if seed is None else seed,
            shuffles=DEFAULT_SHUFFLES if shuffles is None else shuffles,
        )
        return replace(self, perturbation=perturbation)


def _check_variant(kind: str, variant: str | None) -> None:
    """Raise, with the message the kind's scorer gives, on a variant the kind does not have."""
    if variant is None:
        return
    from baselines.kinds.linked import LINKED_VARIANTS
    from metric_adc.linking.formulas import LINKING_NAMES, check_linking_name

    if kind == "ngram":
        check_linking_name(variant, allowed=LINKING_NAMES)
    elif kind == "causal" and variant not in LINKED_VARIANTS:
        from baselines.kinds.causal_base import check_text_options

        check_text_options(variant=variant)
    elif kind == "mlm" and variant not in LINKED_VARIANTS:
        from baselines.kinds.mlm import check_variant

        check_variant(variant)
    elif kind == "cola":
        from baselines.kinds.cola import check_output

        check_output(variant)


def _check_batch_size(batch_size: object) -> None:
    if batch_size in (None, "auto"):
        return
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int or 'auto' (got {batch_size!r})")


def score_spec(
    model: str,
    *,
    kind: str | None = None,
    variant: str | None = None,
    device: str = "auto",
    batch_size: int | str | None = None,
    precision: str | None = None,
    unigram: str | None = None,
    convention: str | None = None,
    revision: str | None = None,
    runtime: str | None = None,
    packing: str | None = None,
    engine: str = "hf",
    engine_args: Mapping[str, Any] | None = None,
    device_map: str | None = None,
    max_memory: Mapping[int | str, int | str] | None = None,
    offload_folder: str | None = None,
    progress: bool = True,
) -> ScoreSpec:
    """The checked :class:`ScoreSpec` of these options (their meanings: :func:`build_scorer`).

    Examples
    --------
    >>> score_spec("trigram", precision="fp16")
    Traceback (most recent call last):
    ...
    ValueError: precision does not apply to kind 'ngram' (got 'fp16')
    >>> score_spec("smollm2", revision="main")
    Traceback (most recent call last):
    ...
    ValueError: revision applies to Hugging Face models, not to the built-in 'smollm2' (got revision='main')
    >>> score_spec("trigram", engine="vllm")
    Traceback (most recent call last):
    ...
    ValueError: engine 'vllm' scores causal language models only; 'trigram' is of kind 'ngram'
    >>> score_spec("smollm2", packing="stacked")
    Traceback (most recent call last):
    ...
    ValueError: packing must be one of 'trie', 'rows', 'padded' (got 'stacked')
    >>> score_spec("smollm2", engine_args={"seed": 1})
    Traceback (most recent call last):
    ...
    ValueError: --engine-arg applies to --engine vllm (got --engine hf)
    >>> score_spec("smollm2", variant="slor", batch_size="auto").auto_batch_size
    True
    """
    model = model_name(model)
    if engine not in ENGINES:
        choices = ", ".join(repr(e) for e in ENGINES)
        raise ValueError(f"engine must be one of {choices} (got {engine!r})")
    if engine_args and engine != "vllm":
        raise ValueError(f"--engine-arg applies to --engine vllm (got --engine {engine})")
    if engine != "hf" and kind is None and model not in BUILTIN_MODELS:
        kind = detect_kind(model) or "causal"  # a name with no local config: served as causal
    kind = resolve_kind(model, kind)
    if engine == "hf":
        factory, where = SCORER_FACTORIES[kind], f"kind {kind!r}"
    elif kind != "causal":
        raise ValueError(
            f"engine {engine!r} scores causal language models only; {model!r} is of kind {kind!r}"
        )
    else:
        factory, where = ENGINE_FACTORIES[engine], f"engine {engine!r}"
    given = {
        "variant": variant,
        "device": device,
        "precision": precision,
        "unigram": unigram,
        "convention": convention,
        "revision": revision,
        "runtime": runtime,
        "packing": packing,
        "engine_args": dict(engine_args) if engine_args else None,
        "device_map": device_map,
        "max_memory": dict(max_memory) if max_memory else None,
        "offload_folder": offload_folder,
    }
    if revision is not None and model in BUILTIN_MODELS:
        raise ValueError(
            f"revision applies to Hugging Face models, not to the built-in {model!r} "
            f"(got revision={revision!r})"
        )
    if revision is not None and Path(model).expanduser().exists():
        raise ValueError(
            f"revision applies to models on the Hugging Face Hub, not to the local folder "
            f"{model} (got revision={revision!r}): a folder holds one revision; check out the "
            "one you want there and give no revision"
        )
    for name, value in given.items():
        if value is not None and name not in factory.options:
            raise ValueError(f"{name} does not apply to {where} (got {value!r})")
    _check_variant(kind, variant)
    if packing is not None:  # the causal scorer's own check, before it loads
        from baselines.kinds.causal import check_options

        check_options(packing=packing)
    if engine_args:
        from baselines.engines.vllm_args import check_engine_args

        check_engine_args(engine_args)
    _check_batch_size(batch_size)
    default = default_batch_size(model, kind)
    return ScoreSpec(
        model=model,
        kind=kind,
        engine=engine,
        variant=variant,
        device=device,
        batch_size=batch_size if isinstance(batch_size, int) else default,
        auto_batch_size=batch_size == "auto",
        batch_size_given=batch_size is not None,
        precision=precision,
        unigram=unigram,
        convention=convention,
        revision=revision,
        runtime=runtime,
        packing=packing,
        engine_args=MappingProxyType(dict(engine_args or {})),
        device_map=device_map,
        max_memory=MappingProxyType(dict(max_memory)) if max_memory else None,
        offload_folder=offload_folder,
        progress=progress,
    )


def build_scorer(model: str, **options: Any) -> Scorer:
    """Build the scorer for ``model``: :func:`score_spec`, then :meth:`ScoreSpec.scorer`.

    ``variant`` is the kind's own choice: a linking function for ``ngram`` (default
    ``slor``) and ``causal`` (default ``logprob``), ``original``/``word-l2r`` for ``mlm``,
    ``signed-confidence``/``logit-margin`` for ``cola``; ``normlp`` and ``slor`` for ``causal``
    and ``mlm`` link the model's log-probability with the words of the ``unigram`` source
    (default ``wordfreq``; :mod:`baselines.kinds.linked`); ``convention`` is the causal
    scorer's (``default`` or ``harness``, :mod:`baselines.kinds.causal`); ``revision`` is a
    Hugging Face model's branch, tag or commit (recorded in the scores file); ``runtime`` is
    where a masked LM's encoder runs (``torch`` or ``onnx``, :mod:`baselines.fast.mlm_onnx`);
    ``packing`` how the causal scorer lays out a batch (``trie``, the default where the model
    honours it, ``rows`` or ``padded``; :mod:`baselines.fast.layout`); ``engine`` what runs a
    causal LM (``hf``, the default, or ``vllm`` with its ``engine_args``,
    :mod:`baselines.engines`); ``device_map="auto"`` (with ``max_memory`` per device and an
    ``offload_folder``) loads a causal LM larger than one device (:mod:`baselines.device_map`).
    ``None`` options take the scorer's defaults; an option the kind or the engine does not
    take is an error, raised before any model loads. ``batch_size`` (default
    :func:`~baselines.registry.default_batch_size`) and ``progress`` go to the kinds that use
    them.

    Examples
    --------
    >>> scorer = build_scorer("trigram", variant="logprob")
    >>> (scorer.name, scorer.kind, scorer.variant, scorer.reduction)
    ('trigram', 'ngram', 'logprob', 'sum')
    >>> build_scorer("trigram", device_map="auto")
    Traceback (most recent call last):
    ...
    ValueError: device_map does not apply to kind 'ngram' (got 'auto')
    """
    return score_spec(model, **options).scorer()


build_scorer.__signature__ = inspect.signature(score_spec)  # its options are score_spec's
