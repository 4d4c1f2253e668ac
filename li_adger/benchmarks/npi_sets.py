"""The NPI paper's training, dev and test sentences (Warstadt et al. 2019, §4), with their features.

Three kinds of file, all tab-separated without a header, four columns: metadata, label, an
empty column, sentence. The metadata field holds every feature, e.g.
``experiment=NPI-env=adverbs-npi=any-crucial_item=always-licensor=0-scope=0-npi_present=1-paradigm=1412``.

- ``npi/probing/<environment>/scope/{train,dev,test_full}.tsv``: 10,000 / 1,000 / 1,000
  sentences per environment; the label column is the *scope* feature (checked against the
  metadata on every row). :func:`read_probing`.
- ``npi/combs/all_env/{dev,test_full}.tsv``: the 9,000 dev and 9,000 test sentences of all
  environments with their *acceptability* label (1 acceptable). :func:`read_all_env`.
- ``npi/wilcox_sentences.tsv``: Wilcox et al. (2019)'s 104 handcrafted sentences, acceptability
  label, and a ``distractor`` feature of their own (environment ``wilcox``). :func:`read_wilcox`.

**Acceptability.** A sentence is acceptable iff it holds no NPI, or its licensor is present
and the NPI is in the licensor's scope (:func:`acceptable`; §4, Table 2). The rule equals the
label of all 18,000 labelled dev and test sentences and of the 104 Wilcox sentences (tested
over the real files); the training sentences, which the pinned files label by scope only,
take their acceptability from it.

**Environments** are named as :data:`li_adger.benchmarks.npi.ENVIRONMENTS` names them (the
probing folders' names); the metadata spells two of them in the singular (``conditional``,
``quantifier``), which :data:`METADATA_NAMES` maps.

**Ids.** ``<environment>.<split>.<line>`` for the probing files (``split`` ``train``, ``dev`` or
``test``; ``line`` 1-based), ``all_env.<split>.<line>`` for the all-environment files and
``wilcox.<line>`` for the Wilcox sentences. A test sentence has the same text in the probing
and all-environment files (the two hold the same sentences in a different order), so a
result keyed by probing id can be joined to either.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from li_adger.benchmarks.npi import ENVIRONMENTS
from li_adger.benchmarks.tsv import SourceFormatError, read_tsv

__all__ = [
    "ALL_ENV_SPLITS",
    "FEATURES",
    "METADATA_NAMES",
    "SPLITS",
    "WILCOX_FILE",
    "NpiSentence",
    "acceptable",
    "all_env_file",
    "probing_file",
    "probing_files",
    "read_all_env",
    "read_probing",
    "read_wilcox",
]

SPLITS: dict[str, str] = {"train": "train", "dev": "dev", "test": "test_full"}
"""Split name in ids and options → the file's stem."""
ALL_ENV_SPLITS: tuple[str, ...] = ("dev", "test")
FEATURES: tuple[str, ...] = ("licensor", "npi_present", "scope")
"""The three Boolean features a probe predicts (§3, Feature Probing)."""
METADATA_NAMES: dict[str, str] = {"conditional": "conditionals", "quantifier": "quantifiers"}
"""Environment names the metadata spells differently from the benchmark → the benchmark's."""
WILCOX_FILE = "npi/wilcox_sentences.tsv"
_WILCOX_ENV = "negation"

_PAIR = re.compile(r"^[a-z_]+=[^=]*$")


def probing_file(environment: str, split: str) -> str:
    """The pinned path of one environment's probing split.

    Examples
    --------
    >>> probing_file("adverbs", "test")
    'npi/probing/adverbs/scope/test_full.tsv'
    >>> probing_file("adverb", "test")
    Traceback (most recent call last):
    ...
    ValueError: environment must be one of ['adverbs', 'conditionals', 'determiner_negation_biclausal', 'sentential_negation_biclausal', 'only', 'quantifiers', 'questions', 'simplequestions', 'superlative'] (got 'adverb')
    """
    if environment not in ENVIRONMENTS:
        raise ValueError(f"environment must be one of {list(ENVIRONMENTS)} (got {environment!r})")
    if split not in SPLITS:
        raise ValueError(f"split must be one of {list(SPLITS)} (got {split!r})")
    return f"npi/probing/{environment}/scope/{SPLITS[split]}.tsv"


def probing_files(
    environments: Sequence[str] = tuple(ENVIRONMENTS), splits: Sequence[str] = tuple(SPLITS)
) -> list[str]:
    """Pinned paths of the probing files of these environments and splits.

    Examples
    --------
    >>> len(probing_files())
    27
    """
    return [probing_file(e, s) for e in environments for s in splits]


def all_env_file(split: str) -> str:
    """The pinned path of the all-environment dev or test file.

    Examples
    --------
    >>> all_env_file("test")
    'npi/combs/all_env/test_full.tsv'
    """
    if split not in ALL_ENV_SPLITS:
        raise ValueError(f"split must be one of {list(ALL_ENV_SPLITS)} (got {split!r})")
    return f"npi/combs/all_env/{SPLITS[split]}.tsv"


def acceptable(npi_present: int, licensor: int, scope: int) -> int:
    """Acceptability from the three features: 1 iff no NPI, or a licensor with the NPI in scope.

    Examples
    --------
    >>> [acceptable(n, l, s) for n in (0, 1) for l in (0, 1) for s in (0, 1)]
    [1, 1, 1, 1, 0, 0, 0, 1]
    >>> acceptable(1, 2, 1)
    Traceback (most recent call last):
    ...
    ValueError: licensor must be 0 or 1 (got 2)
    """
    for name, value in (("npi_present", npi_present), ("licensor", licensor), ("scope", scope)):
        if value not in (0, 1):
            raise ValueError(f"{name} must be 0 or 1 (got {value!r})")
    return int(npi_present == 0 or (licensor == 1 and scope == 1))


@dataclass(frozen=True)
class NpiSentence:
    """One sentence with every feature its metadata holds.

    ``label`` is the file's own label column (the scope feature in a probing file,
    acceptability elsewhere); ``acceptable`` is :func:`acceptable` of the features, checked
    equal to ``label`` where the file labels acceptability. ``crucial_item`` is empty in the
    Wilcox file, which has ``distractor`` instead (-1 elsewhere).
    """

    id: str
    environment: str
    sentence: str
    npi: str
    crucial_item: str
    licensor: int
    npi_present: int
    scope: int
    paradigm: str
    label: int
    acceptable: int
    distractor: int = -1

    def feature(self, name: str) -> int:
        """The value of one of :data:`FEATURES`.

        Examples
        --------
        >>> s = NpiSentence("x", "only", "S.", "any", "only", 1, 0, 1, "3", 1, 1)
        >>> s.feature("scope")
        1
        """
        if name not in FEATURES:
            raise ValueError(f"feature must be one of {list(FEATURES)} (got {name!r})")
        return int(getattr(self, name))


def _parse_metadata(text: str, where: str) -> dict[str, str]:
    """``experiment=NPI-env=…-npi=…-…`` → ``{"env": …, "npi": …, …}`` (keys checked by the caller).

    Examples
    --------
    >>> _parse_metadata("experiment=NPI-env=only-npi=any-licensor=1-paradigm=7", "f:1")["env"]
    'only'
    """
    if not text.startswith("experiment=NPI-"):
        raise SourceFormatError(
            f"{where}: field 'metadata' must start with 'experiment=NPI-' (got {text[:60]!r})"
        )
    fields: dict[str, str] = {}
    for part in text.removeprefix("experiment=NPI-").split("-"):
        if not _PAIR.match(part):
            raise SourceFormatError(
                f"{where}: field 'metadata' has {part!r}, expected name=value (in {text[:120]!r})"
            )
        name, value = part.split("=")
        fields[name] = value
    return fields


def _bit(fields: Mapping[str, str], name: str, where: str) -> int:
    value = fields.get(name)
    if value not in ("0", "1"):
        raise SourceFormatError(
            f"{where}: field {name!r} of the metadata must be 0 or 1 (got {value!r})"
        )
    return int(value)


def _read(
    path: Path, id_prefix: str, *, label_is: str, environment: str | None
) -> list[NpiSentence]:
    """One file's rows; ``label_is`` ``scope`` or ``acceptable``: what the label column must equal."""
    out = []
    for number, (metadata, label, empty, sentence) in read_tsv(path, 4):
        where = f"{path}:{number}"
        fields = _parse_metadata(metadata, where)
        raw_env = fields.get("env", "")
        env = (
            "wilcox"
            if raw_env == _WILCOX_ENV and environment == "wilcox"
            else METADATA_NAMES.get(raw_env, raw_env)
        )
        if environment is not None and env != environment:
            raise SourceFormatError(
                f"{where}: field 'env' must be {environment!r} here (got {raw_env!r})"
            )
        if environment is None and env not in ENVIRONMENTS:
            raise SourceFormatError(
                f"{where}: field 'env' is not one of {list(ENVIRONMENTS)} (got {raw_env!r})"
            )
        if label not in ("0", "1"):
            raise SourceFormatError(f"{where}: field 'label' must be 0 or 1 (got {label!r})")
        if empty != "" or not sentence.strip():
            raise SourceFormatError(
                f"{where}: expected an empty third field and a sentence (got {empty!r}, {sentence!r:.60})"
            )
        if "paradigm" not in fields or "npi" not in fields:
            raise SourceFormatError(
                f"{where}: the metadata lacks 'npi' or 'paradigm' ({metadata[:120]!r})"
            )
        licensor, npi_present, scope = (
            _bit(fields, n, where) for n in ("licensor", "npi_present", "scope")
        )
        row = NpiSentence(
            id=f"{id_prefix}.{number}",
            environment=env,
            sentence=sentence,
            npi=fields["npi"],
            crucial_item=fields.get("crucial_item", ""),
            licensor=licensor,
            npi_present=npi_present,
            scope=scope,
            paradigm=fields["paradigm"],
            label=int(label),
            acceptable=acceptable(npi_present, licensor, scope),
            distractor=_bit(fields, "distractor", where) if "distractor" in fields else -1,
        )
        expected = row.scope if label_is == "scope" else row.acceptable
        if row.label != expected:
            raise SourceFormatError(
                f"{where}: field 'label' is {row.label} but the metadata's {label_is} is {expected}"
            )
        out.append(row)
    return out


def read_probing(paths: Mapping[str, Path], environment: str, split: str) -> list[NpiSentence]:
    """One environment's probing split (label = scope), ids ``<environment>.<split>.<line>``.

    ``paths`` maps pinned paths to files (:func:`li_adger.sources.find_sources`).

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> rows = read_probing(find_sources([probing_file("only", "dev")]), "only", "dev")
    >>> len(rows), rows[0].id, rows[0].environment, sum(r.acceptable for r in rows)
    (1000, 'only.dev.1', 'only', 625)
    """
    path = Path(paths[probing_file(environment, split)])
    return _read(path, f"{environment}.{split}", label_is="scope", environment=environment)


def read_all_env(paths: Mapping[str, Path], split: str) -> list[NpiSentence]:
    """The all-environment dev or test file (label = acceptability), ids ``all_env.<split>.<line>``.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> rows = read_all_env(find_sources([all_env_file("dev")]), "dev")
    >>> len(rows), len({r.environment for r in rows})
    (9000, 9)
    """
    return _read(
        Path(paths[all_env_file(split)]),
        f"all_env.{split}",
        label_is="acceptable",
        environment=None,
    )


def read_wilcox(paths: Mapping[str, Path]) -> list[NpiSentence]:
    """Wilcox et al. (2019)'s 104 sentences (label = acceptability), ids ``wilcox.<line>``.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> rows = read_wilcox(find_sources([WILCOX_FILE]))
    >>> len(rows), rows[0].environment, sum(r.acceptable for r in rows), rows[2].distractor
    (104, 'wilcox', 52, 1)
    """
    return _read(Path(paths[WILCOX_FILE]), "wilcox", label_is="acceptable", environment="wilcox")
