"""The functions ``li_adger_adc.yaml`` names as ``!function utils.NAME``.

lm-evaluation-harness loads this file by its path, afresh for each name, so the functions live
in :mod:`metric_adc.harness.task` (imported once, where the pair table is cached) and are only
named here.

Examples
--------
>>> blimp is task.blimp
True
"""

from metric_adc.harness import task
from metric_adc.harness.task import (
    adc_0_5,
    adc_1,
    adc_5,
    blimp,
    pearson_pairs,
    process_results,
    sentences,
)

__all__ = [
    "adc_0_5",
    "adc_1",
    "adc_5",
    "blimp",
    "pearson_pairs",
    "process_results",
    "sentences",
    "task",
]
