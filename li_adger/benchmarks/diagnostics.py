"""Ettinger's (2020) psycholinguistic diagnostics: CPRAG-102, ROLE-88, NEG-136-SIMP, NEG-136-NAT.

Cloze items: a context whose blank is its last word. A unit is one (context, completion)
— the context is the text before the blank, without surrounding spaces; the completion is one
word that follows it after a space and ends the sentence. Identical (context, completion)
occurrences are one unit, with the id of the first. Per set (Ettinger 2020, §5 and §7–9, and
the upstream code at the pinned commit, ``proc_datasets.py``, ``prediction_accuracy_tests.py``,
``sensitivity_tests.py``):

``CPRAG-102`` (34 items; ``CPRAG-102/CPRAG-102.tsv``)
    Context: the two sentences ``context_s1 context_s2``. Completions: ``expected``,
    ``within_category``, ``between_category``. Accuracy: the expected completion, one row per
    context (34). Sensitivity (§7.2, Table 5): an item passes when the expected completion is
    more probable than *both* inappropriate ones — two comparisons, ``within_category`` and
    ``between_category``, one ``item_id``. Condition: the item's cloze constraint,
    ``high constraint`` or ``low constraint``.
``ROLE-88`` (88 contexts in 44 pairs; ``ROLE-88/ROLE-88.tsv``)
    Items ``<n>-a`` and ``<n>-b`` swap the two nouns; both rows name the same ``target``,
    which fits ``-a`` (its target cloze is higher in every pair). Accuracy: each of the 88
    contexts; ``expected`` lists the top-cloze completions separated by ``|`` and any of them
    counts; a multi-word expected completion (e.g. ``worked for``) is represented by its first
    word, as upstream. Sensitivity (§8.2, Table 9): the target in the ``-a`` context against
    the same target in the role-reversed ``-b`` context, one comparison per pair (44).
    No condition.
``NEG-136-SIMP`` (18 items × 4 = 72; ``NEG-136/NEG-136-SIMP.tsv``)
    Contexts end in ``(a|an)``: the article is chosen from the completion noun, ``an``
    before a vowel letter (a, e, i, o, u), else ``a`` — as upstream, and right for all nine
    category nouns. Each row gives 4 sentences: affirmative + true (``target_aff``),
    affirmative + false (``target_neg``), negative + true (``target_neg``), negative + false
    (``target_aff``). Sensitivity (§9.2, Table 12): true against false in the affirmative
    and in the negative context (36 comparisons, conditions ``affirmative`` and ``negative``).
    Accuracy: affirmative contexts only, the true completion (§5.3, §9.1): 18 items.
``NEG-136-NAT`` (16 items × 4 = 64; ``NEG-136/NEG-136-NAT.tsv``)
    As NEG-136-SIMP without articles; ``licensing`` ``Y`` marks the natural items, ``N`` the
    less natural ones (§9.4, Table 14): conditions ``affirmative natural``, ``negative
    natural``, ``affirmative less natural``, ``negative less natural`` (8 comparisons each).
    Accuracy: affirmative contexts, the true completion (16 items), computed as upstream
    (``test_neg_acc``); the paper reports it for NEG-136-SIMP only.

Ids: units ``<set>.<item>.<completion>`` (NEG sets: ``<set>.<item>.<aff|neg>.<completion>``),
comparisons ``<set>.<item>.<contrast>`` (ROLE-88: ``ROLE-88.<n>``), accuracy items
``<set>.<item>`` (NEG sets: ``<set>.<item>.affirmative``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from li_adger.benchmarks.spec import Items
from li_adger.benchmarks.tsv import SourceFormatError, read_tsv
from li_adger.benchmarks.units import unique_units

__all__ = ["FILES", "GROUPS", "HEADERS", "SETS", "read"]

FILES: dict[str, str] = {
    "CPRAG-102": "lm-diagnostics/CPRAG-102/CPRAG-102.tsv",
    "ROLE-88": "lm-diagnostics/ROLE-88/ROLE-88.tsv",
    "NEG-136-SIMP": "lm-diagnostics/NEG-136/NEG-136-SIMP.tsv",
    "NEG-136-NAT": "lm-diagnostics/NEG-136/NEG-136-NAT.tsv",
}
SETS: tuple[str, ...] = tuple(FILES)
GROUPS: tuple[str, ...] = ("set", "condition")

HEADERS = {
    "CPRAG-102": (
        "item",
        "context_s1",
        "context_s2",
        "expected",
        "within_category",
        "between_category",
        "constraint",
    ),
    "ROLE-88": (
        "item",
        "context",
        "expected",
        "exp_cloze",
        "target",
        "tgt_cloze",
        "tgt_cloze(strict)",
    ),
    "NEG-136-SIMP": ("item", "context_aff", "context_neg", "target_aff", "target_neg"),
    "NEG-136-NAT": ("item", "context_aff", "context_neg", "target_aff", "target_neg", "licensing"),
}
_CONSTRAINT = {"H": "high constraint", "L": "low constraint"}
_NATURALNESS = {"Y": "natural", "N": "less natural"}
_ARTICLE_SLOT = " (a|an)"


class _Collector:
    """Occurrences of (context, completion), comparisons and accuracy rows of one benchmark."""

    def __init__(self) -> None:
        self.candidates: list[str] = []
        self.contexts: list[str] = []
        self.completions: list[str] = []
        self.comparisons: list[tuple] = []
        self.accuracy: list[tuple] = []

    def unit(self, unit_id: str, context: str, completion: str, where: str) -> int:
        context = context.strip()
        if not context or not re.fullmatch(r"\S+", completion):
            raise SourceFormatError(
                f"{where}: expected a context and a one-word completion "
                f"(got {context!r}, {completion!r})"
            )
        self.candidates.append(unit_id)
        self.contexts.append(context)
        self.completions.append(completion)
        return len(self.candidates) - 1  # occurrence index, resolved to a unit id later

    def compare(self, pair_id, good, bad, item_id, set_, condition, contrast) -> None:
        self.comparisons.append((pair_id, good, bad, item_id, set_, condition, contrast))

    def expect(self, item_id, occurrence, set_, condition) -> None:
        self.accuracy.append((item_id, occurrence, set_, condition))

    def items(self) -> Items:
        units, ids = unique_units(
            self.candidates, {"context": self.contexts, "completion": self.completions}
        )
        comparisons = pd.DataFrame(
            self.comparisons,
            columns=["pair_id", "good_id", "bad_id", "item_id", "set", "condition", "contrast"],
        )
        comparisons["good_id"] = ids[comparisons["good_id"].to_numpy(int)]
        comparisons["bad_id"] = ids[comparisons["bad_id"].to_numpy(int)]
        accuracy = pd.DataFrame(
            self.accuracy, columns=["item_id", "expected_id", "set", "condition"]
        )
        accuracy["expected_id"] = ids[accuracy["expected_id"].to_numpy(int)]
        return Items("diagnostics", "cloze", units, comparisons, accuracy)


def _cprag(path: Path, out: _Collector) -> None:
    s = "CPRAG-102"
    for number, (item, s1, s2, expected, within, between, constraint) in read_tsv(
        path, 7, header=HEADERS[s]
    ):
        where = f"{path}:{number}"
        if constraint not in _CONSTRAINT:
            raise SourceFormatError(f"{where}: constraint must be H or L (got {constraint!r})")
        condition = _CONSTRAINT[constraint]
        context = f"{s1.strip()} {s2.strip()}"
        good = out.unit(f"{s}.{item}.{expected}", context, expected, where)
        for contrast, word in (("within_category", within), ("between_category", between)):
            bad = out.unit(f"{s}.{item}.{word}", context, word, where)
            out.compare(f"{s}.{item}.{contrast}", good, bad, f"{s}.{item}", s, condition, contrast)
        out.expect(f"{s}.{item}", good, s, condition)


def _role(path: Path, out: _Collector) -> None:
    s = "ROLE-88"
    pairs: dict[str, dict[str, tuple[int, str]]] = {}
    for number, (item, context, expected, _, target, *_) in read_tsv(path, 7, header=HEADERS[s]):
        where = f"{path}:{number}"
        match = re.fullmatch(r"(\d+)-([ab])", item)
        if match is None:
            raise SourceFormatError(f"{where}: item must look like '61-a' or '61-b' (got {item!r})")
        for word in dict.fromkeys(e.split()[0] for e in expected.split("|") if e.strip()):
            out.expect(f"{s}.{item}", out.unit(f"{s}.{item}.{word}", context, word, where), s, "")
        target = target.strip()
        occurrence = out.unit(f"{s}.{item}.{target}", context, target, where)
        pairs.setdefault(match[1], {})[match[2]] = (occurrence, target)
    for n, sides in pairs.items():
        if set(sides) != {"a", "b"} or sides["a"][1] != sides["b"][1]:
            raise SourceFormatError(
                f"{path}: item {n} must have an -a and a -b row with the same target (got {sides})"
            )
        out.compare(f"{s}.{n}", sides["a"][0], sides["b"][0], f"{s}.{n}", s, "", "role_reversal")


def _article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def _neg(path: Path, out: _Collector, s: str) -> None:
    natural = s == "NEG-136-NAT"
    for number, fields in read_tsv(path, len(HEADERS[s]), header=HEADERS[s]):
        where = f"{path}:{number}"
        item, context_aff, context_neg, target_aff, target_neg = fields[:5]
        suffix = ""
        if natural:
            if fields[5] not in _NATURALNESS:
                raise SourceFormatError(f"{where}: licensing must be Y or N (got {fields[5]!r})")
            suffix = f" {_NATURALNESS[fields[5]]}"
        occurrence = {}
        for polarity, context in (("aff", context_aff), ("neg", context_neg)):
            for word in (target_aff, target_neg):
                text = context
                if not natural:
                    if not context.endswith(_ARTICLE_SLOT):
                        raise SourceFormatError(
                            f"{where}: expected a context ending in '(a|an)' (got {context!r})"
                        )
                    text = f"{context.removesuffix(_ARTICLE_SLOT)} {_article(word)}"
                occurrence[polarity, word] = out.unit(
                    f"{s}.{item}.{polarity}.{word}", text, word, where
                )
        for polarity, name, true, false in (
            ("aff", "affirmative", target_aff, target_neg),
            ("neg", "negative", target_neg, target_aff),
        ):
            item_id = f"{s}.{item}.{name}"
            good, bad = occurrence[polarity, true], occurrence[polarity, false]
            out.compare(item_id, good, bad, item_id, s, name + suffix, "truth")
        out.expect(
            f"{s}.{item}.affirmative", occurrence["aff", target_aff], s, "affirmative" + suffix
        )


def read(paths: Mapping[str, Path]) -> Items:
    """The four diagnostic sets as one cloze benchmark, the set as a group.

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> items = read(find_sources(list(FILES.values())))
    >>> items.comparisons.groupby("set", sort=False)["item_id"].nunique().to_dict()
    {'CPRAG-102': 34, 'ROLE-88': 44, 'NEG-136-SIMP': 36, 'NEG-136-NAT': 32}
    >>> items.accuracy.groupby("set", sort=False)["item_id"].nunique().to_dict()
    {'CPRAG-102': 34, 'ROLE-88': 88, 'NEG-136-SIMP': 18, 'NEG-136-NAT': 16}
    >>> items.units.set_index("id").loc["NEG-136-SIMP.2.aff.insect"].tolist()
    ['An ant is an', 'insect']
    """
    out = _Collector()
    _cprag(Path(paths[FILES["CPRAG-102"]]), out)
    _role(Path(paths[FILES["ROLE-88"]]), out)
    _neg(Path(paths[FILES["NEG-136-SIMP"]]), out, "NEG-136-SIMP")
    _neg(Path(paths[FILES["NEG-136-NAT"]]), out, "NEG-136-NAT")
    return out.items()
