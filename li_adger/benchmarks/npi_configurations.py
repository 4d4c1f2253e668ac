"""The NPI paper's five training-evaluation configurations (Warstadt et al. 2019, §5), as data.

A configuration says which environments a classifier is trained on and which it is evaluated
on. Training runs are *units*, each named by a key:

============== =========================== =============================================
configuration  units (key: trained on)      the result for environment E
============== =========================== =============================================
``cola``       ``cola``: CoLA               ``cola`` on E
``1npi``       ``only-F``: F, for each F    ``only-E`` on E
``avg-other``  ``only-F`` (the same units)  mean over F ≠ E of ``only-F`` on E
``all-but-1``  ``without-E``: all but E     ``without-E`` on E
``all``        ``all``: all 9               ``all`` on E
============== =========================== =============================================

Unit keys name run folders relative to all nine environments; the metric matches units by
their training environments (:func:`evaluated_by`), so runs over fewer environments work too.
``1npi`` and ``avg-other`` share their units: a model trained on one environment is evaluated
on all nine. Every unit is also evaluated on the Wilcox sentences; a configuration's Wilcox
result is the mean over its units. Minimal pairs follow the same assignment: the pairs of E
are judged by the model(s) the configuration evaluates on E — all of them test sentences,
never seen in training (their sentences are all in ``test_full``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from li_adger.benchmarks.npi import ENVIRONMENTS

__all__ = [
    "CONFIGURATIONS",
    "TITLES",
    "Unit",
    "evaluated_by",
    "parse_configuration",
    "unit_key",
    "units",
]

CONFIGURATIONS: tuple[str, ...] = ("cola", "1npi", "avg-other", "all-but-1", "all")
TITLES: dict[str, str] = {
    "cola": "CoLA",
    "1npi": "1 NPI",
    "avg-other": "Avg Other NPI",
    "all-but-1": "All-but-1 NPI",
    "all": "All NPI",
}
"""Configuration → the paper's row title (Fig. 1)."""


@dataclass(frozen=True)
class Unit:
    """One training run: its key, the environments it trains on and those it is evaluated on."""

    key: str
    train: tuple[str, ...]
    evaluate: tuple[str, ...]

    @property
    def configuration(self) -> str:
        """The unit as a fine-tuning run's configuration: ``TRAIN>EVAL``, each side
        environments joined by ``+`` (``cola`` for CoLA).

        Examples
        --------
        >>> Unit("without-only", ("adverbs", "questions"), ("only",)).configuration
        'adverbs+questions>only'
        """
        return f"{'+'.join(self.train) or 'cola'}>{'+'.join(self.evaluate)}"


def _check(configuration: str, environments: Sequence[str]) -> tuple[str, ...]:
    if configuration not in CONFIGURATIONS:
        raise ValueError(
            f"configuration must be one of {list(CONFIGURATIONS)} (got {configuration!r})"
        )
    unknown = [e for e in environments if e not in ENVIRONMENTS]
    if unknown or not environments:
        raise ValueError(
            f"environments must be some of {list(ENVIRONMENTS)} (got {list(environments)})"
        )
    return tuple(e for e in ENVIRONMENTS if e in environments)


def units(configuration: str, environments: Sequence[str] = tuple(ENVIRONMENTS)) -> list[Unit]:
    """The training units of a configuration over these environments (default all nine).

    Examples
    --------
    >>> [u.key for u in units("all-but-1", ["only", "adverbs"])]
    ['without-adverbs', 'without-only']
    >>> units("all-but-1", ["only", "adverbs"])[0]
    Unit(key='without-adverbs', train=('only',), evaluate=('adverbs',))
    >>> units("1npi", ["only", "adverbs"]) == units("avg-other", ["only", "adverbs"])
    True
    >>> units("cola", ["only"])
    [Unit(key='cola', train=(), evaluate=('only',))]
    >>> units("all", ["nowhere"])
    Traceback (most recent call last):
    ...
    ValueError: environments must be some of [...] (got ['nowhere'])
    """
    envs = _check(configuration, environments)
    if configuration == "cola":
        return [Unit("cola", (), envs)]
    if configuration == "all":
        return [Unit("all", envs, envs)]
    if configuration == "all-but-1":
        if len(envs) < 2:
            raise ValueError(f"all-but-1 needs at least 2 environments (got {list(envs)})")
        return [Unit(f"without-{e}", tuple(f for f in envs if f != e), (e,)) for e in envs]
    return [Unit(f"only-{e}", (e,), envs) for e in envs]


def evaluated_by(
    configuration: str,
    environment: str,
    trains: Sequence[Sequence[str]],
    universe: Sequence[str] = tuple(ENVIRONMENTS),
) -> list[int]:
    """Positions in ``trains`` (each unit's training environments, empty for CoLA) of the units
    whose results on ``environment`` make the configuration's result there (averaged when
    several). ``universe`` is the set of environments the runs span (all-but-1 leaves one of
    them out; all trains on all of them).

    Examples
    --------
    >>> trains = [("only",), ("adverbs",), ("questions",), ("adverbs", "only", "questions"), ()]
    >>> u = ["adverbs", "only", "questions"]
    >>> evaluated_by("1npi", "only", trains, u), evaluated_by("avg-other", "only", trains, u)
    ([0], [1, 2])
    >>> evaluated_by("all", "only", trains, u), evaluated_by("all-but-1", "only", trains, u)
    ([3], [])
    >>> evaluated_by("cola", "only", trains, u)
    [4]
    """
    _check(configuration, [environment])
    rest = set(universe) - {environment}

    def chosen(train: set[str]) -> bool:
        if configuration == "cola":
            return not train
        if configuration == "1npi":
            return train == {environment}
        if configuration == "avg-other":
            return len(train) == 1 and environment not in train
        if configuration == "all-but-1":
            return bool(rest) and train == rest
        return train == set(universe)

    return [k for k, train in enumerate(trains) if chosen(set(train))]


def unit_key(train: Sequence[str]) -> str:
    """The key of a unit trained on these environments (relative to all nine).

    Examples
    --------
    >>> unit_key([]), unit_key(["only"]), unit_key(list(ENVIRONMENTS))
    ('cola', 'only-only', 'all')
    >>> unit_key([e for e in ENVIRONMENTS if e != "only"]), unit_key(["only", "adverbs"])
    ('without-only', 'adverbs+only')
    """
    envs = [e for e in ENVIRONMENTS if e in train]
    missing = [e for e in ENVIRONMENTS if e not in envs]
    if not envs:
        return "cola"
    if len(envs) == 1:
        return f"only-{envs[0]}"
    if not missing:
        return "all"
    if len(missing) == 1:
        return f"without-{missing[0]}"
    return "+".join(envs)


def parse_configuration(text: str) -> Unit:
    """A ``TRAIN>EVAL`` configuration (see :attr:`Unit.configuration`) as a :class:`Unit`.

    Examples
    --------
    >>> parse_configuration("only>only+adverbs")
    Unit(key='only-only', train=('only',), evaluate=('adverbs', 'only'))
    >>> parse_configuration("cola>questions").key
    'cola'
    >>> parse_configuration("only")
    Traceback (most recent call last):
    ...
    ValueError: an NPI configuration must be one of [...] or TRAIN>EVAL with environments joined by '+' (got 'only')
    """
    train_text, sep, eval_text = text.partition(">")
    if not sep or not eval_text:
        raise ValueError(
            f"an NPI configuration must be one of {list(CONFIGURATIONS)} or TRAIN>EVAL with "
            f"environments joined by '+' (got {text!r})"
        )
    train = () if train_text == "cola" else _check("all", train_text.split("+"))
    return Unit(unit_key(train), train, _check("all", eval_text.split("+")))
