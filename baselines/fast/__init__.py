"""The scorers' fast paths: packed rows and the sliced output layer (causal), the last layer at scored positions and ONNX Runtime (PLL)."""
