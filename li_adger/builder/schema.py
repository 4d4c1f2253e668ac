"""Column schemas of the three configs (``sentences``, ``pairs``, ``phenomena``).

These are the one definition of the columns: the build writes Parquet files with exactly
these Arrow types, and a test checks that the card's YAML ``dataset_info`` features agree.
"""

from __future__ import annotations

import pyarrow as pa

__all__ = ["CONFIGS", "SCHEMAS", "hf_features_yaml"]

_STR, _INT, _FLOAT, _BOOL = pa.string(), pa.int64(), pa.float64(), pa.bool_()

SCHEMAS: dict[str, pa.Schema] = {
    "sentences": pa.schema(
        [
            ("id", _STR),
            ("source", _STR),
            ("phenomenon", _STR),
            ("condition", _STR),
            ("token", _INT),
            ("mark", _STR),
            ("expert_acceptable", _BOOL),
            ("sentence", _STR),
            ("judgement", _FLOAT),
            ("word_count", _INT),
            ("notes", _STR),
            ("typo", _STR),
            ("example", _STR),
            ("sent_length", _INT),
        ]
    ),
    "pairs": pa.schema(
        [
            ("pair_id", _INT),
            ("source", _STR),
            ("phenomenon", _STR),
            ("good_id", _STR),
            ("good_sentence", _STR),
            ("good_judgement", _FLOAT),
            ("bad_id", _STR),
            ("bad_sentence", _STR),
            ("bad_judgement", _FLOAT),
            ("human_delta", _FLOAT),
            ("discarded", _BOOL),
            ("discard_reason", _STR),
            ("good_condition", _STR),
            ("bad_condition", _STR),
            ("good_mark", _STR),
            ("bad_mark", _STR),
            ("notes", _STR),
        ]
    ),
    "phenomena": pa.schema(
        [
            ("phenomenon", _STR),
            ("source", _STR),
            ("conditions", pa.list_(_STR)),
            ("n_sentences", _INT),
            ("n_pairs", _INT),
            ("mean_human_delta", _FLOAT),
            ("n_conditions", _INT),
            ("n_pairs_discarded", _INT),
            ("reference", _STR),
        ]
    ),
}

#: Config names, in card order.
CONFIGS: tuple[str, ...] = tuple(SCHEMAS)

_HF_DTYPES = {_STR: "string", _INT: "int64", _FLOAT: "float64", _BOOL: "bool"}


def hf_features_yaml(config: str) -> list[dict]:
    """The ``dataset_info.features`` list of a config as written in the card's YAML.

    Examples
    --------
    >>> hf_features_yaml("phenomena")[:3]
    [{'name': 'phenomenon', 'dtype': 'string'}, {'name': 'source', 'dtype': 'string'}, {'name': 'conditions', 'list': 'string'}]
    """
    features = []
    for field in SCHEMAS[config]:
        if pa.types.is_list(field.type):
            features.append({"name": field.name, "list": _HF_DTYPES[field.type.value_type]})
        else:
            features.append({"name": field.name, "dtype": _HF_DTYPES[field.type]})
    return features
