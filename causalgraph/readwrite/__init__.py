"""Files in and out, one home per file format: graph files (:mod:`.formats`) and plain texts
(:mod:`.texts`).
"""

__all__: list[str] = []
