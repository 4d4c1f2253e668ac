"""The packaged offline models: where they are, converted once and cached, and the CoLA fine-tune."""
