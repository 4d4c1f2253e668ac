"""The Acceptability Delta Criterion (ADC) and the BLiMP criterion for minimal-pair evaluation.

Public API:

- :mod:`metric_adc.core` — the math (z-scores, ADC, BLiMP criterion, δ sweep, the δ for a
  share of pairs, breakdowns, overlap; the correlations of :mod:`metric_adc.correlation`);
  :mod:`metric_adc.bootstrap` — bootstrap intervals and paired comparisons.
- :mod:`metric_adc.scores.file` — :func:`write_scores` / :func:`read_scores`.
- :mod:`metric_adc.pairs` — :class:`PairTable`, :func:`li_adger_pairs`, :func:`model_deltas`.
- :mod:`metric_adc.result_rows` — result rows: :func:`evaluate_on_pairs`, :func:`model_row`, …;
  :mod:`metric_adc.report.build` — any benchmark's report (:func:`build_report`,
  :func:`format_report`); :mod:`metric_adc.report.li_adger` — LI-Adger's rows and sections
  (:func:`li_adger_report`, :func:`evaluate_li_adger`); :mod:`metric_adc.report.formatting` —
  tables for people.
- :mod:`metric_adc.thesis.models` — :func:`reproduce_rows`, the thesis's 8 reference models.
- :mod:`metric_adc.ceiling.compute` — the split-half human ceiling (LI pairs only) and
  :func:`human_ceiling`, the human row of every report.
- :func:`load_metric` — the ``evaluate`` module, loaded from the installed package.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["load_metric", "metric_path", "register_metric"]


def metric_path() -> Path:
    """The folder of the ``evaluate`` module (``metric_adc/adc``) inside the installed package.

    Examples
    --------
    >>> metric_path().name, (metric_path() / "adc.py").is_file()
    ('adc', True)
    """
    return Path(__file__).resolve().parent / "adc"


def load_metric(**kwargs: Any):
    """``evaluate.load`` the ADC module from the installed package (works offline).

    Keyword arguments go to :func:`evaluate.load` (e.g. ``config_name``).

    Examples
    --------
    >>> blimp = load_metric(config_name="blimp")
    >>> blimp.compute(predictions_good=[-10.0, -12.0, -9.0],
    ...               predictions_bad=[-11.0, -11.5, -15.0])["blimp"]
    0.6666666666666666
    """
    import evaluate

    return evaluate.load(str(metric_path()), **kwargs)


def register_metric(modules_cache: str | None = None) -> Path:
    """Put the module where ``evaluate.load("adc")`` finds it offline; return the file written.

    ``evaluate.load("adc")`` first asks the Hub for ``evaluate-metric/adc``; when that fails
    (offline) it falls back to the newest cached copy under
    ``$HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--adc/<sha256>/adc.py``.
    This function writes that copy (idempotent; the hash is the file's SHA-256).
    ``modules_cache`` defaults to evaluate's ``HF_MODULES_CACHE``.

    Examples
    --------
    >>> import tempfile
    >>> path = register_metric(tempfile.mkdtemp())
    >>> path.parent.parent.name, path.name
    ('evaluate-metric--adc', 'adc.py')
    """
    import hashlib
    import shutil

    from evaluate import config

    from li_adger.io.atomic import atomic_path

    source = metric_path() / "adc.py"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    root = Path(modules_cache or config.HF_MODULES_CACHE) / "evaluate_modules"
    target = root / "metrics" / "evaluate-metric--adc" / digest
    target.mkdir(parents=True, exist_ok=True)
    for d in (root, root / "metrics", target.parent, target):
        (d / "__init__.py").touch(exist_ok=True)
    for name in ("adc.py", "README.md", "requirements.txt"):
        with atomic_path(target / name) as tmp:
            shutil.copyfile(metric_path() / name, tmp)
    return target / "adc.py"
