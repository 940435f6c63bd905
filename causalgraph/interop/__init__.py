"""Other harnesses' results as causalgraph runs.

* :mod:`causalgraph.interop.inspect_log` — an inspect_ai eval log of a
  ``causalgraph/<task>`` task becomes a run folder (``causalgraph bench
  import-inspect LOG``), which ``bench report``, ``stats`` and the viewer read
  like any run.
"""

__all__: list[str] = []
