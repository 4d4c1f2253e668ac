"""The pinned source files of LI-Adger: where to find them, how to fetch them, how to check them.

Every file is an exact copy of a file in a public GitHub repository at a fixed commit and is
checked against its SHA-256 before use. A file is looked up, in this order, in

1. an explicit source folder: the ``source`` argument (``--source DIR``), else the
   environment variable ``LI_ADGER_SOURCE``; when one is given, only it is searched;
2. ``shared/data/`` beside the checkout (``<checkout>/../shared/data``), then
   ``../shared/data`` seen from the working directory;
3. the user cache (``$LI_ADGER_CACHE/sources``, default ``~/.cache/li_adger/sources``);
4. the pinned upstream URL (or a mirror given by ``upstream_base`` /
   ``LI_ADGER_UPSTREAM_BASE`` with the same layout), downloaded into the user cache.

A source folder has the layout of ``shared/data``: ``li-adger/<file>``,
``sprouse2013/<file>``, ``thesis-outputs/<file>`` (the thesis's model scores, read by
:mod:`metric_adc.thesis.outputs`), ``cola/<file>`` (CoLA: the classifier of ``baselines`` and the
``cola`` benchmark) and the other benchmarks of :mod:`li_adger.benchmarks`: ``blimp/<file>``,
``npi/<file>`` and ``lm-diagnostics/<set>/<file>``.
"""

from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from li_adger.io.atomic import atomic_write_bytes

__all__ = [
    "BLIMP_PARADIGMS",
    "BUILD_FILES",
    "SOURCE_FILES",
    "THESIS_OUTPUT_FILES",
    "ChecksumError",
    "SourceFile",
    "SourceNotFoundError",
    "cache_dir",
    "cache_root",
    "check_file",
    "default_search_dirs",
    "find_sources",
    "sha256_file",
    "source_file",
    "upstream_url",
]

_THESIS_REPO = "hjvm/acceptability_delta_criterion"
_THESIS_COMMIT = "ea4f26fe49181e7b0eff6d14184f12fe13e71ceb"
_SPROUSE_REPO = "jmerch/slor-acceptability-satiation"
_SPROUSE_COMMIT = "582930600bac401ee721c6f45597f0c720009988"
_SPROUSE_DIR = "acceptability_modeling/data/Sprouse2013"
_COLA_REPO = "nyu-mll/CoLA-baselines"
_COLA_COMMIT = "dd095d3646ed05a315280aaa8ed4ec84ba435b3e"
_COLA_DIR = "acceptability_corpus/cola_public/raw"
_BLIMP_REPO = "alexwarstadt/blimp"
_BLIMP_COMMIT = "3e56b06fcabca9b30822fc66435fca6b1aa40bb1"
_DIAGNOSTICS_REPO = "aetting/lm-diagnostics"
_DIAGNOSTICS_COMMIT = "080de8d8b29a3d6f5fe133af73d7e9170f4d4c0c"
_NPI_REPO = "alexwarstadt/data_generation"  # branch npi
_NPI_COMMIT = "0fbddc5532f72575484c90d915b885d892eded4b"

#: BLiMP's 67 paradigms (file ``data/<UID>.jsonl`` upstream) → SHA-256 of the file.
BLIMP_PARADIGMS: dict[str, str] = {
    "adjunct_island": "ecc71c452516de03deeb9262b4203e45220dc52727327a08eef07c79c01eac8b",
    "anaphor_gender_agreement": "fd7d6e47196fa1310a251d3aa88ae9a62bb64d3cec35fc02617229d5799767e1",
    "anaphor_number_agreement": "05c16b8bfe4feb5b3552dc2c53d1742ce0c91d9a1c896684335bdddd4373cc9b",
    "animate_subject_passive": "245e91961cf597150244c3945c6d0033e691b27ba6cf298c62920d355426e70c",
    "animate_subject_trans": "a7bffeda200f648c33dd215d91d8f5756fcd1e3f410bab467f1ed9235f215850",
    "causative": "2e1006cc24094a3049586888105b22181d77e09e11dea65a326b49977bb366f1",
    "complex_NP_island": "1c92472731dd9a21eb222d64bee756042a3763c3797b5283d5b84ab8e3cbb74c",
    "coordinate_structure_constraint_complex_left_branch": "47e0e04efeb320449a8eb2ac722b895041a8609580fec2880dbc719f50fba194",
    "coordinate_structure_constraint_object_extraction": "d01c27a7a893f3ec071a7913efa504d297671d86a987f26ddb565de914db2fd7",
    "determiner_noun_agreement_1": "f48065fd760d0fd1a895012860d38bdf3c2ac115cd221e521684cc430c0f1855",
    "determiner_noun_agreement_2": "8ae7eff7c7bd384ff5ef3113984834f4d78b34559203aa9d5cb14ea8394291a9",
    "determiner_noun_agreement_irregular_1": "4f350e88db9e29e53ae96f1f0b5991c7809fd4fd403190907330b721e1e6e264",
    "determiner_noun_agreement_irregular_2": "d688af0ccd0614d24a936e0929276784f37554f3ad3e247c3bade8dcaa9099df",
    "determiner_noun_agreement_with_adj_2": "8d2828d7dfbfc3f7191024514060fedb033ea2e232304f63448c33051a85d2b3",
    "determiner_noun_agreement_with_adj_irregular_1": "1f4c6e42a48f4220afec629679641479feac3883cd7fa346d9e9e129cd7e8f55",
    "determiner_noun_agreement_with_adj_irregular_2": "aa3f297a7ce0c03b5fc00458834f89e54eb855973be098497f766a390b4bc669",
    "determiner_noun_agreement_with_adjective_1": "2c3de4e7b7aea499fb7cf1b23b9c3b63662289880f991b9ffabe5ceb94cf7430",
    "distractor_agreement_relational_noun": "37c1553f4c6594b162256edce0f6b40bad1898b311c8aaa69605b526b6494a34",
    "distractor_agreement_relative_clause": "854728b6db8f23f12583f7332b654835351eaedb50783e6f2a3bf6c101b8c422",
    "drop_argument": "e262339a262a57a8f56dc41941ee1dc32c62eb97054b27d33cd8c356a6e62064",
    "ellipsis_n_bar_1": "3cc0bcf91631a4476ce573ea9dbf9627d52efbe071c26019e2c2448b68769d09",
    "ellipsis_n_bar_2": "3dfc2b378ea4867186917ec9cce5ce927e4d3bb6addf018bc31b870dd2aa8474",
    "existential_there_object_raising": "3781bfd54ec1208fc634f4d365189f948ec246526a7345b5148dd3ab6023ff4f",
    "existential_there_quantifiers_1": "4bd0f6dee3c1824b51b0dafb9fce2b00933e8053fcd4a7b99b6202e1b8b49f9e",
    "existential_there_quantifiers_2": "b1a80f4ebebae90a90927259f95b680059020e6bb4e38e64a41eb8e53bc3f617",
    "existential_there_subject_raising": "7c6f5b13225f73a777755c1948beef5cfa31d135ae8a0e7ba8853d256fbece23",
    "expletive_it_object_raising": "15ed3a52c978ecfe5eda7f64b0304b5bd133439cccb2c97fde20834f39874c93",
    "inchoative": "d9389a7130ca84c6f920c9d892cc60c1b20f378d28e7041b1c53ae589fc84f1d",
    "intransitive": "9af9f3f30c891cd21623922b62fd97685552b4ae94a6cfd5617a5f0cb0f731b3",
    "irregular_past_participle_adjectives": "5e490be0723989499391ac14d11b3bb6677f4b470514486b2db3fbfe76d56b3c",
    "irregular_past_participle_verbs": "75a990117c1a403d3b479e0fbe170f6919c2408def738ffcea8c62b49b70a555",
    "irregular_plural_subject_verb_agreement_1": "0066174143671bffa54232d89254d14221afab666273edfefdfb625fbb75e226",
    "irregular_plural_subject_verb_agreement_2": "9b22db814e7b7251f4abafe8beb9616f2f46eaa58f7cdb701cbc737cc8f1a124",
    "left_branch_island_echo_question": "7dadbe3c5a5ceadb78b9408807ac88230ddd748abfe8de8121f064e2bce94ad8",
    "left_branch_island_simple_question": "e2a64b8a1b7b8d94f931018cf9325836e9c79953a01379233da255eac5e8cd71",
    "matrix_question_npi_licensor_present": "657c9d6e6d50a9cd651881fcbc57cef2fd998611f6f53158ed05e48822fcd2b5",
    "npi_present_1": "9aa85dc5c2b0d85ea51f21db50d6d327ab5b45d1669e386d54b1360d3ac954af",
    "npi_present_2": "52fcfa230a40ae27998273cc08ecd062aad17025c92389df3404a85ed519909b",
    "only_npi_licensor_present": "475c6595187a32e4dcfb868d3db90394e89669a94a9312ebd60f88dad1665f1c",
    "only_npi_scope": "ca1f0671643e37936515f02125036bc2904ab9b35c4689b0e7a3ea3914e571f6",
    "passive_1": "e9374307bca5c24e9df18597a0859f7fb5ca4cfe5f136ec894d1ba69f4c90116",
    "passive_2": "4d49e438185bed4122a252dd9ee69bc8eccb2fe6c1b09ccc78198fd925fed8c5",
    "principle_A_c_command": "74c8111666542c797dee1c38c9e432b0b65751dfa0faa51874a990f2cbfc76fc",
    "principle_A_case_1": "7efb5246fe315dc2cf56b80739783cffcddee9e52650716cf5aa0f6987f7644d",
    "principle_A_case_2": "5de6db4c21a8433bc1f1030e81d5ee151efce02078460f7de7ca5e9566afd914",
    "principle_A_domain_1": "2276dc35a51396c7d11a401e378e0f4b31cd10d7916c73e9a361703cb96eddc5",
    "principle_A_domain_2": "9d14e5ae911fb8ddf571484ef2d6a6e6a053765c1c6d34253aec2c11f7d7306a",
    "principle_A_domain_3": "a0d66b9d8541ab1df08f629161c6c4e8bca3aa2693eaa342edd2097e6b579bdd",
    "principle_A_reconstruction": "65dc403c4d6e9a609f2c4cc2ec6c8baa05cf6fce89b920a816b0d9932204b2a3",
    "regular_plural_subject_verb_agreement_1": "1a18d94062c8e792c0a200a3b00dff0e051a92bb084c05e9b5e5c73bee32a620",
    "regular_plural_subject_verb_agreement_2": "e5b4668811e63b00ac4c9569cb9553281a39c21df43256905ad78e59ae24942c",
    "sentential_negation_npi_licensor_present": "c43405aca13ba4aa6ad87f9b051e4ba5fc458f24e683cfe0af23e6e09ec7268b",
    "sentential_negation_npi_scope": "6c341ccc39c94bea45c0412986751bf2f6eca48626728e30e23d2b6a22c8b949",
    "sentential_subject_island": "a286b67cc5912aafeb06750b38923abf3338786ffa4309e0a6a07b1dbe2444bd",
    "superlative_quantifiers_1": "bebc5c5ff28cf226cc35293c60cde1fcf7565a7b58cb219d01ac8908b952a497",
    "superlative_quantifiers_2": "4bef08f3e6bd3fbb46021dda34000f3c00222c5576babe4882a8541f6820a106",
    "tough_vs_raising_1": "8eb3a1ecbdbd969c5b77e2f85b12a39d33723bdc58d673e5067bb456da91d0e5",
    "tough_vs_raising_2": "a6db2f24a8aee0c90a9be63e6bb6787fe04e990c518761115f69f27c7438b5ae",
    "transitive": "48de2025571897c7590659c793d2d1ce85c247808d4199bad60f66cf2eb179ef",
    "wh_island": "77824ca8c0008fb7a204e785ca2dcee1b2803f666bb545bd95cb8a51e04f1a4c",
    "wh_questions_object_gap": "685c74eb8c199f30a24bba1bfabf9d9dff7962a64430e62b9b5f61d5369241ff",
    "wh_questions_subject_gap": "3c33e4efc7182824211ff3288694cf010f4ce84f85c8df67410d784139c722b3",
    "wh_questions_subject_gap_long_distance": "985bae202dbc5566b9b5c51bd77dd9d1dbcd87e0f38e008c34a11d7aa07db788",
    "wh_vs_that_no_gap": "6a25d0d1499e9f522696a62ce9dba8c49f58c5446fddc6d852bf562d1016163c",
    "wh_vs_that_no_gap_long_distance": "968faf59602a67f9cfd7c2e91a314a3f7342fd5daf41c21cadd25288fc85fdcf",
    "wh_vs_that_with_gap": "56f1ca988a8ca368234f12359792c414fdfec2891154e3f8ce6404da1d3f3212",
    "wh_vs_that_with_gap_long_distance": "3cb19100d6384264e512801e96c20e172a3c0c7778276b80ed60c65e97b86ab5",
}


@dataclass(frozen=True)
class SourceFile:
    """One pinned source file."""

    path: str  # relative path inside a source folder, e.g. "li-adger/li-adger_min_pairs.csv"
    sha256: str
    repo: str
    commit: str
    upstream_path: str

    @property
    def url(self) -> str:
        """The pinned upstream raw URL.

        Examples
        --------
        >>> SOURCE_FILES["sprouse2013/LI.conditions.csv"].url  # doctest: +ELLIPSIS
        'https://raw.githubusercontent.com/jmerch/slor-acceptability-satiation/5829.../Sprouse2013/LI.conditions.csv'
        """
        return f"https://raw.githubusercontent.com/{self.repo}/{self.commit}/{self.upstream_path}"


def _thesis(name: str, sha256: str) -> SourceFile:
    return SourceFile(f"li-adger/{name}", sha256, _THESIS_REPO, _THESIS_COMMIT, f"data/{name}")


def _thesis_output(name: str, sha256: str) -> SourceFile:
    return SourceFile(
        f"thesis-outputs/{name}", sha256, _THESIS_REPO, _THESIS_COMMIT, f"output/{name}"
    )


def _sprouse(name: str, sha256: str) -> SourceFile:
    return SourceFile(
        f"sprouse2013/{name}", sha256, _SPROUSE_REPO, _SPROUSE_COMMIT, f"{_SPROUSE_DIR}/{name}"
    )


def _cola(name: str, sha256: str) -> SourceFile:
    return SourceFile(f"cola/{name}", sha256, _COLA_REPO, _COLA_COMMIT, f"{_COLA_DIR}/{name}")


def _blimp(name: str, sha256: str, folder: str = "data") -> SourceFile:
    return SourceFile(f"blimp/{name}", sha256, _BLIMP_REPO, _BLIMP_COMMIT, f"{folder}/{name}")


def _diagnostics(name: str, sha256: str) -> SourceFile:
    return SourceFile(
        f"lm-diagnostics/{name}", sha256, _DIAGNOSTICS_REPO, _DIAGNOSTICS_COMMIT, f"datasets/{name}"
    )


def _npi(name: str, sha256: str) -> SourceFile:
    return SourceFile(
        f"npi/{name}", sha256, _NPI_REPO, _NPI_COMMIT, f"outputs/npi/environments/{name}"
    )


#: Every pinned file the project reads, by relative path.
SOURCE_FILES: dict[str, SourceFile] = {
    f.path: f
    for f in (
        _thesis(
            "human_ME_results_li-adger_sentences.csv",
            "4806f7163550ff18482eab6d07768e9b4f7736e3ebe707b6995bbd6be057e34d",
        ),
        _thesis(
            "li-adger_sentences.csv",
            "137648d91debed7e452456376dcb2688d08edced08d070443cb72fab49ecb30e",
        ),
        _thesis(
            "li-adger_min_pairs.csv",
            "4e13a4ded06ac23d5041f8bd04af4ad273f2784fe624857ff5f7b235c4f5cb1b",
        ),
        _thesis_output(
            "li-adger_min_pairs_all_models.csv",
            "66e0dc36ce93617dba973e584454160988576239cd875af9df7a173810da2b4d",
        ),
        _thesis_output(
            "bert_mlm_results_li-adger_sentences.csv",
            "fe80bcd4b53427891a970d5f53f56e6b1d8a5fe91871d82da2a0e5285a61af74",
        ),
        _thesis_output(
            "bert_acc_results_li-adger_sentences.csv",
            "5e392e1ea7e33a1a958c1e61e9c2aee7fdab3f5dedcfb39ea7bdf2d04fff4a57",
        ),
        _sprouse(
            "LI.conditions.csv", "712d3008df628e1b1a599f84e8cc7d711abc887965ce599882ff41729787c715"
        ),
        _sprouse(
            "LI.me.results.csv", "7078c35c9568312ca4b10573e70f22377c53147b703d8446725dd8229780f87a"
        ),
        _sprouse(
            "LI.ls.results.csv", "6a0d294c66648224d32c049868f0a7abe8279c1fd740866addee8815c7a10789"
        ),
        _sprouse(
            "FC.conditions.csv", "1952072f926bff1e41ca0418290cdd0a171e1d5b9f80ceea9be89403e79f295a"
        ),
        _sprouse(
            "FC.logistic.csv", "4821091d1500b431a00c14bb16a71161d2dff06d4a2a2dc06f49c317b972cc46"
        ),
        _sprouse(
            "FC.signtest.csv", "95a3d9305675739a9f53dfef9528009d886cf32003fe78151a14ce41368bf957"
        ),
        _sprouse(
            "ME.read.me.txt", "643ec73f0d220dcf1187ec5564894f553c2a25b9296cc1e924dfca6e3b155c90"
        ),
        _sprouse(
            "LS.read.me.txt", "bbfa3ae9fb91425c79b5d13874051448c5dfaed1f25e8e48c4fc5414a98b0d1d"
        ),
        _sprouse(
            "FC.read.me.txt", "47fc960df350055f0a5ead85860729317d82af82b4a685f41cacb482609a2a4f"
        ),
        _sprouse(
            "SSA.Materials.xlsx", "8fbedba9b77795cac25f6015f4b3d259c01a4423ed9d19f9f0071c9a38bc028f"
        ),
        _cola(
            "in_domain_train.tsv",
            "f320a10f92d3bce6b29152fde322a362eac39238e50d8de0c8815457fdf4fc12",
        ),
        _cola(
            "in_domain_dev.tsv",
            "77176f6a03faa5a1c4f23c69971fc1bff565931112fb65af47b2d6e24b7f42f7",
        ),
        _cola(
            "out_of_domain_dev.tsv",
            "201b9c57b2a20f1282242eec0ed8995729e3be19c29a46c047b3727338836c05",
        ),
        *(_blimp(f"{uid}.jsonl", sha256) for uid, sha256 in BLIMP_PARADIGMS.items()),
        _blimp(
            "human_validation_summary.csv",
            "ea0e7c21de6b9df2fd8a94d0b175e84ea57627e4cbfa1fcba4ef8b3d0fba1b2d",
            "raw_results/summary",
        ),
        _blimp(
            "models_summary.jsonl",
            "d54b1b361559eec9182f89930d5012af89d1a35d8e2ff435637b3166e2e3037a",
            "raw_results/summary",
        ),
        _npi(
            "npi_minimal_pairs.tsv",
            "0916779dbf21f037059ca17c975ed791f90cf80e527030b08c8aa456eb356794",
        ),
        _diagnostics(
            "CPRAG-102/CPRAG-102.tsv",
            "d06ea9e3d97f8647839fe69b77817f4554e1fd1c79b8a3074bbfec44bbc05afb",
        ),
        _diagnostics(
            "ROLE-88/ROLE-88.tsv",
            "06a3dfdfbeb3fe0a86fcf4fdbe388c4384c69749b39a8ba3abd6eccf2712915e",
        ),
        _diagnostics(
            "NEG-136/NEG-136-SIMP.tsv",
            "3691043f229d247a2d8de572e505e929e17f5726ee58b5ad1c515232ce46e0f0",
        ),
        _diagnostics(
            "NEG-136/NEG-136-NAT.tsv",
            "60c090ed858850ee7eef47956c97db0ffe10e3e4842c0ec1d9094308c3ca67af",
        ),
    )
}

#: The files the dataset is built from.
BUILD_FILES: tuple[str, ...] = (
    "li-adger/human_ME_results_li-adger_sentences.csv",
    "li-adger/li-adger_sentences.csv",
    "li-adger/li-adger_min_pairs.csv",
    "sprouse2013/LI.conditions.csv",
)


#: The thesis's model scores that :mod:`metric_adc.thesis.outputs` reads (its 8 reference models).
THESIS_OUTPUT_FILES: tuple[str, ...] = (
    "thesis-outputs/li-adger_min_pairs_all_models.csv",
    "thesis-outputs/bert_mlm_results_li-adger_sentences.csv",
    "thesis-outputs/bert_acc_results_li-adger_sentences.csv",
)


class SourceNotFoundError(FileNotFoundError):
    """A source file is in none of the places searched and could not be downloaded."""


class ChecksumError(ValueError):
    """A source file's SHA-256 differs from the pinned one."""


def sha256_file(path: str | Path) -> str:
    """Hex SHA-256 of a file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x"
    >>> _ = p.write_bytes(b"abc")
    >>> sha256_file(p)[:16]
    'ba7816bf8f01cfea'
    """
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_root() -> Path:
    """The project's user cache: ``$LI_ADGER_CACHE``, default ``~/.cache/li_adger``.

    Examples
    --------
    >>> cache_root() / "sources" == cache_dir()
    True
    """
    root = os.environ.get("LI_ADGER_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "li_adger"


def cache_dir() -> Path:
    """Where downloaded source files are kept: ``$LI_ADGER_CACHE/sources``, default
    ``~/.cache/li_adger/sources``.

    Examples
    --------
    >>> cache_dir().name
    'sources'
    """
    return cache_root() / "sources"


def default_search_dirs() -> list[Path]:
    """The folders searched when no source folder is given (before the user cache).

    Examples
    --------
    >>> [p.parts[-2:] for p in default_search_dirs()][0]
    ('shared', 'data')
    """
    beside_checkout = Path(__file__).resolve().parents[3] / "shared" / "data"
    beside_cwd = (Path.cwd().parent / "shared" / "data").resolve()
    return list(dict.fromkeys([beside_checkout, beside_cwd]))


def upstream_url(relpath: str, base: str | None = None) -> str:
    """URL of a source file: the pinned raw GitHub URL, or ``base/relpath`` for a mirror.

    ``base`` defaults to the environment variable ``LI_ADGER_UPSTREAM_BASE``.

    Examples
    --------
    >>> upstream_url("li-adger/li-adger_min_pairs.csv", "http://127.0.0.1:8000/data/")
    'http://127.0.0.1:8000/data/li-adger/li-adger_min_pairs.csv'
    """
    _known(relpath)
    base = base if base is not None else os.environ.get("LI_ADGER_UPSTREAM_BASE")
    if base:
        return f"{base.rstrip('/')}/{relpath}"
    return SOURCE_FILES[relpath].url


def _known(relpath: str) -> SourceFile:
    try:
        return SOURCE_FILES[relpath]
    except KeyError:
        raise KeyError(
            f"{relpath!r} is not a pinned source file; expected one of {sorted(SOURCE_FILES)}"
        ) from None


def _check(spec: SourceFile, path: Path, searched: Sequence[str]) -> None:
    got = sha256_file(path)
    if got != spec.sha256:
        raise ChecksumError(
            f"checksum mismatch for source file {spec.path!r} at {path}: expected SHA-256 "
            f"{spec.sha256}, got {got}. Places searched: {', '.join(searched)}. "
            f"The pinned file is {spec.url}"
        )


def check_file(relpath: str, path: str | Path) -> Path:
    """Check one file against the pinned SHA-256 of ``relpath``; return its path.

    For files found outside the lookup order (e.g. a folder given to a loader directly).

    Raises
    ------
    SourceNotFoundError
        ``path`` is not a file.
    ChecksumError
        Its SHA-256 differs from the pinned one (the message names both hashes).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "bert_acc_results_li-adger_sentences.csv"
    >>> _ = p.write_text("id\\n")
    >>> check_file("thesis-outputs/bert_acc_results_li-adger_sentences.csv", p)
    Traceback (most recent call last):
    li_adger.sources.ChecksumError: checksum mismatch for source file 'thesis-outputs/bert_acc_results_li-adger_sentences.csv' at ...
    """
    spec = _known(relpath)
    path = Path(path)
    if not path.is_file():
        raise SourceNotFoundError(
            f"source file {spec.path!r} (SHA-256 {spec.sha256}) not found at {path}"
        )
    _check(spec, path, [str(path)])
    return path


def _download(spec: SourceFile, url: str, dest: Path, timeout: float) -> None:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        data = response.read()
    got = hashlib.sha256(data).hexdigest()
    if got != spec.sha256:
        raise ChecksumError(
            f"checksum mismatch for source file {spec.path!r} downloaded from {url}: "
            f"expected SHA-256 {spec.sha256}, got {got}"
        )
    atomic_write_bytes(dest, data)


def find_sources(
    relpaths: Sequence[str] = BUILD_FILES,
    *,
    source: str | Path | None = None,
    verify: bool = True,
    search_dirs: Sequence[str | Path] | None = None,
    cache: str | Path | None = None,
    upstream_base: str | None = None,
    download: bool = True,
    timeout: float = 60.0,
) -> dict[str, Path]:
    """Locate (and if need be download) source files; return ``{relpath: path}``, verified.

    Parameters
    ----------
    relpaths
        Relative paths of pinned files (keys of :data:`SOURCE_FILES`).
    source
        An explicit source folder; defaults to ``$LI_ADGER_SOURCE``. When set, it is the only
        place searched and nothing is downloaded.
    verify
        Check each file's SHA-256. ``False`` is allowed only with an explicit ``source`` (a
        deliberately modified copy); the pinned places are always verified.
    search_dirs
        Folders searched before the cache when no ``source`` is given; defaults to
        :func:`default_search_dirs`. Pass ``()`` to go straight to the cache and download.
    cache
        Download folder; defaults to :func:`cache_dir`.
    upstream_base
        Mirror base URL (same layout as a source folder); defaults to
        ``$LI_ADGER_UPSTREAM_BASE``, else the pinned GitHub URLs.

    Raises
    ------
    SourceNotFoundError
        A file is nowhere to be found, naming the file, its expected hash and every place
        searched (and why a download failed).
    ChecksumError
        A file found differs from the pinned one.

    Examples
    --------
    >>> paths = find_sources(["sprouse2013/LI.conditions.csv"])
    >>> paths["sprouse2013/LI.conditions.csv"].parts[-2:]
    ('sprouse2013', 'LI.conditions.csv')
    >>> find_sources(["li-adger/li-adger_min_pairs.csv"], verify=False)
    Traceback (most recent call last):
    ValueError: verify=False is only allowed for an explicit source folder (source=... or LI_ADGER_SOURCE)
    """
    specs = [_known(r) for r in relpaths]
    explicit = source if source is not None else os.environ.get("LI_ADGER_SOURCE") or None
    if not verify and explicit is None:
        raise ValueError(
            "verify=False is only allowed for an explicit source folder "
            "(source=... or LI_ADGER_SOURCE)"
        )
    found: dict[str, Path] = {}
    if explicit is not None:
        root = Path(explicit).expanduser()
        for spec in specs:
            path = root / spec.path
            searched = [str(path)]
            if not path.is_file():
                raise SourceNotFoundError(
                    f"source file {spec.path!r} (SHA-256 {spec.sha256}) not found in the "
                    f"source folder {root}. Places searched: {', '.join(searched)}"
                )
            if verify:
                _check(spec, path, searched)
            found[spec.path] = path
        return found

    dirs = [Path(d) for d in (default_search_dirs() if search_dirs is None else search_dirs)]
    cache_root = Path(cache) if cache is not None else cache_dir()
    for spec in specs:
        candidates = [d / spec.path for d in dirs] + [cache_root / spec.path]
        searched = [str(c) for c in candidates]
        path = next((c for c in candidates if c.is_file()), None)
        if path is None and download:
            url = upstream_url(spec.path, upstream_base)
            searched.append(url)
            path = cache_root / spec.path
            try:
                _download(spec, url, path, timeout)
            except (urllib.error.URLError, OSError, ValueError) as exc:
                if isinstance(exc, ChecksumError):
                    raise
                raise SourceNotFoundError(
                    f"source file {spec.path!r} (SHA-256 {spec.sha256}) not found and its "
                    f"download failed ({exc}). Places searched: {', '.join(searched)}. "
                    "Pass --source DIR or set LI_ADGER_SOURCE to a folder holding it."
                ) from exc
        if path is None:
            raise SourceNotFoundError(
                f"source file {spec.path!r} (SHA-256 {spec.sha256}) not found. "
                f"Places searched: {', '.join(searched)}"
            )
        _check(spec, path, searched)
        found[spec.path] = path
    return found


def source_file(relpath: str, *, source: str | Path | None = None, verify: bool = True) -> Path:
    """The verified path of one pinned source file, by the lookup order of this module.

    Examples
    --------
    >>> source_file("sprouse2013/LI.conditions.csv").name
    'LI.conditions.csv'
    >>> source_file("nope.csv")
    Traceback (most recent call last):
    KeyError: "'nope.csv' is not a pinned source file; expected one of [...]"
    """
    return find_sources([relpath], source=source, verify=verify)[relpath]
