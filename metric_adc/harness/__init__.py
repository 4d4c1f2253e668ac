"""The ADC inside lm-evaluation-harness: the ``li_adger_adc`` task folder, shipped with the package.

This folder is an lm-evaluation-harness task folder (``li_adger_adc.yaml``, tagged
``acceptability``; the group ``li_adger_adc_blimp.yaml``, the task beside the harness's own
BLiMP; ``utils.py`` and its ``README.md``). Give it to the harness with ``--include_path``::

    lm_eval --model hf --model_args pretrained=NAME \\
        --include_path "$(python -c 'import metric_adc.harness as h; print(h.task_dir())')" \\
        --tasks li_adger_adc

The harness scores each of the 4,178 LI-Adger sentences (one document per sentence, loaded with
:func:`li_adger.load`, never from the Hub) and :mod:`metric_adc.harness.task` turns the
per-sentence log-likelihoods into the BLiMP criterion, ADC at δ = 0.5, 1, 5 and the pair-level
Pearson correlation with :mod:`metric_adc.core`, the numbers ``python -m metric_adc report``
gives for a scores file holding the same log-likelihoods.

Examples
--------
>>> (task_dir() / f"{TASK}.yaml").is_file()
True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["GROUP", "TAG", "TASK", "task_dir"]

TASK = "li_adger_adc"
"""The task's name, for ``--tasks``."""

TAG = "acceptability"
"""The task's tag: ``--tasks acceptability`` runs every task so tagged."""

GROUP = "li_adger_adc_blimp"
"""The group that runs the task beside the harness's BLiMP tasks (its group ``blimp``)."""


def task_dir() -> Path:
    """The task folder to pass to lm-evaluation-harness as ``--include_path``.

    It is this package's own folder inside the installed package (the wheel ships its YAML).

    Examples
    --------
    >>> sorted(p.name for p in task_dir().glob("*.yaml"))
    ['li_adger_adc.yaml', 'li_adger_adc_blimp.yaml']
    """
    return Path(__file__).resolve().parent
