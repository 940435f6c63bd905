"""Your own corpus in the minimal relations format: write a file, load it, score it, see what is missing.

Writes a three-column file (text, cause, effect) and a file with the correlation label, scores both with
the complexity metrics (a metric whose label a file lacks is NaN, with a note naming the column), and
shows that a task needing the label is refused while the graph-only chain task runs.
"""

import tempfile
from pathlib import Path

from causalgraph.datasets import example_relations_path, load_corpus
from causalgraph.errors import ConfigError
from causalgraph.metrics.complexity import complexity_table
from causalgraph.tasks import get_task

rows = [("Deforestation raises runoff, which erodes soil and lowers yields.", "deforestation", "runoff", "positive"),
        ("Deforestation raises runoff, which erodes soil and lowers yields.", "runoff", "soil erosion", "positive"),
        ("Deforestation raises runoff, which erodes soil and lowers yields.", "soil erosion", "crop yields", "negative"),
        ("Irrigation lifts yields.", "irrigation", "crop yields", "positive")]

with tempfile.TemporaryDirectory() as tmp:
    three = Path(tmp) / "three.csv"
    three.write_text("text,cause,effect\n" + "".join(f'"{t}",{c},{e}\n' for t, c, e, _ in rows), encoding="utf-8")
    labelled = Path(tmp) / "labelled.tsv"
    labelled.write_text("text\tcause\teffect\tcorrelation\n" + "".join("\t".join(r) + "\n" for r in rows),
                        encoding="utf-8")
    for f in (three, labelled):
        corpus = load_corpus(f)
        table = complexity_table(corpus)
        print(f"{f.name}: {len(corpus)} statements, lacks {', '.join(corpus.lacks)}")
        print(table[["statement_id", "c_corr", "c_pol", "c_norm"]].to_string(index=False))
        for note in table.attrs["notes"]:
            print("  note:", note)
    try:
        get_task("corri").items(load_corpus(three), "0_1")
    except ConfigError as exc:
        print("refused:", exc)
    print("ccr-member items on the three-column file:", len(get_task("ccr-member").items(load_corpus(three), "A_5")))

print("the shipped example:", example_relations_path().name, [s.id for s in load_corpus(example_relations_path())])
