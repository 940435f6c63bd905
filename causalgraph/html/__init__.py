"""The HTML pages of graphs: the kit every page is built from (:mod:`.kit`) and the graph page
(:mod:`.graph_page`).
"""

__all__: list[str] = []
