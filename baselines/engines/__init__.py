"""Engines that run a causal LM for the scorers, other than transformers in this process.

``vllm_args.py`` turns ``--engine-arg KEY=VALUE`` and the scorer's options into the arguments
of ``vllm.LLM`` (pure, no vLLM needed); ``vllm_scorer.py`` is the vLLM causal-LM scorer, which
shares how text becomes scored tokens with the Hugging Face one
(:mod:`baselines.kinds.causal_base`) and gets each token's log-probability from vLLM's
``prompt_logprobs``. See ``docs/scorers.md`` (The vLLM engine).
"""
