"""Exact strategy: dealer probabilities, expected values, charts, house edge and advice."""
