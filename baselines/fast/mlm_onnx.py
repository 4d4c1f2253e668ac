"""The PLL's encoder in ONNX Runtime: every layer but the last, exported once and cached.

``MaskedLMScorer(..., runtime="onnx")`` (``python -m baselines score --runtime onnx``) runs the
embeddings and every layer but the last in ONNX Runtime on the CPU, with its graph
optimisations, and finishes as the PyTorch path does: the last layer at the scored positions
only (:func:`baselines.fast.mlm_last_layer.last_layer_at`) and the MLM head there. Same scores to
float rounding (tests hold them within 1e-4 of the PyTorch path); on this project's 2-core CPU
the encoder runs about 10 % faster than in PyTorch, the whole PLL about 6 % (docs/speed.md).

The first use of a model exports it with ``torch.onnx.export`` into the models cache
(:func:`baselines.models.cache.models_dir` ``/onnx/<fingerprint>``), keyed by the model's weights and
config, the library versions and this module's source; later uses load the cached file. The
export is written to a temporary folder and renamed into place, so an interrupted export
leaves nothing half-written (its temporary folder is removed by the next export), and gets a
manifest (:mod:`baselines.models.manifest`): a cached export whose files (the graph and its
external weights) differ from it in size or SHA-256 is removed and exported again, with a line
saying so. Needs the ``onnx`` extra (``pip install onnxruntime onnx onnxscript``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import torch

from baselines.fast.mlm_last_layer import encoder_layers, supports_scored_positions
from baselines.interface import RUNTIMES
from baselines.models.cache import models_dir
from baselines.models.manifest import trusted_folder, write_manifest
from li_adger.io.atomic import atomic_dir

__all__ = ["OnnxFirstLayers", "check_runtime", "model_fingerprint"]

_FILE = "first_layers.onnx"


def check_runtime(runtime: str, *, model: Any, device: Any, dtype: Any) -> None:
    """Raise naming what is wrong when ``runtime`` cannot run ``model`` here.

    Examples
    --------
    >>> check_runtime("tensorrt", model=None, device="cpu", dtype=None)
    Traceback (most recent call last):
    ...
    ValueError: runtime must be one of 'torch', 'onnx' (got 'tensorrt')
    """
    if runtime not in RUNTIMES:
        choices = ", ".join(repr(r) for r in RUNTIMES)
        raise ValueError(f"runtime must be one of {choices} (got {runtime!r})")
    if runtime == "torch":
        return
    if str(device) != "cpu" or dtype != torch.float32:
        raise ValueError(
            f"runtime 'onnx' runs on the CPU in fp32 (got device {str(device)!r}, "
            f"dtype {str(dtype).removeprefix('torch.')}); use --device cpu --precision fp32"
        )
    if not supports_scored_positions(model):
        raise ValueError(
            "runtime 'onnx' needs a BERT-style encoder with absolute positions (bert, roberta, "
            f"xlm-roberta, camembert; got model type {model.config.model_type!r})"
        )
    try:
        import onnxruntime  # noqa: F401
        import onnxscript  # noqa: F401
    except ImportError as error:
        raise ValueError(
            f"runtime 'onnx' needs ONNX Runtime ({error.name} is not installed): "
            "pip install onnxruntime onnx onnxscript (the project's onnx extra)"
        ) from None


def model_fingerprint(model: torch.nn.Module) -> str:
    """A SHA-256 of the model's config, every weight, the library versions and this module's
    source: the name of its cached export.

    Examples
    --------
    >>> from transformers import BertConfig, BertForMaskedLM
    >>> _ = torch.manual_seed(0)
    >>> cfg = BertConfig(vocab_size=20, hidden_size=8, num_hidden_layers=1,
    ...                  num_attention_heads=2, intermediate_size=8)
    >>> a, b = BertForMaskedLM(cfg), BertForMaskedLM(cfg)
    >>> model_fingerprint(a) == model_fingerprint(a), model_fingerprint(a) == model_fingerprint(b)
    (True, False)
    """
    import onnxruntime
    import transformers

    digest = hashlib.sha256()
    versions = [torch.__version__, transformers.__version__, onnxruntime.__version__]
    digest.update(json.dumps([model.config.to_dict(), versions], sort_keys=True).encode())
    digest.update(Path(__file__).read_bytes())
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(
            tensor.detach().cpu().contiguous().reshape(-1).view(torch.uint8).numpy().tobytes()
        )
    return digest.hexdigest()


class _FirstLayers(torch.nn.Module):
    """The embeddings and every layer but the last: the hidden states the last layer reads."""

    def __init__(self, model: Any) -> None:
        super().__init__()
        self.embeddings = model.base_model.embeddings
        self.layers = torch.nn.ModuleList(list(encoder_layers(model))[:-1])

    def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
        hidden = self.embeddings(input_ids=input_ids, token_type_ids=token_type_ids)
        # additive mask over keys, read alike by eager and SDPA attention
        blocked = (attention_mask[:, None, None, :] == 0).to(hidden.dtype)
        additive = blocked * torch.finfo(hidden.dtype).min
        for layer in self.layers:
            hidden = layer(hidden, attention_mask=additive)
        return hidden


def _export(model: Any, target: Path) -> None:
    """Export :class:`_FirstLayers` of ``model`` to ``target/first_layers.onnx`` with its
    manifest, atomically (:func:`li_adger.io.atomic.atomic_dir`)."""
    example = torch.tensor([[2, 5, 6, 3], [2, 7, 3, 0]])
    inputs = (example, (example != 0).long(), torch.zeros_like(example))
    batch, length = torch.export.Dim("batch"), torch.export.Dim("length")
    print(f"exporting the encoder to ONNX once, into {target}", file=sys.stderr)
    # the exporter reports its steps on stdout, which may carry a command's JSON
    with (
        atomic_dir(target) as staging,
        torch.no_grad(),
        contextlib.redirect_stdout(sys.stderr),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")
        torch.onnx.export(
            _FirstLayers(model).eval(),
            inputs,
            str(staging / _FILE),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["hidden"],
            dynamic_shapes=({0: batch, 1: length},) * 3,
            dynamo=True,
            verbose=False,
        )
        write_manifest(staging)  # last: the export is complete


class OnnxFirstLayers:
    """The encoder's hidden states before its last layer, computed by ONNX Runtime.

    Call with ``input_ids``, ``attention_mask`` and ``token_type_ids`` (int64 tensors of shape
    (B, L)); returns a float32 tensor (B, L, d). ``cache`` defaults to
    :func:`baselines.models.cache.models_dir` ``/onnx``.
    """

    def __init__(self, model: Any, *, cache: Path | None = None) -> None:
        import onnxruntime

        folder = (cache or models_dir() / "onnx") / model_fingerprint(model)
        trusted_folder(folder, lambda: _export(model, folder), what="the ONNX export", hashes=True)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = torch.get_num_threads()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # idle threads sleep instead of spinning: PyTorch runs the last layer in between
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.path = folder / _FILE
        self._session = onnxruntime.InferenceSession(
            str(self.path), options, providers=["CPUExecutionProvider"]
        )

    def __call__(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
        feed = {
            "input_ids": input_ids.numpy(),
            "attention_mask": attention_mask.numpy(),
            "token_type_ids": token_type_ids.numpy(),
        }
        return torch.from_numpy(self._session.run(["hidden"], feed)[0])
