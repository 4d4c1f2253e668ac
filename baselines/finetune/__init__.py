"""Fine-tuning encoders on CoLA (or another registered task), restart after restart.

``spec`` describes a run (:class:`~baselines.finetune.spec.FinetuneSpec`), ``tasks`` the
registry of tasks (CoLA built in, :mod:`baselines.finetune.cola_task`), ``batches`` the
training order and padding, ``train`` one restart with ``transformers.Trainer`` and ``runs``
the run folder: one prediction file per restart, resumable, shared out over the processes of
``torchrun`` or ``accelerate launch``. The command is ``python -m baselines finetune``
(docs/finetune.md).
"""
