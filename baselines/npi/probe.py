"""Feature probing (Warstadt et al. 2019, §3, Fig. 4): linear probes on frozen representations.

For each environment and each feature (licensor, NPI presence, scope), a logistic regression
(scikit-learn, features standardised) is trained on representations of the environment's
training sentences and scored by MCC on its 1,000 test sentences. ``train_cap`` keeps the
first N training sentences per environment (of 10,000; whole paradigms, as fine-tuning does),
``test_cap`` the first N test sentences. A feature with one
value in an environment's training sentences (scope in simple questions, whose reduced
paradigm has no scope manipulation; the paper's Table 3) has no probe: its MCC is ``None`` and
its ``note`` says why.

Which encoder reads which environment is given by ``assignments`` (environment → encoder
folder): one pretrained encoder for all, or, for a fine-tuning configuration, the model that
configuration evaluates on that environment (:mod:`baselines.npi.assign`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from baselines.recorded_path import recorded_path
from li_adger.benchmarks.npi_sets import FEATURES, NpiSentence, read_probing
from li_adger.io.atomic import atomic_write_text
from metric_adc.classification import mcc

__all__ = ["ProbeRow", "machine", "probe_mcc", "probe_rows", "run_probes", "write_probe_file"]


@dataclass(frozen=True)
class ProbeRow:
    """One probe: an environment, a feature, its test MCC (``None`` when there is no probe)."""

    environment: str
    feature: str
    mcc: float | None
    n_train: int
    n_test: int
    encoder: str
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON.

        Examples
        --------
        >>> ProbeRow("only", "scope", 0.5, 10, 4, "m").to_dict()["mcc"]
        0.5
        """
        return asdict(self)


def probe_mcc(
    train_x: np.ndarray, train_y: np.ndarray, test_x: np.ndarray, test_y: np.ndarray, *, seed: int
) -> float:
    """Test MCC of a standardised logistic regression fitted on the training vectors.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> x = rng.normal(size=(200, 5)) + y[:, None] * 3.0
    >>> probe_mcc(x[:100], y[:100], x[100:], y[100:], seed=0)
    1.0
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000, random_state=seed))
    model.fit(train_x, train_y)
    return mcc(test_y, model.predict(test_x))


def probe_rows(
    vectors: Mapping[str, np.ndarray],
    train: Mapping[str, Sequence[NpiSentence]],
    test: Mapping[str, Sequence[NpiSentence]],
    encoders: Mapping[str, str],
    *,
    seed: int,
    features: Sequence[str] = FEATURES,
) -> list[ProbeRow]:
    """One :class:`ProbeRow` per (environment, feature).

    ``vectors[env]`` holds the representations of ``train[env]`` then ``test[env]``, row for
    row; ``encoders[env]`` names the encoder that made them.
    """
    rows = []
    for env, test_rows in test.items():
        x = vectors[env]
        n_train = len(train[env])
        if x.shape[0] != n_train + len(test_rows):
            raise ValueError(
                f"{env}: {x.shape[0]} vectors for {n_train} training and {len(test_rows)} test sentences"
            )
        for feature in features:
            y_train = np.array([r.feature(feature) for r in train[env]])
            y_test = np.array([r.feature(feature) for r in test_rows])
            if len(set(y_train.tolist())) < 2:
                mcc, note = None, f"one value of {feature} in the training sentences: no probe"
            else:
                mcc = probe_mcc(x[:n_train], y_train, x[n_train:], y_test, seed=seed)
                note = ""
            rows.append(ProbeRow(env, feature, mcc, n_train, len(test_rows), encoders[env], note))
    return rows


def run_probes(
    assignments: Mapping[str, str | Path],
    paths: Mapping[str, Path],
    *,
    train_cap: int | None,
    test_cap: int | None = None,
    seed: int = 0,
    cache: str | Path | None = None,
    device: str = "cpu",
    progress: bool = True,
) -> tuple[list[ProbeRow], dict[str, Any]]:
    """Probe each environment with its assigned encoder; returns the rows and the run's costs.

    Representations are computed once per encoder, over the sentences of all the environments
    it is assigned (:func:`baselines.npi.representations.representations`, cached).
    """
    from baselines.npi.representations import representations

    train = {e: read_probing(paths, e, "train")[:train_cap] for e in assignments}
    test = {e: read_probing(paths, e, "test")[:test_cap] for e in assignments}
    by_encoder: dict[str, list[str]] = {}
    for env, folder in assignments.items():
        by_encoder.setdefault(str(folder), []).append(env)
    vectors: dict[str, np.ndarray] = {}
    started = time.perf_counter()
    cached = []
    for folder, envs in by_encoder.items():
        texts = [r.sentence for e in envs for r in (*train[e], *test[e])]
        array, hit = representations(folder, texts, cache=cache, device=device, progress=progress)
        cached.append(hit)
        offset = 0
        for env in envs:
            n = len(train[env]) + len(test[env])
            vectors[env] = array[offset : offset + n]
            offset += n
    encode_seconds = time.perf_counter() - started
    started = time.perf_counter()
    names = {e: recorded_path(f) for e, f in assignments.items()}
    rows = probe_rows(vectors, train, test, names, seed=seed)
    costs = {
        "encode_seconds": round(encode_seconds, 2),
        "probe_seconds": round(time.perf_counter() - started, 2),
        "representations_from_cache": all(cached),
        "sentences_encoded": sum(v.shape[0] for v in vectors.values()),
    }
    return rows, costs


def machine() -> str:
    """The CPU's model name (``platform.processor()`` when /proc/cpuinfo has none)."""
    import platform

    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def write_probe_file(
    path: str | Path,
    rows: Sequence[Any],
    *,
    encoder: str,
    representation: str,
    train_cap: int | None,
    costs: Mapping[str, Any],
    configuration: str | None = None,
    test_cap: int | None = None,
) -> None:
    """``probe.json``: the probes' rows and what made them (the one builder of that file)."""
    payload = {
        "format": "adc-npi-probe",
        "version": 1,
        "encoder": encoder,
        "configuration": configuration,
        "representation": representation,
        "train_cap": train_cap,
        "test_cap": test_cap,
        "capped": train_cap is not None or test_cap is not None,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "costs": dict(costs),
        "rows": [r.to_dict() for r in rows],
    }
    atomic_write_text(path, json.dumps(payload, indent=2))
