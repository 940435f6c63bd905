"""Run a causalgraph task in inspect_ai, then bring the log back as a causalgraph run.

Needs ``pip install 'causalgraph[inspect]'``.  From the command line the same
task runs on any inspect provider::

    inspect eval causalgraph/ccr_member -T variant=A_5 --model openai/gpt-4o-mini --limit 50
    causalgraph bench import-inspect logs/<the log>.eval --out runs/ccr-member-inspect
    causalgraph bench report runs/ccr-member-inspect

Here the model is inspect's ``mockllm`` with a scripted answer per prompt
(no network, no key): "Yes" when the event is both a cause and an effect in
the graph (so in the middle of a chain), else "No" — a guess that misses the
chains' ends, whose scores inspect prints and ``bench report`` reproduces from
the imported run.

    python examples/inspect_eval.py [OUT_DIR]
"""

import sys
import tempfile

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from causalgraph.bench.scoring import report_rows
from causalgraph.cli._common import emit_table
from causalgraph.interop.inspect import inspect_task
from causalgraph.interop.inspect_log import import_inspect_log

out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-inspect-")


def guess(messages, tools, tool_choice, config):
    prompt = messages[-1].text
    graph, _, question = prompt.partition("Based on this graph")
    event = question.split("determine whether ", 1)[-1].split(" belongs to", 1)[0]
    middle = f"({event}, " in graph and f", {event})" in graph
    text = "<Answer>Yes</Answer>" if middle else "<Answer>No</Answer>"
    out = ModelOutput.from_content(model="guess", content=text)
    # Usage given, so that mockllm does not count tokens with a tokenizer it would download.
    out.usage = ModelUsage(input_tokens=len(prompt.split()), output_tokens=1, total_tokens=len(prompt.split()) + 1)
    return out


task = inspect_task("ccr-member", "A_5")  # what `inspect eval causalgraph/ccr_member -T variant=A_5` builds
log, = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=guess), limit=100,
                    log_dir=f"{out}/logs", display="none")
(scores,) = log.results.scores
print("inspect:", {name: round(m.value, 4) for name, m in scores.metrics.items()})
print("first sample:", log.samples[0].id, log.samples[0].metadata["statement_id"],
      log.samples[0].scores["bench_scorer"].answer)

res = import_inspect_log(log.location, f"{out}/run")
print(f"{res.path}: {res.written} lines imported")
emit_table(report_rows(res.metrics, run_name="imported"), "table",
           columns=["run", "variant", "items", "parse_fail_rate", "precision", "recall", "f1", "f1_ci95"])
