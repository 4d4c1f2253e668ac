"""The Acceptability Delta Criterion (ADC) and the BLiMP criterion for minimal-pair evaluation."""
