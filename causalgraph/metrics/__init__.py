"""Metrics computed on causal graphs and statements."""
