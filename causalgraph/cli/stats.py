"""``causalgraph stats``: the paper's statistical analyses over benchmark runs.

* ``stats mcnemar RUN_A RUN_B`` — Table 21 (McNemar per variant, Bonferroni);
* ``stats kruskal RUN --metric c_norm`` — Table 22 (Kruskal-Wallis, ε², Dunn/Holm);
* ``stats consistency RUN [--member-run RUN]`` — incoherent chain predictions (§6.3);
  ``stats consistency --signs RUN…`` — whether sign answers compose along chains;
* ``stats compare RUN [RUN …] --by encoding|event-names|graph-edit|variant|model|prompts`` — arms of a study (issues 16, 26);
* ``stats agreement RUN [RUN …]`` — agreement across the epochs of runs with repeated sampling;
* ``stats difficulty RUN [RUN …]`` — which features make items hard (logistic models, issue 26);
* ``stats irt RUN RUN RUN …`` — item difficulty and run ability (Rasch model, issue 26);
* ``stats power [RUN [RUN]]`` — power, MDE and statements needed for a paired comparison (issue 37).
"""

from __future__ import annotations

import argparse
import sys

from ..errors import ConfigError
from ._common import (add_data_option, add_format_option, add_list_option, add_power_design_options,
                      add_scoring_metric_option, emit_json,
                      emit_table, nonnegative_int)
from ..stats import mcnemar_runs, kruskal_runs, consistency, sign_consistency
from ..datasets import load_corpus
from ..metrics.complexity import complexity_table
from ..stats.compare import COLUMNS as COMPARE_COLUMNS, compare_runs, graph_columns as compare_graph_columns
from ..alignment.events import ALIGN_RULES, DEFAULT_RULE
from ..stats.difficulty import (COLUMNS as DIFFICULTY_COLUMNS, MIN_STATEMENTS_TEST, difficulty_runs, plot_difficulty,
                                 table_rows)
from ..stats.epochs import AGREEMENT_COLUMNS, agreement_runs
from ..stats.irt import irt_runs
from ..stats.power import Design, pilot_pair, pilot_run, power_table
from ..stats.ranking import rank_runs
from ._rank import emit_ranking
from .._core.outputs import output_file

__all__ = ["register"]

MCNEMAR_COLUMNS = ["variant_a", "variant_b", "n", "excluded", "b", "c", "statistic", "p", "sig"]
KRUSKAL_COLUMNS = ["variant", "k", "n", "excluded", "H", "p", "epsilon2", "sig", "dunn_significant", "note"]
DUNN_COLUMNS = ["variant", "group_a", "group_b", "n_a", "n_b", "z", "p", "p_adj", "significant"]


def _pair(text: str) -> tuple[str, str]:
    a, sep, b = text.partition(":")
    if not sep or not a or not b:
        raise argparse.ArgumentTypeError(f"{text!r}: expected VARIANT_A:VARIANT_B, e.g. 0_1:RC_0_1")
    return a, b


#: The analyses, in the order ``causalgraph stats --help`` lists them; `causalgraph --help` names them all
#: from this list, and register() refuses to build a parser whose analyses differ from it.
ANALYSES = ("mcnemar", "kruskal", "consistency", "compare", "agreement", "difficulty", "power", "irt")


def register(sub) -> None:
    p = sub.add_parser("stats", help=f"statistical analyses over runs: {', '.join(ANALYSES)}",
                       description="Statistical analyses of benchmark runs, as in the ClimateCause paper "
                                   "(§6.3, Tables 21 and 22), and for studies of prompts, encodings and models: "
                                   f"{', '.join(ANALYSES)}.")
    ssub = p.add_subparsers(dest="stats_command", metavar="ANALYSIS")
    ssub.required = True
    _register_analyses(ssub)
    if tuple(ssub.choices) != ANALYSES:  # a new analysis is listed in the help texts, never forgotten there
        raise RuntimeError(f"stats analyses {tuple(ssub.choices)} differ from ANALYSES {ANALYSES}")


def _register_analyses(ssub) -> None:
    m = ssub.add_parser("mcnemar", help="McNemar's test per prompt variant between two runs (Table 21)",
                        description="McNemar's test per prompt variant between two runs, Bonferroni-corrected over "
                                    "the variants. A position run compared with a membership run is collapsed to "
                                    "membership (start/middle/end -> yes, none -> no).")
    m.add_argument("run_a", metavar="RUN_A", help="run directory (e.g. CorrI, or chain membership)")
    m.add_argument("run_b", metavar="RUN_B", help="run directory (e.g. CorrI+RC, or chain position)")
    m.add_argument("--alpha", type=float, default=0.05, help="family-wise level (default 0.05; each test at alpha/m)")
    m.add_argument("--exact", action="store_true", help="binomial test instead of chi-squared")
    m.add_argument("--midp", action="store_true", help="mid-p binomial test (implies --exact)")
    m.add_argument("--no-correction", action="store_true", help="chi-squared without continuity correction")
    add_list_option(m, "--pair", item_type=_pair, metavar="A:B",
                   help="pair variant A of RUN_A with variant B of RUN_B (default: by variant id)")
    m.add_argument("--on", choices=("auto", "labels", "correct"), default="auto",
                   help="pair the predicted labels (Table 21), or whether each answer is right; auto (default): "
                        "correct when one run was generated and the other scored by log-likelihood (--method)")
    add_format_option(m)
    m.set_defaults(func=run_mcnemar)

    k = ssub.add_parser("kruskal", help="Kruskal-Wallis of a statement score across predicted labels (Table 22)",
                        description="Per variant of RUN: Kruskal-Wallis H test of a statement-level score (C(s) by "
                                    "default) across the predicted labels, with epsilon squared "
                                    "((H-k+1)/(n-k)) and Dunn's post-hoc test.")
    k.add_argument("run", metavar="RUN", help="run directory (e.g. CCR+ECI+RC membership or position)")
    k.add_argument("--metric", default="c_norm",
                   help="column of `causalgraph complexity` to test (default c_norm = C(s); also c_raw, c_com, "
                        "c_ex, c_nest, c_corr, c_pol, density, n_tokens)")
    add_data_option(k, help_extra="; the corpus the run was built from")
    k.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    k.add_argument("--p-adjust", choices=["holm", "bonferroni", "none"], default="holm",
                   help="correction of Dunn's pairwise p-values (default holm)")
    k.add_argument("--posthoc", action="store_true", help="print Dunn's pairwise comparisons instead")
    add_format_option(k)
    k.set_defaults(func=run_kruskal)

    c = ssub.add_parser("consistency", help="incoherent chain predictions per variant (§6.3)",
                        description="Chain predictions no chain can produce: one or two predicted members in a "
                                    "statement, a start without an end (or the reverse), and membership answers "
                                    "that disagree with the position answers of the same variant.")
    c.add_argument("run", metavar="RUN", nargs="+",
                   help="chain membership or position run directory; with --signs, every run of edge and endpoint "
                        "answers")
    c.add_argument("--signs", action="store_true",
                   help="compositional consistency of sign answers: how often a chain's endpoint answer is the "
                        "composition of its edge answers (runs of relation signs, multi-hop chains, net effects), "
                        "with a 95%% interval over statements")
    c.add_argument("--chains", action="store_true", help="with --signs: one row per chain instead of the summary")
    c.add_argument("--member-run", metavar="RUN", default=None,
                   help="membership run to compare a position RUN with, item by item")
    add_list_option(c, "--pair", item_type=_pair, metavar="P:M",
                   help="pair position variant P with membership variant M")
    c.add_argument("--by-statement", action="store_true", help="one row per variant and statement")
    add_format_option(c)
    c.set_defaults(func=run_consistency)

    cmp_ = ssub.add_parser("compare", help="arms of a study compared per task: F1 difference with its interval, "
                                           "McNemar with Holm",
                           description="Pair the items of runs across arms (encodings, event names, graph edits, "
                                       "variants, models or prompt catalogs) and report per task the difference in F1 "
                                       "with an interval over statements (CR2 t, or --interval bootstrap) and "
                                       "McNemar's test with Holm's correction; --rank ranks the arms instead.")
    cmp_.add_argument("runs", nargs="+", metavar="RUN", help="run directories (tasks, models and variants may mix)")
    cmp_.add_argument("--by", choices=["encoding", "event-names", "graph-edit", "variant", "model", "prompts"],
                      required=True,
                      help="the axis arms differ along (graph-edit: each edited item against its real version; "
                           "prompts: the runs' prompt catalogs, authors or tables)")
    cmp_.add_argument("--alpha", type=float, default=0.05, help="family-wise level of Holm's correction per task; "
                      "the intervals are at 1 - alpha (default 0.05: 95%%)")
    cmp_.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples of statements (default 1000)")
    cmp_.add_argument("--seed", type=nonnegative_int, default=0, help="bootstrap seed (default 0)")
    cmp_.add_argument("--chi2", action="store_true", help="McNemar's chi-squared (continuity-corrected) instead "
                                                          "of the exact binomial test")
    cmp_.add_argument("--rank", action="store_true",
                      help="rank the arms instead: each arm's score with its interval, tie groups after Holm over "
                           "all pairs (compact letter display: arms sharing a letter are not separable) and a "
                           "bootstrap interval of its rank, resampling statements")
    cmp_.add_argument("--midp", action="store_true", help="McNemar's mid-p binomial test instead of the exact one")
    cmp_.add_argument("--interval", choices=["cr2", "bootstrap"], default=None,
                      help="interval of the F1 difference: cr2 (default; linearised F1, CR2 standard error over "
                           "statements, Bell-McCaffrey t) or bootstrap (percentile over statement resamples, "
                           "widened for few statements)")
    cmp_.add_argument("--test", choices=["mcnemar", "clustered"], default="mcnemar",
                      help="the p-values Holm corrects: mcnemar (default; do the arms answer these items alike) "
                           "or clustered (accuracy difference over statements, CR2 t: holds when the arms' "
                           "difference varies by statement)")
    cmp_.add_argument("--align", choices=list(ALIGN_RULES), default=DEFAULT_RULE,
                      help="graph-first arms (GF_… variants): how the events of the graph an answer wrote are matched "
                           f"to the gold events before its edge F1 is computed (default: {DEFAULT_RULE})")
    add_scoring_metric_option(cmp_)
    add_format_option(cmp_)
    cmp_.set_defaults(func=run_compare)

    ag = ssub.add_parser("agreement", help="agreement across the epochs of runs with repeated sampling "
                                           "(identical answers, Fleiss' kappa)",
                         description="Per run and variant of runs made with `bench run --epochs N`: the share of "
                                     "items answered identically in every epoch, and Fleiss' kappa with each epoch "
                                     "a rater and each distinct answer a category.")
    ag.add_argument("runs", nargs="+", metavar="RUN", help="run directories with epochs")
    add_format_option(ag)
    ag.set_defaults(func=run_agreement)

    d = ssub.add_parser("difficulty", help="which item features predict wrong answers: odds ratios per SD "
                                           "(logistic, clustered by statement; or mixed)",
                        description="Per run and variant (or pooled), regress each item's correctness on "
                                    "standardised features of the item and its statement: odds ratio per standard "
                                    "deviation, 95% interval, p (Holm over the features), n items, n statements "
                                    "and the model's AUC. See docs/statistics.md.")
    d.add_argument("runs", nargs="+", metavar="RUN", help="run directories")
    add_list_option(d, "--features", metavar="F[,F…]",
                    help="features: c_com, c_ex, c_nest, c_corr, c_pol, c_raw, c_norm (C(s)), "
                         "density, n_tokens, depth, breadth, n_nodes, n_chains; of sign items hops, negative_edges, "
                         "n_paths, conflicting; factors position, encoding, "
                        "event_names, graph_edit, variant (default: the five components the items support)")
    d.add_argument("--model", choices=["logit", "mixed"], default="logit",
                   help="logit: logistic regression, SEs clustered by statement (default); mixed: random "
                        "intercept per statement (Bayesian, statsmodels BinomialBayesMixedGLM)")
    d.add_argument("--pool", action="store_true", help="one model over every run and variant, with the variant "
                                                       "as a factor")
    add_data_option(d, help_extra="; the corpus the runs were built from")
    d.add_argument("--alpha", type=float, default=0.05, help="interval level 1-alpha and Holm's level (default 0.05)")
    d.add_argument("--plot", metavar="FILE.png|svg", default=None,
                   help="also plot observed accuracy by decile of a feature with the fitted curve and its band")
    d.add_argument("--plot-feature", metavar="F", default=None,
                   help="feature of the plot (default c_norm when fitted, else the first numeric feature)")
    add_format_option(d)
    d.set_defaults(func=run_difficulty)

    pw = ssub.add_parser("power", help="power of a paired comparison of two arms, the smallest detectable "
                                        "difference and the statements needed (McNemar exact, clustered)",
                         description="Power to detect an accuracy difference between two arms answering the same "
                                     "items, for McNemar's exact test and the statement-clustered test (CR2, "
                                     "Bell-McCaffrey df), with the design effect of statements; the minimum "
                                     "detectable effect at --power, and the statements (items) needed. From a "
                                     "pilot run pair, one pilot run and --delta, or --items/--statements with "
                                     "--discordance, --delta and --icc. See docs/statistics.md.")
    pw.add_argument("runs", nargs="*", metavar="RUN", help="pilot: two runs of the same items (A then B), or one "
                                                           "run with --delta")
    add_power_design_options(pw)
    pw.add_argument("--items", type=int, default=None, help="items of the planned run (no pilot: with --statements)")
    pw.add_argument("--statements", type=int, default=None,
                    help="statements of the planned run (default: the pilot's; sizes cycled from the pilot)")
    pw.add_argument("--alpha", type=float, default=0.05, help="level of the test (default 0.05)")
    pw.add_argument("--power", dest="target", type=float, default=0.8, help="power for the MDE and the "
                                                                             "statements needed (default 0.8)")
    pw.add_argument("--mode", choices=["analytic", "simulation"], default="analytic",
                    help="analytic formulas (default) or Monte-Carlo simulation of the tests")
    pw.add_argument("--n-sim", type=int, default=2000, help="simulated datasets (default 2000)")
    pw.add_argument("--seed", type=nonnegative_int, default=0, help="simulation seed (default 0)")
    add_format_option(pw)
    pw.set_defaults(func=run_power)

    irt = ssub.add_parser("irt", help="item difficulty and run ability across runs (Rasch model)",
                          description="A Rasch (1PL) model of three or more runs over the same items, each run and "
                                      "variant a respondent: each run's ability and each item's difficulty with "
                                      "95% intervals, the Spearman correlation of item difficulty with each "
                                      "complexity metric, and the hardest items. See docs/statistics.md.")
    irt.add_argument("runs", nargs="+", metavar="RUN", help="run directories (at least three runs × variants)")
    add_data_option(irt, help_extra="; the corpus the runs were built from")
    irt.add_argument("--show", choices=["abilities", "items", "correlations", "hardest"], default=None,
                     help="print one table only (by default: table prints the abilities, correlations and "
                          "hardest items; csv the items, hardest first; json everything)")
    irt.add_argument("--top", type=int, default=10, metavar="N", help="hardest items to list (default 10)")
    irt.add_argument("--alpha", type=float, default=0.05, help="interval level 1-alpha (default 0.05)")
    add_format_option(irt)
    irt.set_defaults(func=run_irt)


def run_mcnemar(args) -> int:
    table = mcnemar_runs(args.run_a, args.run_b, alpha=args.alpha, exact=args.exact or args.midp,
                         correction=not args.no_correction, midp=args.midp, pairs=args.pair, on=args.on)
    if args.format == "json":
        emit_json(table.to_dict(orient="records"))
        return 0
    cols = list(MCNEMAR_COLUMNS) + (["p_bonferroni", "threshold", "method"] if args.format == "csv" else [])
    cols += ["paired_on"] if "paired_on" in table.columns else []
    emit_table(table, args.format, columns=cols)
    if args.format == "table" and len(table):
        m = len(table)
        print(f"\n{table['method'].iloc[0]}; * = significant at Bonferroni alpha = {args.alpha:g}/{m} "
              f"= {args.alpha / m:.4g} ({int(table['significant'].sum())} of {m})")
    return 0


def run_kruskal(args) -> int:
    table = complexity_table(load_corpus(args.data))
    if args.metric not in table.columns or args.metric in ("statement_id", "statement"):
        names = [c for c in table.columns if c not in ("statement_id", "statement")]
        raise ConfigError(f"--metric {args.metric!r}: not a complexity column; expected one of {', '.join(names)}")
    values = dict(zip(table["statement_id"], table[args.metric]))
    res = kruskal_runs(args.run, values, alpha=args.alpha, p_adjust=args.p_adjust, metric=args.metric)
    if args.posthoc:
        if args.format == "json":
            emit_json(res.dunn.to_dict(orient="records"))
        else:
            emit_table(res.dunn, args.format, columns=DUNN_COLUMNS + (["task", "mean_rank_a", "mean_rank_b"]
                                                                      if args.format == "csv" else []))
        return 0
    if args.format == "json":
        emit_json(res.table.to_dict(orient="records"))
        return 0
    emit_table(res.table, args.format, columns=KRUSKAL_COLUMNS + (["task", "metric", "significant"]
                                                                  if args.format == "csv" else []))
    if args.format == "table" and len(res.table):
        print(f"\nKruskal-Wallis of {args.metric} across predicted labels; epsilon2 = (H-k+1)/(n-k); "
              f"* = p < {args.alpha:g}; dunn_significant = pairs with {args.p_adjust}-adjusted p < {args.alpha:g}")
    return 0


def run_consistency(args) -> int:
    if args.signs:
        if args.member_run or args.pair or args.by_statement:
            raise ConfigError("--signs reads the runs it is given; --member-run, --pair and --by-statement are for "
                              "the chain-position analysis")
        srep = sign_consistency(args.run)
        frame = srep.chains if args.chains else srep.table
        if args.format == "json":
            emit_json(frame.to_dict(orient="records"))
            return 0
        if args.format == "table" and not args.chains:
            # An undefined rate or interval (nothing answered, one statement) is shown as such beside its note.
            rows = frame.to_dict(orient="records")
            for row in rows:
                row.update({k: "—" for k in ("rate", "ci_low", "ci_high") if row[k] is None or row[k] != row[k]})
            emit_table(rows, args.format, columns=list(frame.columns))
        else:
            emit_table(frame, args.format)
        if args.format == "table" and not args.chains:
            print("\nrate = consistent / answered chains (every edge answered with a sign, the endpoints answered); "
                  "95% percentile interval resampling statements (1000 resamples), widened for few statements; "
                  "simulated coverage 93% at 7 statements, 94% at 17 (docs/statistics.md)")
        return 0
    if args.chains:
        raise ConfigError("--chains lists the chains of --signs; add --signs")
    if len(args.run) != 1:
        raise ConfigError(f"consistency reads one chain run ({len(args.run)} given); several runs are for --signs")
    args.run = args.run[0]
    rep = consistency(args.run, member_run=args.member_run, pairs=args.pair)
    frame = rep.by_statement if args.by_statement else rep.by_variant
    if args.format == "json":
        emit_json({"by_statement" if args.by_statement else "by_variant": frame.to_dict(orient="records"),
                   "summary": rep.summary})
        return 0
    emit_table(frame, args.format)
    if args.format == "table":
        s = rep.summary
        print(f"\n{s['statements']} statements; {s['statements_fewer_than_3_any_variant']} with one or two predicted "
              f"members in at least one variant; of the {s['chainless_statements']} statements without a gold chain, "
              f"{s['chainless_fewer_than_3_any_variant']}.", file=sys.stdout)
    return 0


def run_compare(args) -> int:
    if args.n_boot < 1:
        raise ConfigError(f"--n-boot {args.n_boot}: expected an integer >= 1")
    if args.chi2 and args.midp:
        raise ConfigError("--chi2 and --midp: choose one McNemar test")
    if args.rank:
        if args.scoring_metric:
            raise ConfigError("--scoring-metric with --rank: the arms are ranked by their F1 (tie groups, rank "
                              "intervals); compare a scoring metric's differences without --rank")
        return _compare_rank(args)
    if args.interval == "bootstrap":
        # Kept for comparison with earlier results; it is the one interval of the command that misses the level.
        print("causalgraph stats: note: --interval bootstrap does not hold its level on designs like ClimateCause's "
              "(F1 difference under no effect rejected 1.4-4 % at 8-15 statements, 6.1-8.1 % at 30-63; "
              "docs/statistics.md); the default, cr2, does", file=sys.stderr)
    table = compare_runs(args.runs, by=args.by, alpha=args.alpha, n_boot=args.n_boot, seed=args.seed,
                         exact=not args.chi2, midp=args.midp, interval=args.interval or "cr2", test=args.test,
                         align=args.align, scoring_metrics=args.scoring_metric)
    if args.format == "json":
        emit_json(table.to_dict(orient="records"))
        return 0
    rows = table.to_dict(orient="records")
    scoring_cols = [c for c in table.columns if c not in COMPARE_COLUMNS and c not in compare_graph_columns(rows)
                    and c != "note"]
    for row in rows:
        if isinstance(row.get("note"), str):
            print(f"causalgraph stats: note: {row['task']} {row['arm_a']} vs {row['arm_b']}: {row['note']}",
                  file=sys.stderr)
            if args.format == "table":  # no score is shown as such, never as an empty cell or 0
                row.update({k: "—" for k in ("f1_a", "f1_b", "diff", "ci_low", "ci_high", "p", "p_holm",
                                             "significant") if row.get(k) is None or row.get(k) != row.get(k)})
        if isinstance(row.get("scoring_note"), str):
            print(f"causalgraph stats: note: {row['task']} {row['arm_a']} vs {row['arm_b']}: {row['scoring_note']}",
                  file=sys.stderr)
        if isinstance(row.get("graph_note"), str):
            print(f"causalgraph stats: note: {row['task']} {row['arm_a']} vs {row['arm_b']}: {row['graph_note']}",
                  file=sys.stderr)
        if args.format == "table":
            for x in "ab":  # a graph-first arm (its counts are always there) with no item scored: shown as "—"
                if _defined(row.get(f"right_answer_wrong_graph_{x}")) and not _defined(row.get(f"gap_{x}")):
                    row.update({f"{c}_{x}": "—" for c in ("accuracy", "edge_f1", "gap", "gap_ci_low", "gap_ci_high")
                                if not _defined(row.get(f"{c}_{x}"))})
    graph_cols = [c for c in compare_graph_columns(rows) if c != "graph_note"]
    emit_table(rows, args.format, columns=COMPARE_COLUMNS + [c for c in scoring_cols if c != "scoring_note"]
               + graph_cols)
    if args.format == "table" and len(table):
        level = f"{100 * (1 - args.alpha):g}%"
        how = ("CR2 t over statements (linearised F1, Bell-McCaffrey df)" if args.interval in (None, "cr2")
               else f"bootstrap over statements ({args.n_boot} resamples, percentile widened for few statements)")
        mc = "chi-squared" if args.chi2 else ("mid-p" if args.midp else "exact")
        if graph_cols:
            print(f"\ngraph-first arms: accuracy and edge F1 (events aligned by --align {args.align}) of the same "
                  f"paired items, gap = accuracy - edge F1 with a {level} bootstrap interval over statements; a right "
                  f"graph is one with edge F1 = 1 on the aligned graph; items whose graph could not be read are left "
                  f"out of all three (noted)")
        print(f"\ndiff = f1_b - f1_a with a {level} interval: {how}; p: McNemar {mc} on correct answers "
              f"(b: a right, b wrong); p_clustered: accuracy difference over statements (CR2 t, df); Holm over "
              f"each task's {'McNemar' if args.test == 'mcnemar' else 'clustered'} p-values, significant = "
              f"p_holm <= {args.alpha:g}")
    return 0


def _defined(value) -> bool:
    """Not ``None`` and not NaN (a DataFrame fills the columns an arm lacks with NaN)."""
    return value is not None and value == value


def _compare_rank(args) -> int:
    if args.chi2 or args.midp:
        raise ConfigError("--rank tests the pairs with McNemar's exact test (or --test clustered); drop --chi2/--midp")
    if args.interval is not None:
        raise ConfigError("--interval is the pairwise F1 difference's; --rank gives each arm's score a CR2 t interval: "
                          "drop --interval")
    table = rank_runs(args.runs, by=args.by, alpha=args.alpha, n_boot=args.n_boot, seed=args.seed, test=args.test)
    emit_ranking("stats", table, args.format, alpha=args.alpha, n_boot=args.n_boot, test=args.test)
    return 0


def run_agreement(args) -> int:
    table = agreement_runs(args.runs)
    if args.format == "json":
        emit_json(table.to_dict(orient="records"))
        return 0
    # shown for a stopped run
    cols = [c for c in AGREEMENT_COLUMNS if c != "samples_pending" or table["samples_pending"].any()]
    emit_table(table, args.format, columns=cols if len(args.runs) > 1 else cols[1:])
    if args.format == "table" and len(table):
        print("\nidentical = share of the items answered in every epoch that got one answer in all; fleiss_kappa: "
              "each epoch a rater, each distinct answer a category (blank when undefined: every answer the same)")
    return 0


def run_difficulty(args) -> int:
    features = args.features  # None: the default features; an empty name is refused by the parser
    if args.plot:
        from pathlib import Path

        if Path(args.plot).suffix.lower() not in (".png", ".svg"):
            raise ConfigError(f"--plot {args.plot}: expected a .png or .svg file name")
        output_file(args.plot, "--plot")
    fits = difficulty_runs(args.runs, features, data=args.data, model=args.model, pooled=args.pool, alpha=args.alpha)
    for fit in fits:
        for note in fit.notes:
            print(f"causalgraph stats: note: {fit.label.get('run')} {fit.label.get('variant')}: {note}",
                  file=sys.stderr)
    rows = table_rows(fits)
    for fit in fits:  # the test left undefined on too few statements: said once per model, in one line
        if fit.rows and fit.rows[0]["significant"] is None and "test not estimable" in (fit.rows[0]["note"] or ""):
            print(f"causalgraph stats: note: {fit.label.get('run')} {fit.label.get('variant')}: p, p_holm and "
                  f"significant not estimable: {fit.n_statements} statements, at least {MIN_STATEMENTS_TEST} needed "
                  f"for a term's test to hold its level (docs/statistics.md); odds ratios and intervals kept",
                  file=sys.stderr)
    # The table first: a plot that cannot be drawn must not lose the fitted numbers.
    status = _difficulty_table(args, rows)
    if args.plot:
        try:
            plot_difficulty(fits, args.plot, args.plot_feature, alpha=args.alpha)
        except Exception as exc:  # noqa: BLE001 - any drawing failure is one line, the table stands
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            why = why if isinstance(exc, ConfigError) else f"{type(exc).__name__}: {why}"
            print(f"causalgraph stats: error: --plot {args.plot} not drawn ({why}); the table above is complete",
                  file=sys.stderr)
            return 2
    return status


def _difficulty_table(args, rows) -> int:
    if args.format == "json":
        emit_json(rows)
        return 0
    cols = DIFFICULTY_COLUMNS if args.format == "csv" or len(args.runs) > 1 else DIFFICULTY_COLUMNS[1:]
    if args.format == "table":  # an undefined test shows as such, never as an empty cell
        rows = [{**r, **{k: "—" for k in ("p", "p_holm", "significant")
                         if r.get(k) is None or r[k] != r[k]}} for r in rows]
    emit_table(rows, args.format, columns=cols, floatfmt=".4g")
    if args.format == "table" and rows:
        kind = ("logistic regression; CR2 standard errors clustered by statement with Bell-McCaffrey degrees of "
                "freedom (df) for each term's t interval and p" if args.model == "logit"
                else "binomial mixed model with a random intercept per statement (variational Bayes; intervals "
                     "and p: posterior mean and SD with a t of the design's Bell-McCaffrey df)")
        print(f"\nodds_ratio per SD of each numeric feature (a factor level: against the most frequent level); "
              f"{kind}; p_holm over each model's features, significant = p_holm <= {args.alpha:g}; auc of the fitted "
              f"linear predictor")
    return 0


def run_power(args) -> int:
    if len(args.runs) > 2:
        raise ConfigError(f"stats power: got {len(args.runs)} runs; give a pilot pair (two runs), one run with "
                          f"--delta, or none with --items, --discordance and --delta")
    if len(args.runs) == 2:
        design = pilot_pair(args.runs[0], args.runs[1])
        if args.discordance is not None:
            raise ConfigError("--discordance: a pilot pair measures it; leave it out")
        if args.delta is not None:
            design = design.with_delta(args.delta)
    elif len(args.runs) == 1:
        if args.delta is None:
            raise ConfigError("stats power RUN: give the difference to detect with --delta (or a second pilot run)")
        design = pilot_run(args.runs[0], delta=args.delta, discordance=args.discordance)
    else:
        missing = [f for f, v in (("--items", args.items), ("--discordance", args.discordance),
                                  ("--delta", args.delta)) if v is None]
        if missing:
            raise ConfigError(f"stats power without a pilot needs {', '.join(missing)} (and --statements, --icc)")
        if args.items < 1:
            raise ConfigError(f"--items {args.items}: expected an integer >= 1")
        G = args.items if args.statements is None else args.statements
        if not 1 <= G <= args.items:
            raise ConfigError(f"--statements {G}: expected 1 to --items ({args.items})")
        sizes = [args.items // G + (1 if i < args.items % G else 0) for i in range(G)]
        if not 0 <= args.discordance <= 1:
            raise ConfigError(f"--discordance {args.discordance:g}: expected a share in [0, 1]")
        design = Design(sizes, 0.0, args.discordance, 0.0).with_delta(args.delta)
    if args.icc is not None:
        design.icc = args.icc
    if args.runs and args.statements is not None:
        design = design.scaled(args.statements)
    elif args.runs and args.items is not None:
        raise ConfigError("--items with a pilot: give --statements (the pilot's mix of statement sizes is kept)")
    rows = power_table(design, alpha=args.alpha, target=args.target, mode=args.mode, n_sim=args.n_sim,
                       seed=args.seed)
    for note in design.notes:
        print(f"causalgraph stats: note: {note}", file=sys.stderr)
    for row in rows:
        if row["note"]:
            print(f"causalgraph stats: note: {row['test']}: {row['note']}", file=sys.stderr)
    if args.format == "json":
        emit_json({"source": design.source, "rows": rows})
        return 0
    if args.format == "table":  # an undefined value is shown as such, never as an empty cell or 0
        rows = [{**r, **{k: "—" for k in ("power", "mde", "statements_needed", "items_needed")
                         if r[k] is None or r[k] != r[k]}} for r in rows]
    emit_table(rows, args.format, columns=["test", "mode", "items", "statements", "discordance", "delta", "icc",
                                           "deff", "power", "mde", "statements_needed", "items_needed"],
               floatfmt=".4g")
    if args.format == "table":
        print(f"\n{design.source}; power at alpha {args.alpha:g} (two-sided) to detect delta = accuracy B - A; "
              f"mde: smallest |delta| detected with power {args.target:g} at this discordance; statements_needed "
              f"(items): for power {args.target:g} at this delta, statement sizes as in the design"
              f"{f' (all three simulated: {args.n_sim} datasets, seed {args.seed})' if args.mode == 'simulation' else ''}"
              f"; deff = 1 + "
              f"(sum n_s^2/n - 1) icc. mcnemar: exact test, items as independent; clustered: accuracy difference "
              f"with a CR2 SE over statements (what stats compare --test clustered runs)")
    return 0


def run_irt(args) -> int:
    if args.top < 1:
        raise ConfigError(f"--top {args.top}: expected an integer >= 1")
    res = irt_runs(args.runs, data=args.data, alpha=args.alpha)
    hardest = res.items.head(args.top)
    tables = {"abilities": res.abilities, "items": res.items, "correlations": res.correlations, "hardest": hardest}
    if args.format == "json" and args.show is None:
        emit_json({"model": "rasch", "item_sd": res.item_sd, "items_dropped": res.dropped,
                   "abilities": res.abilities.to_dict(orient="records"),
                   "correlations": res.correlations.to_dict(orient="records"),
                   "items": res.items.to_dict(orient="records")})
        return 0
    if args.show is not None or args.format == "csv":
        # CSV holds one table: the items (hardest first) unless --show names another.
        t = tables[args.show or "items"]
        if args.format == "json":
            emit_json(t.to_dict(orient="records"))
        else:
            emit_table(t, args.format, floatfmt=".4g")
        return 0
    for i, name in enumerate(("abilities", "correlations", "hardest")):
        if args.format == "table":
            print(("\n" if i else "") + {"abilities": "Run abilities (logit scale, against the average item)",
                                         "correlations": "Item difficulty against the statement metrics (Spearman)",
                                         "hardest": f"The {len(hardest)} hardest items"}[name])
        emit_table(tables[name], args.format, floatfmt=".4g")
    if args.format == "table":
        print(f"\nRasch model (statsmodels BinomialBayesMixedGLM: abilities fixed, items random); SD of item "
              f"difficulties {res.item_sd:.3g}; {res.dropped} items not answered by every run left out; "
              f"open a statement with `causalgraph view --statement ID`")
    return 0
