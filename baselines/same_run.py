"""Every rank of a launch runs the same run: checked at start-up, before anything is scored.

Under ``torchrun`` or ``accelerate launch`` (:mod:`baselines.distributed`) each process, on
each node, parses its own command line and reads its own input files; the scores file merges
their shards. Two nodes given different options, a different model revision, a model that
packs differently there, or different files under the same name would merge into one file
that says one thing and holds another. So every rank describes its run as a plain dict
(:func:`run_spec`: the options, the scorer's metadata with its revision and packing, and a
digest of each dataset's ids and texts, :func:`units_digest`), the ranks exchange them, and a
difference stops every rank with one line naming the option or file and the ranks that differ
(:func:`check_same_run`, :func:`spec_difference`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any

from baselines.distributed import Launch

__all__ = ["LOCAL_OPTIONS", "check_same_run", "run_spec", "spec_difference", "units_digest"]

LOCAL_OPTIONS: frozenset[str] = frozenset({"command", "quiet", "threads", "out", "dataset"})
"""Options a rank may set for itself: how it reports and how many threads it uses, where its
shard file goes (``--out``; rank 0 writes the scores file), and the path of a table file
(``--dataset``: its ids and texts are compared instead, so a node may keep it elsewhere)."""


def units_digest(ids: Sequence[str], texts: Sequence[Any]) -> str:
    """The SHA-256 of a dataset's ids and texts, in order (a text is a sentence or a cloze
    unit's fields).

    Examples
    --------
    >>> a = units_digest(["s1", "s2"], ["Go.", "Run."])
    >>> a == units_digest(["s1", "s2"], ["Go.", "Run."]), a == units_digest(["s1", "s2"], ["Go.", "Ran."])
    (True, False)
    """
    text = json.dumps([list(ids), [t if isinstance(t, str) else list(t) for t in texts]])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def run_spec(
    options: Mapping[str, Any],
    scorer_metadata: Mapping[str, Any],
    datasets: Mapping[str, tuple[Sequence[str], Sequence[Any]]],
) -> dict[str, str]:
    """What must be the same on every rank, as ``{name: value}``: each option of ``options``
    (an ``argparse`` namespace's ``vars``, named ``--option``) but :data:`LOCAL_OPTIONS`; the
    scorer's metadata (model, revision, packing, precision, versions; named ``model's KEY``)
    but its device; and each dataset's ids and texts (``datasets`` maps a dataset, a benchmark
    or a file, to ``(ids, texts)``), by :func:`units_digest`, named ``the ids and texts of
    DATASET`` (a file by its name).

    Examples
    --------
    >>> spec = run_spec({"variant": "slor", "quiet": True}, {"packing": "trie", "device": "cuda"},
    ...                 {"data/toy.csv": (["a"], ["Go."])})
    >>> sorted(spec)
    ['--variant', "model's packing", 'the ids and texts of toy.csv']
    """
    spec = {
        f"--{name.replace('_', '-')}": json.dumps(value, sort_keys=True, default=str)
        for name, value in options.items()
        if name not in LOCAL_OPTIONS
    }
    for key, value in scorer_metadata.items():
        if key != "device":
            spec[f"model's {key}"] = json.dumps(value, sort_keys=True, default=str)
    for dataset, (
        ids,
        texts,
    ) in datasets.items():  # a file by its name: a node may keep it elsewhere
        spec[f"the ids and texts of {PurePath(dataset).name}"] = units_digest(ids, texts)
    return spec


def _ranks(ranks: Sequence[int]) -> str:
    return f"rank {ranks[0]}" if len(ranks) == 1 else "ranks " + ", ".join(map(str, ranks))


def spec_difference(specs: Sequence[Mapping[str, str]]) -> str | None:
    """The first entry (by name) whose value is not the same in every rank's spec (``specs[r]``
    is rank ``r``'s), as one line naming it and the ranks of each value; ``None`` when all
    agree. A digest is shown by its first 12 hex digits; any other value whole.

    Examples
    --------
    >>> spec_difference([{"--variant": '"logprob"'}, {"--variant": '"logprob"'}]) is None
    True
    >>> spec_difference([{"--variant": '"logprob"'}, {"--variant": '"slor"'},
    ...                  {"--variant": '"logprob"'}])
    '--variant is "logprob" on ranks 0, 2 but "slor" on rank 1'
    >>> spec_difference([{"--packing": '"rows"'}, {}])
    '--packing is "rows" on rank 0 but not given on rank 1'
    >>> spec_difference([{"the ids and texts of a.csv": "0123456789abcdef"},
    ...                  {"the ids and texts of a.csv": "fedcba9876543210"}])
    'the ids and texts of a.csv differ: sha256 0123456789ab… on rank 0 but sha256 fedcba987654… on rank 1'
    """
    names = sorted({name for spec in specs for name in spec})
    for name in names:
        values: dict[str | None, list[int]] = {}
        for rank, spec in enumerate(specs):
            values.setdefault(spec.get(name), []).append(rank)
        if len(values) == 1:
            continue
        data = name.startswith("the ids and texts of ")
        shown = []
        for value, ranks in values.items():
            text = value if value is None or not data else f"sha256 {value[:12]}…"
            shown.append(f"{'not given' if text is None else text} on {_ranks(ranks)}")
        return f"{name} {'differ:' if data else 'is'} " + " but ".join(shown)
    return None


def check_same_run(launch: Launch | None, spec: Mapping[str, str]) -> None:
    """Exchange this rank's ``spec`` (:func:`run_spec`) with every other rank of ``launch``
    and raise the same ``ValueError`` on every rank when they differ (nothing for a
    one-process run). ``torch.distributed`` must be initialised."""
    if launch is None:
        return
    import torch.distributed as dist

    specs: list[Any] = [None] * launch.world_size
    dist.all_gather_object(specs, dict(spec))
    difference = spec_difference(specs)
    if difference is not None:
        raise ValueError(
            f"the processes of this launch were not given the same run: {difference}; "
            "give every node the same options, model and input files"
        )
