"""The benchmark family: LI-Adger, BLiMP, NPI licensing, Ettinger's diagnostics and CoLA.

:data:`BENCHMARKS` is the one list of benchmarks, each described once by a
:class:`~li_adger.benchmarks.spec.Benchmark`. :func:`load_items` verifies a benchmark's pinned
files through :mod:`li_adger.sources` (lookup order: ``source``, ``$LI_ADGER_SOURCE``,
``../shared/data``, the user cache, the pinned upstream URL) and reads them into
:class:`~li_adger.benchmarks.spec.Items`; :func:`load_references` reads the reference rows a
benchmark's own data holds. See ``docs/family.md`` for how each benchmark's rows become items.

Examples
--------
>>> from li_adger.benchmarks import BENCHMARKS, load_items
>>> list(BENCHMARKS)
['li_adger', 'blimp', 'npi', 'diagnostics', 'cola']
>>> items = load_items("npi")
>>> items.form, len(items.comparisons)
('pairs', 5500)
"""

from __future__ import annotations

import os

import pandas as pd

from li_adger.benchmarks import blimp, cola, diagnostics, liadger, npi
from li_adger.benchmarks.spec import Benchmark, Citation, Headline, Items, ItemsError
from li_adger.sources import find_sources

__all__ = [
    "BENCHMARKS",
    "Benchmark",
    "Citation",
    "Headline",
    "Items",
    "ItemsError",
    "benchmark",
    "load_items",
    "load_references",
]

_LI_ADGER_BIBTEX = r"""@mastersthesis{vazquezmartinez2021adc,
  author = {V{\'a}zquez Mart{\'i}nez, H{\'e}ctor Javier},
  title  = {The Acceptability Delta Criterion: Testing Knowledge of Language using the Gradience of Sentence Acceptability},
  school = {Massachusetts Institute of Technology},
  type   = {{MEng} thesis},
  year   = {2021}
}
@article{sprouse2013comparison,
  author  = {Sprouse, Jon and Sch{\"u}tze, Carson T. and Almeida, Diogo},
  title   = {A comparison of informal and formal acceptability judgments using a random sample from {Linguistic Inquiry} 2001--2010},
  journal = {Lingua},
  volume  = {134},
  pages   = {219--248},
  year    = {2013}
}
@article{sprouse2012assessing,
  author  = {Sprouse, Jon and Almeida, Diogo},
  title   = {Assessing the reliability of textbook data in syntax: {Adger's} {Core Syntax}},
  journal = {Journal of Linguistics},
  volume  = {48},
  number  = {3},
  pages   = {609--652},
  year    = {2012}
}"""

_BLIMP_BIBTEX = r"""@article{warstadt2020blimp,
  author  = {Warstadt, Alex and Parrish, Alicia and Liu, Haokun and Mohananey, Anhad and Peng, Wei and Wang, Sheng-Fu and Bowman, Samuel R.},
  title   = {{BLiMP}: The Benchmark of Linguistic Minimal Pairs for {English}},
  journal = {Transactions of the Association for Computational Linguistics},
  volume  = {8},
  pages   = {377--392},
  year    = {2020},
  doi     = {10.1162/tacl_a_00321}
}"""

_NPI_BIBTEX = r"""@inproceedings{warstadt2019npi,
  author    = {Warstadt, Alex and Cao, Yu and Grosu, Ioana and Peng, Wei and Blix, Hagen and Nie, Yining and Alsop, Anna and Bordia, Shikha and Liu, Haokun and Parrish, Alicia and Wang, Sheng-Fu and Phang, Jason and Mohananey, Anhad and Htut, Phu Mon and Jereti{\v{c}}, Paloma and Bowman, Samuel R.},
  title     = {Investigating {BERT}'s Knowledge of Language: Five Analysis Methods with {NPIs}},
  booktitle = {Proceedings of the 2019 Conference on Empirical Methods in Natural Language Processing and the 9th International Joint Conference on Natural Language Processing (EMNLP-IJCNLP)},
  pages     = {2877--2887},
  year      = {2019},
  doi       = {10.18653/v1/D19-1286}
}"""

_DIAGNOSTICS_BIBTEX = r"""@article{ettinger2020bert,
  author  = {Ettinger, Allyson},
  title   = {What {BERT} Is Not: Lessons from a New Suite of Psycholinguistic Diagnostics for Language Models},
  journal = {Transactions of the Association for Computational Linguistics},
  volume  = {8},
  pages   = {34--48},
  year    = {2020},
  doi     = {10.1162/tacl_a_00298}
}"""

_COLA_BIBTEX = r"""@article{warstadt2019cola,
  author  = {Warstadt, Alex and Singh, Amanpreet and Bowman, Samuel R.},
  title   = {Neural Network Acceptability Judgments},
  journal = {Transactions of the Association for Computational Linguistics},
  volume  = {7},
  pages   = {625--641},
  year    = {2019},
  doi     = {10.1162/tacl_a_00290}
}"""

BENCHMARKS: dict[str, Benchmark] = {
    b.name: b
    for b in (
        Benchmark(
            name="li_adger",
            title="LI-Adger: minimal pairs with graded human acceptability judgements",
            citation=Citation(
                "Vázquez Martínez (2021); Sprouse, Schütze & Almeida (2013); "
                "Sprouse & Almeida (2012)",
                _LI_ADGER_BIBTEX,
            ),
            license="no licence stated upstream (see li_adger/README.md)",
            files=liadger.FILES,
            form="pairs",
            read=liadger.read,
            groups=liadger.GROUPS,
            headline=Headline(
                "blimp", None, "BLiMP criterion pooled over the 2,365 evaluable pairs"
            ),
            metrics=("adc", "blimp", "mcc"),
            references=("thesis",),
        ),
        Benchmark(
            name="blimp",
            title="BLiMP: The Benchmark of Linguistic Minimal Pairs for English",
            citation=Citation("Warstadt et al. (2020)", _BLIMP_BIBTEX),
            license="CC BY 4.0",
            files=blimp.PARADIGM_FILES,
            form="pairs",
            read=blimp.read,
            groups=blimp.GROUPS,
            headline=Headline(
                "blimp",
                "UID",
                "BLiMP criterion, mean over the 67 paradigms (= pooled over the 67,000 pairs, "
                "1,000 per paradigm), as Warstadt et al. (2020) report it (Table 3)",
            ),
            metrics=("blimp",),
            references=("blimp-human", "blimp-models"),
            reference_files=(*blimp.PARADIGM_FILES, blimp.HUMAN_FILE, blimp.MODELS_FILE),
            read_references=blimp.read_references,
        ),
        Benchmark(
            name="npi",
            title="NPI licensing minimal pairs",
            citation=Citation("Warstadt et al. (2019)", _NPI_BIBTEX),
            license="no licence file upstream",
            files=(npi.FILE,),
            form="pairs",
            read=npi.read,
            groups=npi.GROUPS,
            headline=Headline(
                "blimp",
                None,
                "share of the 5,500 pairs whose acceptable member scores higher (pooled), "
                "as the paper's minimal-pair tests count pairs",
            ),
            metrics=("blimp",),
        ),
        Benchmark(
            name="diagnostics",
            title="Psycholinguistic diagnostics: CPRAG-102, ROLE-88, NEG-136-SIMP, NEG-136-NAT",
            citation=Citation("Ettinger (2020)", _DIAGNOSTICS_BIBTEX),
            license="MIT",
            files=tuple(diagnostics.FILES.values()),
            form="cloze",
            read=diagnostics.read,
            groups=diagnostics.GROUPS,
            headline=Headline(
                "sensitivity",
                "set",
                "Ettinger's sensitivity (good completion more probable than bad), mean over "
                "the four sets; it needs only log-probabilities, so every language model "
                "has it (the paper reports each set separately)",
            ),
            metrics=("accuracy_at_k", "sensitivity"),
        ),
        Benchmark(
            name="cola",
            title="CoLA: the Corpus of Linguistic Acceptability (development sets)",
            citation=Citation("Warstadt, Singh & Bowman (2019)", _COLA_BIBTEX),
            license="no licence stated upstream (examples from published linguistics literature)",
            files=tuple(cola.FILES.values()),
            form="labelled",
            read=cola.read,
            groups=("split",),
            headline=Headline(
                "mcc",
                None,
                "MCC over both development sets together (1,043 sentences, GLUE's CoLA "
                "validation set)",
            ),
            metrics=("mcc",),
        ),
    )
}
"""The one list of benchmarks: name → description."""


def benchmark(name: str) -> Benchmark:
    """The description of a benchmark by name.

    Examples
    --------
    >>> benchmark("blimp").groups
    ('UID', 'linguistics_term', 'field')
    >>> benchmark("glue")
    Traceback (most recent call last):
    KeyError: "unknown benchmark 'glue'; expected one of ['li_adger', 'blimp', 'npi', 'diagnostics', 'cola']"
    """
    try:
        return BENCHMARKS[name]
    except KeyError:
        raise KeyError(f"unknown benchmark {name!r}; expected one of {list(BENCHMARKS)}") from None


def _check_groups(spec: Benchmark, items: Items) -> Items:
    part = items.labels if spec.form == "labelled" else items.comparisons
    missing = [g for g in spec.groups if g not in part.columns]
    if missing:
        raise ItemsError(f"{spec.name}: the reader's items lack the group column(s) {missing}")
    return items


def load_items(name: str, *, source: str | os.PathLike | None = None) -> Items:
    """A benchmark's items, read from its verified source files.

    Raises
    ------
    li_adger.sources.SourceNotFoundError
        A file is in none of the places searched and could not be downloaded.
    li_adger.sources.ChecksumError
        A file differs from the pinned one.

    Examples
    --------
    >>> items = load_items("diagnostics")
    >>> items.form, len(items.units), sorted(items.comparisons["set"].unique())
    ('cloze', 395, ['CPRAG-102', 'NEG-136-NAT', 'NEG-136-SIMP', 'ROLE-88'])
    """
    spec = benchmark(name)
    return _check_groups(spec, spec.read(find_sources(spec.files, source=source)))


def load_references(
    name: str, *, source: str | os.PathLike | None = None
) -> dict[str, pd.DataFrame]:
    """The reference rows a benchmark's own data holds, as tidy frames keyed by reference name
    (empty when it holds none; LI-Adger's thesis models come from :mod:`metric_adc.thesis.outputs`).

    Examples
    --------
    >>> sorted(load_references("blimp"))
    ['blimp-human', 'blimp-models']
    >>> load_references("npi")
    {}
    """
    spec = benchmark(name)
    if spec.read_references is None:
        return {}
    return spec.read_references(find_sources(spec.reference_files, source=source))
