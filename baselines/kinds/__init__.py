"""One scorer per kind of model: n-gram, causal LM, masked LM (PLL), CoLA classifier; linked scores and cloze units."""
