"""The split-half human ceiling: how well two halves of the participants meet the ADC."""
