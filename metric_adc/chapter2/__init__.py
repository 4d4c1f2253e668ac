"""The thesis's Chapter 2 for any classifier: CoLA restarts (Table 2.1), the analysis set by
feature (Figures 2-1/2-2), the acrobatic sentences (Figure 2-3), the disagreement tables
(Tables 2.5, 2.7, 2.8, 3.2–3.5) and the correlation matrices (Figures 2-4, 2-6, 3-1, 3-3).

``runs.py`` reads a fine-tuning run folder; ``stability.py`` the thesis's stability study;
``acrobatic.py`` and ``orders.py`` the acrobatic sentences; ``restarts.py`` Table 2.1;
``features.py`` the analysis set; ``disagreements.py`` and ``matrix.py`` the ADC tables;
``plots.py`` the figures.
"""
