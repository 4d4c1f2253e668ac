"""``--batch-size auto``: the largest batch that fits on the device, found once per run.

On a GPU the run first scores the longest sentences of the dataset in a batch of
:data:`AUTO_START` and halves the batch after each out-of-memory error until one fits; the
batch found is used for the whole run, printed and recorded in the scores file (``batch_size``;
it does not change the scores, so it does not split the resume cache). On a CPU an
out-of-memory error cannot be caught (the process is killed), so ``auto`` is the kind's
default batch size (:func:`baselines.registry.default_batch_size`), chosen for 2–16 GiB.
Cloze units are scored in batches of :data:`baselines.score_file.CLOZE_BATCH_SIZE` whatever the choice.
The halving is :func:`largest_batch`, not ``accelerate.find_executable_batch_size``: that one
recognises an out-of-memory error by its message only and, past size 1, raises its own error in
place of the device's, and accelerate is not a dependency of the scorers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from baselines.interface import BatchedScorer, PlacedScorer, Scorer

__all__ = ["AUTO_START", "auto_batch_size", "is_out_of_memory", "largest_batch"]

AUTO_START = 512
"""The first batch size tried on a GPU."""


def is_out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` is a device running out of memory (``torch.cuda.OutOfMemoryError``, or
    the ``RuntimeError`` other backends raise for it).

    Examples
    --------
    >>> is_out_of_memory(RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB"))
    True
    >>> is_out_of_memory(ValueError("out of memory")), is_out_of_memory(RuntimeError("shape"))
    (False, False)
    """
    try:
        import torch

        if isinstance(exc, torch.cuda.OutOfMemoryError):
            return True
    except ImportError:  # pragma: no cover - torch is installed with the scorers
        pass
    return isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower()


def largest_batch(
    fits: Callable[[int], object],
    start: int = AUTO_START,
    *,
    out_of_memory: Callable[[BaseException], bool] = is_out_of_memory,
    free: Callable[[], object] = lambda: None,
) -> int:
    """The first of ``start``, ``start // 2``, … down to 1 for which ``fits(size)`` returns
    without an out-of-memory error (``free()`` runs after each one); any other error, or one
    at size 1, is raised.

    Examples
    --------
    >>> def fits(size):
    ...     if size > 100:
    ...         raise RuntimeError("CUDA out of memory")
    >>> largest_batch(fits, 512)
    64
    >>> largest_batch(lambda size: None, 8)
    8
    >>> largest_batch(lambda size: 1 / 0, 8)
    Traceback (most recent call last):
    ...
    ZeroDivisionError: division by zero
    """
    if not isinstance(start, int) or start < 1:
        raise ValueError(f"start must be a positive integer (got {start!r})")
    size = start
    while True:
        try:
            fits(size)
        except Exception as exc:
            if not out_of_memory(exc) or size == 1:
                raise
            free()
            size //= 2
            continue
        return size


def _device_type(scorer: Scorer) -> str:
    """The type of device ``scorer`` runs on (``cpu`` when it does not say).

    Examples
    --------
    >>> class GpuScorer:
    ...     name, kind, variant, reduction, device = "g", "causal", "logprob", "sum", "cuda:1"
    ...     def score(self, sentences): ...
    ...     def metadata(self): ...
    >>> _device_type(GpuScorer())
    'cuda'
    """
    device = scorer.device if isinstance(scorer, PlacedScorer) else None
    return "cpu" if device is None else str(device).split(":")[0]


def auto_batch_size(scorer: Scorer, sentences: Sequence[object], *, default: int) -> int:
    """The batch size ``--batch-size auto`` gives ``scorer`` for ``sentences``: on a GPU the
    largest that fits the longest sentences (:func:`largest_batch`), else ``default``.

    Examples
    --------
    >>> class CpuScorer:
    ...     name, kind, variant, reduction, device = "c", "causal", "logprob", "sum", "cpu"
    ...     def score(self, sentences): ...
    ...     def metadata(self): ...
    >>> auto_batch_size(CpuScorer(), ["Go."], default=64)
    64
    """
    if _device_type(scorer) != "cuda" or not sentences or not isinstance(sentences[0], str):
        return default
    import torch

    longest = sorted(sentences, key=len, reverse=True)

    def fits(size: int) -> None:
        if isinstance(scorer, BatchedScorer):
            scorer.batch_size = size
        scorer.score(longest[:size])

    size = largest_batch(fits, AUTO_START, free=torch.cuda.empty_cache)
    if isinstance(scorer, BatchedScorer):
        scorer.batch_size = size
    return size
