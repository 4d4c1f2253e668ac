"""Build-time checks of LI-Adger: every irregularity is listed as an anomaly, nothing is dropped.

The checks: each pair is (expert-acceptable, expert-unacceptable) with the better mark first;
lexically matched pairs share a token index; pair texts agree with the sentence file; each
LI phenomenon is one official condition pair of Sprouse, Schütze & Almeida (2013); judgements
are present; conditions have the usual eight tokens; ids and texts are well formed.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from li_adger.builder.ids import LI_OFFICIAL_PAIR_ALIASES, expert_acceptable, mark_rank, parse_id
from li_adger.builder.tables import Tables

__all__ = ["Anomaly", "find_anomalies"]

_DETACHED_NT = re.compile(r"\w n't\b")


@dataclass
class Anomaly:
    """One kind of irregularity, with the ids (or pair ids) it concerns."""

    kind: str
    description: str
    items: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        """Number of items concerned.

        Examples
        --------
        >>> Anomaly("missing_judgement", "no judgement", ["ch6.93.*.01"]).count
        1
        """
        return len(self.items)

    def to_dict(self) -> dict:
        """Plain dict for the build report.

        Examples
        --------
        >>> Anomaly("k", "d", ["x"]).to_dict()
        {'kind': 'k', 'description': 'd', 'count': 1, 'items': ['x']}
        """
        d = asdict(self)
        return {
            "kind": d["kind"],
            "description": d["description"],
            "count": self.count,
            "items": d["items"],
        }


def _pair_label(row) -> str:
    return f"pair {row.pair_id}: {row.good_id} > {row.bad_id}"


def find_anomalies(tables: Tables) -> list[Anomaly]:
    """All anomalies of the assembled tables, in a fixed order (empty kinds are omitted).

    Examples
    --------
    >>> from li_adger.sources import find_sources
    >>> from li_adger.builder.tables import make_tables
    >>> found = {a.kind: a.count for a in find_anomalies(make_tables(find_sources()))}
    >>> found["missing_judgement"], found["token_mismatch"], found["good_not_expert_acceptable"]
    (2, 2, 8)
    """
    s, p = tables.sentences, tables.pairs
    out: list[Anomaly] = []

    def add(kind: str, description: str, items: list[str]) -> None:
        if items:
            out.append(Anomaly(kind, description, items))

    add(
        "missing_judgement",
        "sentence without a human judgement (#N/A upstream); judgement is null and the pairs "
        "using it have a null human_delta",
        s.loc[s["judgement"].isna(), "id"].tolist(),
    )
    add(
        "good_not_expert_acceptable",
        "the better member of the pair carries a marginal mark rather than 'g' (still ranked "
        "above the other member's mark)",
        [_pair_label(r) for r in p.itertuples() if not expert_acceptable(r.good_mark)],
    )
    add(
        "marks_not_ordered",
        "the 'good' member's expert mark is not better than the 'bad' member's",
        [_pair_label(r) for r in p.itertuples() if mark_rank(r.good_mark) >= mark_rank(r.bad_mark)],
    )
    add(
        "bad_is_expert_acceptable",
        "the 'bad' member is marked 'g'",
        [_pair_label(r) for r in p.itertuples() if expert_acceptable(r.bad_mark)],
    )
    add(
        "token_mismatch",
        "the two members have different token indices, so they are not lexical variants of "
        "each other",
        [
            _pair_label(r) + (" (discarded)" if r.discarded else "")
            for r in p.itertuples()
            if parse_id(r.good_id).token != parse_id(r.bad_id).token
        ],
    )
    up = tables.upstream_pairs
    add(
        "pair_text_differs",
        "the pairs file spells a sentence differently from the judgement file; the dataset "
        "uses the judgement file's text (the sentence as rated)",
        [
            f"pair {i}: {sid} {upstream!r} vs {text!r}"
            for idcol, col, textcol in (
                ("gramm_id", "gramm_sentence", "good_sentence"),
                ("ungramm_id", "ungramm_sentence", "bad_sentence"),
            )
            for i, (sid, upstream, text) in enumerate(
                zip(up[idcol].tolist(), up[col].tolist(), p[textcol].tolist(), strict=True)
            )
            if upstream != text
        ],
    )
    add(
        "duplicate_pair",
        "the same (good, bad) pair appears more than once",
        [_pair_label(r) for r in p[p.duplicated(["good_id", "bad_id"])].itertuples()],
    )
    add(
        "upstream_verify_note",
        "the pairs file marks the pair 'VERIFY' (kept; e.g. the official control of a "
        "phenomenon is not a lexical variant of the other member)",
        [
            _pair_label(r)
            for r in p.itertuples()
            if isinstance(r.notes, str) and "VERIFY" in r.notes
        ],
    )
    used = set(p["good_id"]) | set(p["bad_id"])
    add(
        "sentence_not_in_any_pair",
        "a sentence that no pair uses",
        [i for i in s["id"] if i not in used],
    )
    sizes = s.groupby("condition", sort=False).size()
    add(
        "condition_size",
        "a condition (sentence type) with other than 8 tokens",
        [f"{c}: {n} tokens" for c, n in sizes.items() if n != 8],
    )
    add(
        "id_whitespace",
        "a sentence id containing whitespace (kept verbatim so that it joins with other files)",
        [i for i in s["id"] if any(ch.isspace() for ch in i)],
    )
    add(
        "detached_nt",
        "a sentence with a detached \"n't\" (e.g. 'does n't'), kept verbatim",
        s.loc[s["sentence"].str.contains(_DETACHED_NT), "id"].tolist(),
    )
    add(
        "upstream_phenomenon_empty",
        "the pairs file's 'phenomenon' column is empty; phenomena are derived (see the card)",
        [
            str(i)
            for i in tables.upstream_pairs.index[
                tables.upstream_pairs["phenomenon"].str.strip() == ""
            ]
        ],
    )

    # LI phenomena against the official condition pairs of the LI study.
    official = {frozenset(pair): pair for pair in tables.official_li_pairs}
    li = tables.phenomena[tables.phenomena["source"] == "LI"]
    add(
        "li_phenomenon_not_official",
        "an LI phenomenon whose conditions are not exactly one official condition pair",
        [
            name
            for name, conds in zip(li["phenomenon"], li["conditions"], strict=True)
            if frozenset(conds) not in official
        ],
    )
    present = {frozenset(c) for c in li["conditions"]}
    add(
        "li_official_pair_missing",
        "an official LI condition pair that is not a phenomenon of the data",
        [f"{g} > {b}" for key, (g, b) in official.items() if key not in present],
    )
    add(
        "li_official_id_spelling",
        "an official LI condition pair whose ids LI.conditions.csv spells differently; "
        "matched through li_adger.builder.ids.LI_OFFICIAL_PAIR_ALIASES",
        [f"{b} / {g} -> {ab} / {ag}" for (b, g), (ab, ag) in LI_OFFICIAL_PAIR_ALIASES.items()],
    )
    if tables.notes_repaired:
        add(
            "mojibake_repaired",
            "notes or typo annotations re-decoded as UTF-8",
            [f"{tables.notes_repaired} values"],
        )
    return out
