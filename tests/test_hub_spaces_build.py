"""The staged Spaces build and run from their own ``requirements.txt``, as the Hub builds them.

Each staged folder is copied away from the checkout; a fresh virtual environment (no system
site-packages, ``PYTHONPATH`` unset) gets exactly ``pip install -r requirements.txt``, and
then, from the copied folder: the metric's module computes (``evaluate.load`` of the staged
module file), and the app's ``app.py`` and the metric's answer HTTP 200. The app's
requirements hold the metric's, so one environment serves both: the metric's requirements
first, the app's after. Both need network access to the package index (PyPI), nothing else.
The whole file took 85-111 s on the 2-core development machine under a load of 7.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest
from space_helpers import free_port, serving

from li_adger.hub import SPACE_SDK_VERSION
from metric_adc.__main__ import main as metric_main
from space.__main__ import main as space_main

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]

# By hand (tests/test_hub_publish.py): BLiMP 3/4, ADC(0.5) 1/4, ADC(1) 2/4.
_COMPUTE = r"""
import json, sys
import evaluate, metric_adc

adc = evaluate.load(sys.argv[1])
got = adc.compute(
    predictions_good=[-10.0, -12.0, -9.0, -8.0], predictions_bad=[-11.0, -11.5, -15.0, -9.5],
    references_good=[1.2, 0.9, 1.1, 0.4], references_bad=[-0.8, 0.1, -1.0, -0.2])
print(json.dumps({"blimp": got["blimp"], "adc": got["adc"], "metric_adc": metric_adc.__file__,
                  "homepage": adc.info.homepage, "codebase_urls": adc.info.codebase_urls}))
"""


def _pins(folder: Path) -> list[str]:
    text = (folder / "requirements.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def _env(tmp: Path) -> dict[str, str]:
    """This environment without PYTHONPATH or a virtualenv, the Hub offline, caches in ``tmp``."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"} and not k.startswith("ADC_")}  # fmt: skip
    env.update(HF_HUB_OFFLINE="1", HF_HOME=str(tmp / "hf"), GRADIO_ANALYTICS_ENABLED="False",
               HF_MODULES_CACHE=str(tmp / "hf" / "modules"))  # fmt: skip
    return env


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], timeout: int = 1200) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)  # fmt: skip
    assert done.returncode == 0, f"{cmd[:4]} failed:\n{(done.stdout + done.stderr)[-4000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def spaces(tmp_path_factory) -> dict[str, Path]:
    """The two Spaces, staged from the checkout and copied into a folder of their own."""
    staged, away = tmp_path_factory.mktemp("staged"), tmp_path_factory.mktemp("away")
    assert metric_main(["push", "someone/adc", "--dry-run", str(staged / "adc")]) == 0
    assert space_main(["push", "someone/adc-li-adger", "--dry-run", str(staged / "app")]) == 0
    return {name: Path(shutil.copytree(staged / name, away / name)) for name in ("adc", "app")}


@pytest.fixture(scope="module")
def fresh_python(tmp_path_factory) -> Path:
    """A new virtual environment, without the system's site-packages: its python."""
    root = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(root)
    return root / "bin" / "python"


def test_the_app_requirements_hold_the_metric_ones(spaces):
    metric, app = _pins(spaces["adc"]), _pins(spaces["app"])
    assert metric and set(metric) <= set(app)
    assert f"gradio=={SPACE_SDK_VERSION}" in app  # the Space's gradio is the one tested
    assert not [p for p in app if p.split("==")[0] in {"li-adger-adc", "torch"}]


def test_the_staged_spaces_build_and_run_from_their_requirements(spaces, fresh_python, tmp_path):
    env = _env(tmp_path)
    metric, app = spaces["adc"], spaces["app"]
    # --no-compile: no bytecode ahead of time (gradio's alone is many seconds of CPU); the same
    # packages are installed
    pip = [
        str(fresh_python),
        "-m",
        "pip",
        "install",
        "-q",
        "--no-compile",
        "-r",
        "requirements.txt",
    ]

    _run(pip, cwd=metric, env=env)
    out = _run([str(fresh_python), "-c", _COMPUTE, str(metric / "adc.py")], cwd=metric, env=env)
    got = json.loads(out.strip().splitlines()[-1])
    assert got["blimp"] == 0.75 and got["adc"]["0.5"] == 0.25 and got["adc"]["1.0"] == 0.5
    assert Path(got["metric_adc"]).resolve().is_relative_to(metric.resolve())  # not the checkout
    assert got["homepage"] == "https://huggingface.co/spaces/someone/adc"
    assert (
        got["codebase_urls"][0] == "https://huggingface.co/spaces/someone/adc/tree/main/metric_adc"
    )

    _run(pip, cwd=app, env=env)
    # the app, then the metric's page (its gradio is the Space's sdk_version, which the app's
    # requirements pin): each answers HTTP 200, with every download sent nowhere
    for name, folder in (("app", app), ("metric", metric)):
        port = free_port()
        env_app = {**env, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port),
                   "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
                   "NO_PROXY": "127.0.0.1,localhost"}  # fmt: skip
        log = tmp_path / f"{name}.log"
        with serving([str(fresh_python), "app.py"], port, cwd=folder, env=env_app, log=log) as url:
            assert url.endswith(f":{port}/")
        assert "Traceback" not in log.read_text(), name
