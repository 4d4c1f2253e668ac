"""A Gradio app to explore ADC results and evaluate your own scores."""
