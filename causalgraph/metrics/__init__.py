"""Metrics computed on causal graphs and statements.

The package holds no code of its own; each metric is a module
(:mod:`~causalgraph.metrics.complexity`, :mod:`~causalgraph.metrics.chains`,
:mod:`~causalgraph.metrics.readability`, …), imported by name so that
``import causalgraph.metrics.paths`` loads nothing else.
"""

__all__: list[str] = []
