/* causalgraph run viewer: item table with filters, search and sorting; item details; run comparison.
 * Everything from the data is written with textContent / createTextNode, never as HTML.
 * The data: one JSON object in <script id="cg-run-data">; prompts, responses and graphs are
 * gzip + base64 chunks inflated on demand with DecompressionStream. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("cg-run-data").textContent);
  var C = D.cols, DICT = D.dict, N = C.state.length, ROW_H = 25;
  var STATES = D.states, BUCKETS = D.buckets;
  var collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});
  // "1 item", "8 items": the rule of causalgraph.wording.plural.
  function plural(n, word) { return n.toLocaleString("en-US") + " " + word + (n === 1 ? "" : "s"); }

  // -- small DOM helpers (text only) ------------------------------------------------------
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") { e.textContent = attrs[k]; }
        else if (k === "cls") { e.className = attrs[k]; }
        else { e.setAttribute(k, attrs[k]); }
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) { return; }
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }
  function fmt(x, digits) {
    if (x === null || x === undefined || (typeof x === "number" && isNaN(x))) { return ""; }
    if (typeof x === "number") {
      if (Number.isInteger(x)) { return x.toLocaleString("en-US"); }
      return x.toFixed(digits === undefined ? 4 : digits);
    }
    return String(x);
  }
  function ci(v) { return v && v.length === 2 && v[0] !== null ? "[" + fmt(v[0]) + ", " + fmt(v[1]) + "]" : ""; }
  function table(headers, rows, opts) {
    opts = opts || {};
    var t = el("table", {cls: "grid" + (opts.sortable ? " sortable" : "")});
    if (opts.id) { t.id = opts.id; }
    var tr = el("tr");
    headers.forEach(function (h) { tr.appendChild(el("th", {text: h, cls: opts.sortable ? "sort" : ""})); });
    t.appendChild(el("thead", null, [tr]));
    var body = el("tbody");
    rows.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (cell) {
        var isNum = typeof cell === "number";
        var td = el("td", {cls: isNum ? "num" : ""});
        if (cell instanceof Node) { td.appendChild(cell); } else { td.textContent = fmt(cell); }
        if (isNum) { td.setAttribute("data-sort", String(cell)); }
        row.appendChild(td);
      });
      body.appendChild(row);
    });
    t.appendChild(body);
    if (opts.sortable) { makeSortable(t); }
    return t;
  }
  function makeSortable(t) {
    var ths = t.querySelectorAll("thead th");
    Array.prototype.forEach.call(ths, function (th, col) {
      th.addEventListener("click", function () {
        var desc = th.classList.contains("asc");
        Array.prototype.forEach.call(ths, function (h) { h.classList.remove("asc", "desc"); });
        th.classList.add(desc ? "desc" : "asc");
        var body = t.tBodies[0];
        var rows = Array.prototype.map.call(body.rows, function (r, i) { return {r: r, i: i}; });
        function key(r) {
          var td = r.cells[col], v = td.getAttribute("data-sort");
          return v === null ? {n: false, v: td.textContent} : {n: true, v: parseFloat(v)};
        }
        rows.sort(function (a, b) {
          var ka = key(a.r), kb = key(b.r), c;
          if (ka.n && kb.n) { c = ka.v - kb.v; }
          else if (ka.n !== kb.n) { c = ka.n ? -1 : 1; }
          else { c = collator.compare(ka.v, kb.v); }
          if (desc) { c = -c; }
          return c !== 0 ? c : a.i - b.i;
        });
        rows.forEach(function (x) { body.appendChild(x.r); });
      });
    });
  }

  // -- compressed chunks --------------------------------------------------------------------
  var cache = {};
  function inflate(b64) {
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser has no DecompressionStream (Chromium 80+, Firefox 113+, Safari 16.4+)"));
    }
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }
  function chunk(kind, c) {
    var k = kind + ":" + c;
    if (!cache[k]) {
      var src = kind === "graphs" ? D.graphs : D[kind][c];
      cache[k] = src ? inflate(src) : Promise.resolve(kind === "graphs" ? {} : []);
    }
    return cache[k];
  }
  function runOf(i) { return D.runs[C.run[i]]; }
  function itemPart(kind, i) {
    var run = runOf(i), local = i - run.start;
    var c = run.chunk0 + Math.floor(local / D.chunk);
    return chunk(kind, c).then(function (arr) { return arr[local % D.chunk]; });
  }

  // -- header and summary ------------------------------------------------------------------------
  var multi = D.runs.length > 1;
  document.getElementById("subtitle").textContent = D.runs.map(function (r) {
    return r.name + ": " + r.task + " · " + r.model + " · " + plural(r.count, "item");
  }).join("  |  ");
  (function summary() {
    var box = document.getElementById("summary");
    D.runs.forEach(function (r, k) {
      box.appendChild(el("h3", {text: (multi ? "Run " + (k + 1) + ": " : "") + r.name}));
      box.appendChild(el("p", {cls: "muted", text: "task " + r.task + " (" + r.kind + (r.labels.length ? ": " + r.labels.join(", ") : "") +
        ") · model " + r.model + (r.dataset ? " · data " + r.dataset : "") +
        (r.prompts ? " · prompts " + r.prompts : "") + " · " + r.path}));
      // A variant none of whose items was answered has no score: "—", never an empty cell or a 0.
      function sc(s, x) { return s.n_scored === 0 ? "\u2014" : x; }
      var rows = r.summary.map(function (s) {
        return [s.variant, s.strategy, s.items, s.answered, s.errors, s.parse_failures,
                sc(s, s.precision), sc(s, s.recall), sc(s, s.f1), sc(s, ci(s.f1_ci95)), sc(s, s.accuracy),
                s.tokens_in, s.tokens_out,
                s.cost_usd === null || s.cost_usd === undefined ? "" : "$" + s.cost_usd.toFixed(4)];
      });
      var t = r.totals;
      rows.push(["all", "", t.items, t.answered, t.errors, t.parse_failures, "", "", "", "", "", t.tokens_in, t.tokens_out,
                 t.cost_usd === null || t.cost_usd === undefined ? "" : "$" + t.cost_usd.toFixed(4)]);
      var macro = r.summary.some(function (s) { return s.averaged === "macro"; });
      box.appendChild(table(["variant", "strategy", "items", "answered", "errors", "parse failures",
        macro ? "macro P" : "precision", macro ? "macro R" : "recall", macro ? "macro F1" : "F1", "F1 95% CI",
        "accuracy", "tokens in", "tokens out", "cost"], rows, {id: "summary-" + k}));
      // Scoring metrics asked for by name (bench view --scoring-metric, or the run's metrics.json): a table of
      // their own, a value with no number "undefined" (the notes say why), never a blank or a 0.
      var asked = r.summary.filter(function (s) { return s.scoring_metrics; });
      if (asked.length) {
        var names = asked[0].scoring_metrics.map(function (m) { return m[0]; });
        var head = ["variant"];
        names.forEach(function (n) { head.push(n, n + " 95% CI"); });
        box.appendChild(table(head, asked.map(function (s) {
          var row = [s.variant];
          s.scoring_metrics.forEach(function (m) {
            row.push(s.n_scored === 0 ? "\u2014" : (m[1] === null ? "undefined" : m[1]), m[2] ? ci(m[2]) : "");
          });
          return row;
        }), {id: "scoring-" + k}));
      }
      var ll = r.summary.filter(function (s) { return s.method === "loglik" || s.method === "choice-logprobs"; });
      if (ll.length) {
        // Scored by log-likelihood: both choice rules, calibration, and a reliability diagram per variant.
        var chosen = ll.some(function (s) { return s.method === "choice-logprobs"; });
        box.appendChild(el("p", {cls: "muted", text: chosen ?
          "Read from the chat model's generated-token log-probabilities (--method choice-logprobs): at the position " +
          "where the choices diverge, each choice's first distinguishing token (a choice outside top_logprobs gets " +
          "the k-th value as a bound); items whose answer departed from the choices are parsed. acc counts every " +
          "item; reached is the share read at the answer position; acc_norm is undefined; ECE, adaptive ECE and " +
          "Brier are over the items read." :
          "Scored by log-likelihood (--method loglik): acc takes the label whose " +
          "continuation has the highest summed log-probability (the figures above), acc_norm the highest per byte; " +
          "ECE over 15 equal-width bins and over 15 equal-size bins (adaptive), Brier score summed over the labels."}));
        box.appendChild(table(["variant", "acc", "acc_norm", "reached", "ECE", "adaptive ECE", "Brier", "items scored"],
          // A figure with no value beside answered items (acc_norm of choice-logprobs; ECE and Brier when no
          // item was read at the answer position) is "undefined", never a blank or a 0 (the notes say why).
          ll.map(function (s) {
            function und(x) { return x === null && s.n_scored !== 0 ? "undefined" : sc(s, x); }
            return [s.variant, sc(s, s.acc), und(s.acc_norm), s.reached === undefined ? "" : sc(s, s.reached),
                    und(s.ece), und(s.ece_adaptive), und(s.brier), s.calibrated]; }),
          {id: "calibration-" + k}));
        var diagrams = el("div", {cls: "cols"});
        ll.forEach(function (s) { if (s.reliability) { diagrams.appendChild(reliability(s)); } });
        box.appendChild(diagrams);
      }
      difficultySection(box, r, k);
      if (r.notes.length) {
        box.appendChild(el("ul", {cls: "notes"}, r.notes.map(function (n) { return el("li", {text: n}); })));
      }
    });
    if (D.notes && D.notes.length) {
      box.appendChild(el("ul", {cls: "notes"}, D.notes.map(function (n) { return el("li", {text: n}); })));
    }
  })();

  function svg(tag, attrs) {
    var e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function reliability(s) {
    // Accuracy against confidence per equal-width bin (bars), the diagonal of perfect calibration.
    var W = 260, H = 200, L = 34, B = 26, bins = s.reliability, w = (W - L - 6) / bins.length;
    var g = svg("svg", {width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", "class": "reliability"});
    var title = svg("title");
    title.textContent = "reliability diagram of " + s.variant;
    g.appendChild(title);
    var y = function (v) { return H - B - v * (H - B - 8); };
    g.appendChild(svg("rect", {x: L, y: 8, width: W - L - 6, height: H - B - 8, fill: "#fff", stroke: "#bbb"}));
    bins.forEach(function (b, m) {
      if (!b.count) { return; }
      var bar = svg("rect", {x: L + m * w, y: y(b.accuracy), width: Math.max(1, w - 1), height: y(0) - y(b.accuracy),
                             fill: "#4878d0"});
      var t = svg("title");
      t.textContent = "confidence " + fmt(b.lo, 2) + "–" + fmt(b.hi, 2) + ": " + b.count + " items, accuracy " +
        fmt(b.accuracy, 3) + ", mean confidence " + fmt(b.confidence, 3);
      bar.appendChild(t);
      g.appendChild(bar);
    });
    g.appendChild(svg("line", {x1: L, y1: y(0), x2: W - 6, y2: y(1), stroke: "#888", "stroke-dasharray": "4 3"}));
    [["0", L, H - 8], ["1", W - 12, H - 8], ["confidence", L + 70, H - 8], ["1", L - 12, 16], ["acc", 2, y(0.5)]].forEach(function (x) {
      var t = svg("text", {x: x[1], y: x[2], "font-size": "11", fill: "#444"});
      t.textContent = x[0];
      g.appendChild(t);
    });
    return el("div", null, [el("p", {cls: "muted", text: s.variant + " · ECE " + fmt(s.ece) + " · Brier " + fmt(s.brier)}), g]);
  }

  // Difficulty: observed accuracy by decile of a feature and the logistic fit on it (stats difficulty --plot).
  function featureName(f) { return f === "c_norm" ? "C(s)" : f; }
  function difficultySection(box, r, k) {
    var diff = r.difficulty || [];
    if (!diff.length) { return; }
    var fitted = diff.filter(function (d) { return d.bins; });
    var missing = diff.filter(function (d) { return !d.bins; });
    var name = featureName(diff[0].feature);
    box.appendChild(el("p", {cls: "muted", text: "Difficulty by " + name + ": accuracy in each decile of " + name +
      " (points, Wilson 95% interval) and a logistic regression of correctness on " + name + " alone, standard " +
      "errors clustered by statement (line, 95% band); odds ratio per SD of " + name + ". More features: " +
      "causalgraph stats difficulty."}));
    if (fitted.length) {
      box.appendChild(table(["variant", "odds ratio per SD", "95% CI", "p", "items", "statements"],
        fitted.map(function (d) { return [d.variant, d.odds_ratio, ci([d.ci_low, d.ci_high]), fmt(d.p) || "—", d.n_items, d.n_statements]; }),
        {id: "difficulty-" + k}));
      var plots = el("div", {cls: "cols"});
      fitted.forEach(function (d) { plots.appendChild(difficultyPlot(d)); });
      box.appendChild(plots);
      var untested = fitted.filter(function (d) { return d.term_note; });
      if (untested.length) {  // a p left undefined (too few statements): said, not left blank
        box.appendChild(el("ul", {cls: "notes difficulty-notes"}, untested.map(function (d) {
          return el("li", {text: d.variant + ": " + d.term_note});
        })));
      }
    }
    if (missing.length) {
      box.appendChild(el("ul", {cls: "notes difficulty-notes"}, missing.map(function (d) {
        return el("li", {text: d.variant + ": " + d.note});
      })));
    }
  }
  function difficultyPlot(d) {
    var W = 300, H = 210, L = 34, R = 8, T = 8, B = 30, name = featureName(d.feature);
    var xs = d.curve.map(function (p) { return p.x; });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs);
    var x = function (v) { return L + (x1 > x0 ? (v - x0) / (x1 - x0) : 0.5) * (W - L - R); };
    var y = function (v) { return H - B - v * (H - B - T); };
    var g = svg("svg", {width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", "class": "difficulty",
                        "data-variant": d.variant});
    var title = svg("title");
    title.textContent = "accuracy by decile of " + name + ", " + d.variant;
    g.appendChild(title);
    g.appendChild(svg("rect", {x: L, y: T, width: W - L - R, height: H - B - T, fill: "#fff", stroke: "#bbb"}));
    var band = d.curve.map(function (p) { return x(p.x).toFixed(1) + "," + y(p.hi).toFixed(1); })
      .concat(d.curve.slice().reverse().map(function (p) { return x(p.x).toFixed(1) + "," + y(p.lo).toFixed(1); }));
    g.appendChild(svg("polygon", {points: band.join(" "), fill: "#4878d0", "fill-opacity": "0.25", stroke: "none",
                                  "class": "band"}));
    g.appendChild(svg("polyline", {points: d.curve.map(function (p) { return x(p.x).toFixed(1) + "," + y(p.p).toFixed(1); }).join(" "),
                                   fill: "none", stroke: "#4878d0", "stroke-width": "2", "class": "fit"}));
    d.bins.forEach(function (b) {
      g.appendChild(svg("line", {x1: x(b.x), x2: x(b.x), y1: y(b.lo), y2: y(b.hi), stroke: "#222"}));
      var dot = svg("circle", {cx: x(b.x), cy: y(b.accuracy), r: 3.5, fill: "#222", "class": "bin"});
      var t = svg("title");
      t.textContent = name + (b.x_min === b.x_max ? " = " + fmt(b.x_min, 3) : " " + fmt(b.x_min, 3) + "–" + fmt(b.x_max, 3)) +
        ": " + plural(b.n, "item") + ", " +
        b.correct + " right, accuracy " + fmt(b.accuracy, 3) + " [" + fmt(b.lo, 3) + ", " + fmt(b.hi, 3) + "]";
      dot.appendChild(t);
      g.appendChild(dot);
    });
    [[fmt(x0, 2), L, H - 14], [fmt(x1, 2), W - R - 28, H - 14], [name, L + (W - L - R) / 2 - 12, H - 2],
     ["0", L - 12, y(0) + 4], ["1", L - 12, T + 10], ["acc", 2, y(0.5)]].forEach(function (a) {
      var t = svg("text", {x: a[1], y: a[2], "font-size": "11", fill: "#444"});
      t.textContent = a[0];
      g.appendChild(t);
    });
    return el("div", null, [el("p", {cls: "muted", text: d.variant + " · OR " + fmt(d.odds_ratio, 3) + " per SD · p " +
      (fmt(d.p, 3) || "—") + " · " + plural(d.n_items, "item")}), g]);
  }

  // -- filters ------------------------------------------------------------------------------------
  var filters = {run: -1, task: -1, variant: -1, statement: -1, gold: -1, bucket: -1,
                 states: STATES.map(function () { return true; }), query: ""};
  function counts(col, size) {
    var out = new Array(size).fill(0);
    for (var i = 0; i < N; i++) { out[col[i]]++; }
    return out;
  }
  var bucketOf = new Int32Array(N);
  for (var i0 = 0; i0 < N; i0++) { bucketOf[i0] = D.statements.bucket[C.statement[i0]]; }
  function select(id, name, values, col) {
    var s = document.getElementById(id), n = counts(col, values.length);
    s.appendChild(el("option", {value: "-1", text: "all (" + values.length + ")"}));
    var order = values.map(function (v, k) { return k; }).filter(function (k) { return n[k] > 0; });
    if (name !== "run" && name !== "bucket") { order.sort(function (a, b) { return collator.compare(values[a], values[b]); }); }
    order.forEach(function (k) {
      s.appendChild(el("option", {value: String(k), text: (values[k] === "" ? "(none)" : values[k]) + " (" + n[k] + ")"}));
    });
    s.addEventListener("change", function () { filters[name] = parseInt(s.value, 10); update(); });
  }
  select("f-run", "run", D.runs.map(function (r) { return r.name; }), C.run);
  select("f-task", "task", DICT.task, C.task);
  select("f-variant", "variant", DICT.variant, C.variant);
  select("f-statement", "statement", DICT.statement, C.statement);
  select("f-gold", "gold", DICT.value, C.gold);
  select("f-bucket", "bucket", BUCKETS, bucketOf);
  if (!multi) { document.getElementById("f-run").parentNode.hidden = true; }
  (function stateBoxes() {
    var box = document.getElementById("f-states"), n = counts(C.state, STATES.length);
    STATES.forEach(function (s, k) {
      var cb = el("input", {type: "checkbox", "data-state": s});
      cb.checked = true;
      cb.addEventListener("change", function () { filters.states[k] = cb.checked; update(); });
      box.appendChild(el("label", null, [cb, " ", el("span", {cls: "state state-" + s, text: s}), " (" + n[k] + ")"]));
    });
  })();

  // Search: item key, statement id and text, asked events, gold, answer, rule, variant, run name, and the
  // responses once they are inflated (the first search inflates them).
  var responses = null, responsesLoading = null;
  function loadResponses() {
    if (responsesLoading) { return responsesLoading; }
    document.body.setAttribute("data-searching", "1");
    var jobs = D.details.map(function (_, c) { return chunk("details", c); });
    responsesLoading = Promise.all(jobs).then(function (parts) {
      responses = new Array(N);
      D.runs.forEach(function (r) {
        for (var j = 0; j < r.count; j++) {
          var d = parts[r.chunk0 + Math.floor(j / D.chunk)][j % D.chunk];
          responses[r.start + j] = ((d.response || "") + "\n" + (d.error || "") + "\n" + (d.id || "")).toLowerCase();
        }
      });
      document.body.removeAttribute("data-searching");
      update();
    });
    return responsesLoading;
  }
  function hits(values, q) { return values.map(function (v) { return v.toLowerCase().indexOf(q) >= 0; }); }
  var searchBox = document.getElementById("search"), searchTimer = null;
  searchBox.addEventListener("input", function () {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () {
      filters.query = searchBox.value.trim().toLowerCase();
      if (filters.query && !responses) { loadResponses(); }
      update();
    }, 120);
  });

  // -- sorting --------------------------------------------------------------------------------
  function ranks(values) {
    var idx = values.map(function (v, k) { return k; });
    idx.sort(function (a, b) { return collator.compare(values[a], values[b]); });
    var r = new Int32Array(values.length);
    idx.forEach(function (k, pos) { r[k] = pos; });
    return r;
  }
  var COLUMNS = [
    {name: "run", label: "run", get: function (i) { return D.runs[C.run[i]].name; }, key: function (i) { return C.run[i]; }, hidden: !multi},
    {name: "variant", label: "variant", dict: "variant"},
    {name: "key", label: "item", dict: "key"},
    {name: "statement", label: "statement", dict: "statement"},
    {name: "asked", label: "asked about", dict: "asked"},
    {name: "gold", label: "gold", dict: "value"},
    {name: "answer", label: "answer", dict: "value"},
    {name: "rule", label: "parse rule", dict: "rule"},
    {name: "state", label: "outcome", get: function (i) { return STATES[C.state[i]]; }, key: function (i) { return C.state[i]; }},
    {name: "cs", label: "C(s)", get: function (i) { return fmt(D.statements.cs[C.statement[i]], 3); },
     key: function (i) { var v = D.statements.cs[C.statement[i]]; return v === null ? -1 : v; }},
    {name: "score", label: "token F1", get: function (i) { return fmt(C.score[i], 3); },
     key: function (i) { return C.score[i] === null ? -1 : C.score[i]; }, hidden: !C.score.length}
  ];
  COLUMNS.forEach(function (col) {
    if (col.dict) {
      var values = DICT[col.dict], data = C[col.name], rk = null;
      col.get = function (i) { return values[data[i]]; };
      col.key = function (i) { if (!rk) { rk = ranks(values); } return rk[data[i]]; };
    }
  });
  var shown = COLUMNS.filter(function (c) { return !c.hidden; });
  var sortCol = null, sortDesc = false;

  // -- filtering ------------------------------------------------------------------------------
  var visible = new Int32Array(0);
  function update() {
    var q = filters.query, qv = null;
    if (q) {
      qv = {};
      ["variant", "key", "statement", "asked", "value", "rule", "task"].forEach(function (d) { qv[d] = hits(DICT[d], q); });
      qv.text = hits(D.statements.text, q);
      qv.run = hits(D.runs.map(function (r) { return r.name; }), q);
    }
    var out = new Int32Array(N), n = 0;
    for (var i = 0; i < N; i++) {
      if (filters.run >= 0 && C.run[i] !== filters.run) { continue; }
      if (filters.task >= 0 && C.task[i] !== filters.task) { continue; }
      if (filters.variant >= 0 && C.variant[i] !== filters.variant) { continue; }
      if (filters.statement >= 0 && C.statement[i] !== filters.statement) { continue; }
      if (filters.gold >= 0 && C.gold[i] !== filters.gold) { continue; }
      if (filters.bucket >= 0 && bucketOf[i] !== filters.bucket) { continue; }
      if (!filters.states[C.state[i]]) { continue; }
      if (qv && !(qv.variant[C.variant[i]] || qv.key[C.key[i]] || qv.statement[C.statement[i]] || qv.text[C.statement[i]] ||
                  qv.asked[C.asked[i]] || qv.value[C.gold[i]] || qv.value[C.answer[i]] || qv.rule[C.rule[i]] ||
                  qv.task[C.task[i]] || qv.run[C.run[i]] || (responses && responses[i].indexOf(q) >= 0))) { continue; }
      out[n++] = i;
    }
    visible = out.slice(0, n);
    if (sortCol) {
      var arr = Array.prototype.slice.call(visible), key = sortCol.key, sign = sortDesc ? -1 : 1;
      var keys = new Float64Array(N);
      arr.forEach(function (i) { keys[i] = key(i); });
      arr.sort(function (a, b) { return (keys[a] - keys[b]) * sign || a - b; });
      visible = Int32Array.from(arr);
    }
    document.getElementById("count").textContent = n.toLocaleString("en-US") + " of " + plural(N, "item") +
      (q && !responses ? " (searching the responses…)" : "");
    document.body.setAttribute("data-visible", String(n));
    wrap.scrollTop = 0;
    render();
  }

  // -- virtual table ----------------------------------------------------------------------------
  var wrap = document.getElementById("table-wrap"), tbody = document.querySelector("#items-table tbody");
  var head = document.querySelector("#items-table thead tr"), selected = -1;
  shown.forEach(function (col) {
    var th = el("th", {text: col.label, "data-col": col.name});
    th.addEventListener("click", function () {
      if (sortCol === col) { sortDesc = !sortDesc; } else { sortCol = col; sortDesc = false; }
      Array.prototype.forEach.call(head.children, function (h) { h.classList.remove("asc", "desc"); });
      th.classList.add(sortDesc ? "desc" : "asc");
      update();
    });
    head.appendChild(th);
  });
  function render() {
    // The box grows with its rows up to 58% of the window: plan for its largest height.
    var top = wrap.scrollTop, height = Math.max(wrap.clientHeight, window.innerHeight * 0.58);
    var first = Math.max(0, Math.floor(top / ROW_H) - 10), last = Math.min(visible.length, Math.ceil((top + height) / ROW_H) + 10);
    var frag = document.createDocumentFragment();
    var pad = el("tr", {cls: "pad"}, [el("td", {colspan: String(shown.length)})]);
    pad.firstChild.style.height = (first * ROW_H) + "px";
    frag.appendChild(pad);
    for (var p = first; p < last; p++) {
      var i = visible[p], tr = el("tr", {cls: "item" + (i === selected ? " selected" : ""), "data-i": String(i)});
      shown.forEach(function (col) {
        var td = el("td");
        var v = col.get(i);
        if (col.name === "state") { td.appendChild(el("span", {cls: "state state-" + v, text: v})); }
        else { td.textContent = v; td.title = v; }
        tr.appendChild(td);
      });
      frag.appendChild(tr);
    }
    var padEnd = el("tr", {cls: "pad"}, [el("td", {colspan: String(shown.length)})]);
    padEnd.firstChild.style.height = ((visible.length - last) * ROW_H) + "px";
    frag.appendChild(padEnd);
    tbody.textContent = "";
    tbody.appendChild(frag);
  }
  var ticking = false;
  wrap.addEventListener("scroll", function () {
    if (!ticking) { ticking = true; requestAnimationFrame(function () { ticking = false; render(); }); }
  });
  window.addEventListener("resize", function () { render(); });
  tbody.addEventListener("click", function (ev) {
    var tr = ev.target.closest("tr.item");
    if (tr) { showItem(parseInt(tr.getAttribute("data-i"), 10)); }
  });

  // -- aligned items across runs ---------------------------------------------------------------------
  var byKey = {};
  for (var i1 = 0; i1 < N; i1++) { byKey[C.run[i1] + "\u0000" + DICT.variant[C.variant[i1]] + "\u0000" + DICT.key[C.key[i1]]] = i1; }
  function aligned(i) {
    if (!D.compare) { return [i]; }
    var r = C.run[i], v = DICT.variant[C.variant[i]], key = DICT.key[C.key[i]], base = v;
    if (r > 0) {
      var p = D.compare.pairs[r - 1];
      var hit = p && p.variants.filter(function (x) { return x[1] === v; })[0];
      if (!hit) { return [i]; }
      base = hit[0];
    }
    return D.runs.map(function (_, k) {
      var vk = base;
      if (k > 0) {
        var pk = D.compare.pairs[k - 1], m = pk && pk.variants.filter(function (x) { return x[0] === base; })[0];
        if (!m) { return -1; }
        vk = m[1];
      }
      var j = byKey[k + "\u0000" + vk + "\u0000" + key];
      return j === undefined ? -1 : j;
    });
  }

  // -- item detail -------------------------------------------------------------------------------------
  var detail = document.getElementById("detail"), network = null, overlayNet = null;
  function highlighted(text, words) {
    var p = el("p", {cls: "statement", id: "d-statement"}), low = text.toLowerCase(), spans = [];
    words.forEach(function (w) {
      if (!w) { return; }
      var lw = w.toLowerCase(), from = 0, k;
      while ((k = low.indexOf(lw, from)) >= 0) { spans.push([k, k + lw.length]); from = k + lw.length; }
    });
    spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
    var last = 0;
    spans.forEach(function (s) {
      if (s[0] < last) { return; }
      p.appendChild(document.createTextNode(text.slice(last, s[0])));
      p.appendChild(el("mark", {cls: "asked", text: text.slice(s[0], s[1])}));
      last = s[1];
    });
    p.appendChild(document.createTextNode(text.slice(last)));
    return p;
  }
  function drawGraph(box, nodes, edges, done) {
    if (typeof vis === "undefined") { box.textContent = "vis-network is not loaded: no graph."; return null; }
    var net = new vis.Network(box, {nodes: new vis.DataSet(nodes), edges: new vis.DataSet(edges)}, D.options);
    net.once("stabilizationIterationsDone", function () { net.setOptions({physics: {enabled: false}}); if (done) { done(); } });
    if (!nodes.length && done) { done(); }
    return net;
  }
  function statementGraph(sidIdx, asked, box) {
    return chunk("graphs", 0).then(function (graphs) {
      var g = graphs[DICT.statement[sidIdx]];
      if (!g) { box.parentNode.replaceChild(el("p", {cls: "muted", text: "No graph for this statement."}), box); return; }
      var wanted = {};
      asked.forEach(function (a) { wanted[a.toLowerCase()] = true; });
      var nodes = g.nodes.map(function (n) {
        var copy = Object.assign({}, n);
        if (wanted[String(n.event).toLowerCase()]) {
          copy.borderWidth = 5;
          copy.color = {background: n.color, border: "#111111", highlight: {background: n.color, border: "#111111"}};
          copy.font = {size: 17, face: "sans-serif", bold: true};
          copy.asked = true;
        }
        return copy;
      });
      if (network) { network.destroy(); }
      network = drawGraph(box, nodes, g.edges, function () { document.body.setAttribute("data-graph", "1"); });
      window.cgRunView.graph = {nodes: nodes, edges: g.edges, network: network};
    });
  }
  var PAIR_COLORS = {matched: "#1a9850", predicted: "#d95f02", gold: "#8c8c8c", merge: "#7570b3", split: "#7570b3"};
  // Node kinds of the aligned overlay (viewer/overlay.py): fill, border, border dashes.
  var NODE_STYLE = {aligned: ["#a6d96a", "#1a9850", false], missing: ["#ffffff", "#8c8c8c", [4, 4]],
                    split: ["#ffffff", "#7570b3", [4, 4]], unaligned: ["#fdae61", "#d95f02", false],
                    merge: ["#fdae61", "#7570b3", [2, 3]]};
  function scoreText(x) { return x === null || x === undefined ? "" : ", score " + fmt(x, 3); }
  function nodeTitle(n) {
    if (n.kind === "aligned") {
      return "gold: " + n.gold + "\npredicted: " + n.predicted + "\naligned by " + n.rule + scoreText(n.score);
    }
    if (n.kind === "missing") { return "gold: " + n.gold + "\nmissed: no predicted event aligned to it"; }
    if (n.kind === "split") {
      return "gold: " + n.gold + "\nmissed; split (" + n.rule + scoreText(n.score) + "): close to predicted " + n.predicted +
             ", which is aligned to another gold event";
    }
    if (n.kind === "merge") {
      return "predicted: " + n.predicted + "\nunaligned; merge (" + n.rule + scoreText(n.score) + "): close to gold " + n.gold +
             ", which another predicted event holds";
    }
    return "predicted: " + n.predicted + "\nunaligned: no gold event near it";
  }
  function overlay(d, box) {
    var o = d.match.overlay, nodes, edges;
    nodes = o.nodes.map(function (n) {
      var st = NODE_STYLE[n.kind], label = n.event;
      if (n.kind === "aligned" && n.predicted !== n.gold) { label = n.gold + "\n\u2248 " + n.predicted; }
      if (n.kind === "aligned" && n.rule !== "exact") { label += "\n(" + n.rule + scoreText(n.score) + ")"; }
      return {id: n.id, label: label, title: nodeTitle(n), kind: n.kind, event: n.event, side: n.side, shape: "box",
              color: {background: st[0], border: st[1], highlight: {background: st[0], border: "#111111"}},
              shapeProperties: {borderDashes: st[2]}, borderWidth: 2, font: {face: "sans-serif"}};
    });
    edges = o.edges.map(function (e) {
      var link = e.kind === "merge" || e.kind === "split";
      var what = {matched: "matched: ", gold: "only gold: ", predicted: "only predicted: ",
                  merge: "merge: ", split: "split: "}[e.kind];
      return {from: e.from, to: e.to, arrows: link ? "" : "to", kind: e.kind, cause: e.cause, effect: e.effect,
              color: {color: PAIR_COLORS[e.kind], inherit: false}, width: link ? 1 : 3,
              dashes: e.kind === "gold" ? [4, 4] : e.kind === "predicted" ? [10, 5] : link ? [2, 3] : false,
              title: what + e.cause + (link ? " \u2248 " : " \u2192 ") + e.effect};
    });
    if (overlayNet) { overlayNet.destroy(); }
    overlayNet = drawGraph(box, nodes, edges, function () { document.body.setAttribute("data-graph", "1"); });
    window.cgRunView.overlay = {nodes: nodes, edges: edges, network: overlayNet, alignment: o.alignment, rule: o.rule};
  }
  function alignmentTable(o) {
    var c = o.counts, parts = Object.keys(c).filter(function (k) { return ["merges", "splits", "unaligned", "missing"].indexOf(k) < 0; })
      .map(function (k) { return k + " " + c[k]; });
    var box = el("div");
    box.appendChild(el("p", {cls: "muted", id: "d-align-counts", text: "events aligned by " + o.rule + ": " + parts.join(", ") +
      " \u00b7 " + c.merges + " merge(s), " + c.splits + " split(s), " + c.unaligned + " unaligned predicted, " +
      c.missing + " missed gold (the rules of compare-graphs --align; merges and splits rename nothing)"}));
    box.appendChild(table(["predicted event", "gold event", "rule", "score"], o.alignment.map(function (r) {
      return [r.predicted === null ? "\u2014" : r.predicted, r.gold === null ? "\u2014" : r.gold, r.rule,
              r.score === null ? "\u2014" : fmt(r.score, 4)];
    }), {id: "d-alignment"}));
    return box;
  }
  function pairsOf(d, side) { return d.match && d.match.pairs ? d.match.pairs[side] : []; }
  function pairSection(d, run) {
    var m = d.match, box = el("div");
    var gold = pairsOf(d, "gold"), pred = pairsOf(d, "predicted");
    var modeSel = el("select", {id: "d-mode"}, [el("option", {value: "paper", text: "paper (best match per pair)"}),
                                                el("option", {value: "hungarian", text: "hungarian (one-to-one)"})]);
    var scoreP = el("p", {id: "d-scores"}), tables = el("div", {cls: "cols"});
    function draw() {
      var mode = modeSel.value, s = m.scores[mode];
      scoreP.textContent = "token P " + fmt(s.token.precision, 3) + " R " + fmt(s.token.recall, 3) + " F1 " + fmt(s.token.f1, 3) +
        " · exact hits " + s.exact.hits + " (P " + fmt(s.exact.precision, 3) + " R " + fmt(s.exact.recall, 3) + " F1 " + fmt(s.exact.f1, 3) + ")" +
        " · rule: " + D.rules[mode];
      var partnerP = pred.map(function () { return null; }), partnerG = gold.map(function () { return null; });
      if (mode === "paper") {
        m.paper.predicted.forEach(function (b, i) { partnerP[i] = b; });
        m.paper.gold.forEach(function (b, j) { partnerG[j] = b; });
      } else {
        m.hungarian.forEach(function (a) { partnerP[a[0]] = [a[1], a[2]]; partnerG[a[1]] = [a[0], a[2]]; });
      }
      tables.textContent = "";
      tables.appendChild(el("div", null, [el("h3", {text: "Gold pairs (" + gold.length + ")"}),
        table(["#", "cause", "effect", "exact", mode === "paper" ? "best predicted" : "matched to", "S"],
              gold.map(function (p, j) {
                var b = partnerG[j];
                return ["g" + (j + 1), p[0], p[1], m.exact.gold[j] ? "yes" : "", b && b[0] >= 0 ? "p" + (b[0] + 1) : "", b && b[0] >= 0 ? b[1] : ""];
              }), {id: "d-gold-pairs"})]));
      tables.appendChild(el("div", null, [el("h3", {text: "Predicted pairs (" + pred.length + ")"}),
        table(["#", "cause", "effect", "bucket", mode === "paper" ? "best gold" : "matched to", "S"],
              pred.map(function (p, i) {
                var b = partnerP[i];
                return ["p" + (i + 1), p[0], p[1], m.buckets[i], b && b[0] >= 0 ? "g" + (b[0] + 1) : "", b && b[0] >= 0 ? b[1] : ""];
              }), {id: "d-pred-pairs"})]));
    }
    modeSel.addEventListener("change", draw);
    box.appendChild(el("h3", {text: "Pairs: gold against predicted"}));
    box.appendChild(el("label", null, ["matching: ", modeSel]));
    box.appendChild(scoreP);
    box.appendChild(tables);
    if (m.missed) { box.appendChild(el("p", {cls: "muted", text: m.missed + " gold pair(s) missed (no prediction for this row)."})); }
    draw();
    box.appendChild(el("h3", {text: "Overlay: predicted events drawn on the gold events they align to"}));
    var legend = el("p", {cls: "legend"});
    [["matched", "matched edge", "solid"], ["predicted", "only predicted", "dashed"], ["gold", "only gold", "dotted"],
     ["merge", "merge / split link", "dotted"]].forEach(function (x) {
      var sw = el("span", {cls: "ln"});
      sw.style.borderTopStyle = x[2];
      sw.style.borderColor = PAIR_COLORS[x[0]];
      legend.appendChild(sw);
      legend.appendChild(document.createTextNode(x[1]));
    });
    [["aligned", "gold event with its aligned predicted event"], ["missing", "missed gold event"], ["split", "split gold event"],
     ["unaligned", "unaligned predicted event"], ["merge", "merged predicted event"]].forEach(function (x) {
      var sw = el("span", {cls: "nd"}), st = NODE_STYLE[x[0]];
      sw.style.background = st[0];
      sw.style.borderColor = st[1];
      sw.style.borderStyle = st[2] ? "dashed" : "solid";
      legend.appendChild(sw);
      legend.appendChild(document.createTextNode(x[1]));
    });
    box.appendChild(legend);
    if (m.overlay) { box.appendChild(alignmentTable(m.overlay)); }
    var g = el("div", {cls: "graph", id: "d-overlay"});
    box.appendChild(g);
    setTimeout(function () { overlay(d, g); }, 0);
    return box;
  }
  function stateBadge(i) { var s = STATES[C.state[i]]; return el("span", {cls: "state state-" + s, text: s}); }
  function answerBlock(i, d, p, compact) {
    var run = runOf(i), box = el("div", {"data-i": String(i)});
    if (compact) { box.appendChild(el("h3", null, [run.name + " (" + DICT.variant[C.variant[i]] + "): ", stateBadge(i)])); }
    var info = [["item id", d.id], ["gold", typeof d.gold === "string" ? d.gold : JSON.stringify(d.gold)],
                ["parsed answer", typeof d.label === "string" ? d.label : JSON.stringify(d.label)],
                ["parse rule", d.rule === null ? "(none: " + (d.error ? "the request failed" : "no rule read an answer") + ")" : d.rule],
                ["error", d.error], ["finish reason", d.finish_reason], ["source", d.source], ["attempts", d.attempts],
                ["tokens in / out", d.usage ? fmt(d.usage.prompt_tokens) + " / " + fmt(d.usage.completion_tokens) : ""],
                ["cost", d.cost_usd === null || d.cost_usd === undefined ? "not recorded" : "$" + d.cost_usd.toFixed(6)],
                ["latency", d.latency_s === null || d.latency_s === undefined ? "" : d.latency_s + " s"]];
    box.appendChild(table(["field", "value"], info.filter(function (x) { return x[1] !== null && x[1] !== undefined && x[1] !== ""; }),
                          {id: compact ? "" : "d-fields"}));
    box.appendChild(el("h3", {text: "Response"}));
    var pre = el("pre", {cls: "response"});
    pre.textContent = d.response === null || d.response === undefined ? "(no response: the request failed)" : d.response;
    box.appendChild(pre);
    if (d.choices && d.choices.length) {
      // Scored by log-likelihood: every label's continuation, its log-probability and its share of the mass.
      // (choice-logprobs: d.scoring is null for a failed request, which was read by no rule)
      var read = d.scoring !== undefined;
      box.appendChild(el("h3", {text: (read ? "Choices (read from top_logprobs: " +
        (d.scoring === null ? "not read, the request failed" : d.scoring) +
        (d.reason ? ", " + d.reason : "") + "; gold: " : "Choices (scored by log-likelihood; gold: ") + d.gold + ")"}));
      if (d.note) { box.appendChild(el("p", {cls: "muted", text: d.note})); }
      var bounded = d.bounded || [];
      box.appendChild(table(["label", "continuation", "log-probability", "probability", ""], d.choices.map(function (x) {
        var marks = [x[0] === d.gold ? "gold" : "", x[0] === d.label ? "chosen" : "",
                     bounded.indexOf(x[0]) >= 0 ? "bound: outside top_logprobs (the smallest value returned)" : ""]
          .filter(Boolean).join(", ");
        return [x[0], x[1], x[2], x[3], marks];
      }), {id: compact ? "" : "d-choices"}));
    }
    if (d.epochs && d.epochs.length) {
      // A run with epochs: the fields above are the majority answer's; here is every epoch's.
      box.appendChild(el("h3", {text: "Every epoch (" + d.epochs.length + " samples; above: the majority answer, epoch " + (d.epoch || 1) + ")"}));
      box.appendChild(table(["epoch", "parsed answer", "response"], d.epochs.map(function (x) {
        return [x[0], x[3] ? "(request failed)" : (typeof x[1] === "string" ? x[1] : JSON.stringify(x[1])),
                x[3] ? x[3] : (x[2] === null ? "" : x[2])];
      }), {id: compact ? "" : "d-epochs"}));
    }
    if (!compact) {
      box.appendChild(el("h3", {text: "Prompt"}));
      if (!p) {
        box.appendChild(el("p", {cls: "muted", text: "The run stores only the prompt's sha256 (" + (d.prompt_sha256 || "none") +
          "); the prompt could not be rebuilt from the task and corpus (see the notes above)."}));
      } else {
        var note = {verified: "Rebuilt from the task and the corpus; its sha256 equals the one recorded when the item was asked.",
                    unverified: "Rebuilt from the task and the corpus; the record holds no sha256 to check it against.",
                    differs: "Rebuilt from the task and the corpus, but its sha256 differs from the one recorded: the prompt sent was different."}[p[2]];
        box.appendChild(el("p", {cls: p[2] === "differs" ? "warn" : "muted", text: note}));
        if (p[0]) { box.appendChild(el("p", {cls: "muted", text: "system"})); box.appendChild(el("pre", {cls: "prompt-system", text: p[0]})); }
        box.appendChild(el("pre", {cls: "prompt", text: p[1]}));
      }
    }
    return box;
  }
  function showItem(i) {
    selected = i;
    render();
    document.body.removeAttribute("data-detail");
    document.body.removeAttribute("data-graph");
    var run = runOf(i), rows = aligned(i);
    Promise.all([itemPart("details", i), itemPart("prompts", i)].concat(rows.map(function (j) {
      return j >= 0 && j !== i ? itemPart("details", j) : Promise.resolve(null);
    }))).then(function (parts) {
      var d = parts[0], p = parts[1];
      detail.textContent = "";
      detail.hidden = false;
      detail.appendChild(el("h2", {id: "d-title"}, ["Item " + (d.id || DICT.key[C.key[i]]) + " ", stateBadge(i)]));
      detail.appendChild(el("p", {cls: "muted", text: "run " + run.name + " · task " + DICT.task[C.task[i]] + " · variant " +
        DICT.variant[C.variant[i]] + " · statement " + (DICT.statement[C.statement[i]] || "(none)")}));
      var sid = C.statement[i], text = D.statements.text[sid], asked = DICT.asked[C.asked[i]] ? DICT.asked[C.asked[i]].split(" · ") : [];
      if (text) {
        detail.appendChild(el("h3", {text: "Statement" + (D.statements.cs[sid] !== null ? " (C(s) = " + fmt(D.statements.cs[sid], 3) + ")" : "")}));
        detail.appendChild(highlighted(text, asked));
      }
      if (asked.length) { detail.appendChild(el("p", {cls: "muted", text: "asked about: " + asked.join("; ")})); }
      if (d.edge_sources) { detail.appendChild(sourcesBlock(d.edge_sources)); }
      if (d.match) {
        detail.appendChild(pairSection(d, run));
      } else if (D.statements.graph[sid]) {
        detail.appendChild(el("h3", {text: "Causal graph (the asked event has a thick black border)"}));
        var g = el("div", {cls: "graph", id: "d-graph"});
        detail.appendChild(g);
        statementGraph(sid, asked, g);
      }
      detail.appendChild(answerBlock(i, d, p, false));
      var chainsOfItem = chainBlock(i);
      if (chainsOfItem) { detail.appendChild(chainsOfItem); }
      var others = rows.filter(function (j) { return j >= 0 && j !== i; });
      if (others.length) {
        detail.appendChild(el("h2", {text: "The same item in the other runs"}));
        var cols = el("div", {cls: "cols", id: "d-others"});
        rows.forEach(function (j, k) { if (j >= 0 && j !== i) { cols.appendChild(answerBlock(j, parts[2 + k], null, true)); } });
        detail.appendChild(cols);
      }
      document.body.setAttribute("data-detail", String(i));
      detail.scrollIntoView({block: "start"});
    }, function (err) {
      detail.hidden = false;
      detail.textContent = "Could not read this item: " + err.message;
      document.body.setAttribute("data-detail", "error");
    });
  }

  // -- ranking: tie groups and rank intervals of the runs' arms (stats compare --rank) ------------------------
  function rankingBlock(rk) {
    var box = el("div", {id: "ranking"});
    box.appendChild(el("h3", {text: "Ranking by " + rk.by + ": tie groups and rank intervals (stats compare --by " + rk.by + " --rank)"}));
    if (rk.error) { box.appendChild(el("p", {cls: "warn", id: "ranking-error", text: rk.error})); return box; }
    // Undefined values are shown as "—" with the reason below the table, never as an empty cell or 0.
    function num(x) { return x === null || x === undefined ? "\u2014" : x.toFixed(4); }
    box.appendChild(table(["task", "metric", "arm", "score", "ci_low", "ci_high", "group", "rank", "rank_low", "rank_high", "n", "statements"],
      rk.rows.map(function (r) {
        return [r.task, r.metric, r.arm, num(r.score), num(r.ci_low), num(r.ci_high),
                r.group === null || r.group === undefined || r.group === "" ? "\u2014" : r.group,
                num(r.rank), num(r.rank_low), num(r.rank_high), r.n, r.statements];
      }), {id: "ranking-table"}));
    rk.rows.forEach(function (r) {
      if (r.note) { box.appendChild(el("p", {cls: "warn ranking-note", text: r.task + " " + r.arm + ": " + r.note})); }
    });
    var level = String(Math.round(1000 * (1 - rk.alpha)) / 10) + "%";
    box.appendChild(el("p", {cls: "muted", text: "score with a " + level + " CR2 t interval over statements; group: arms sharing a letter are not " +
      "separated by McNemar exact after Holm over all pairs (alpha " + rk.alpha + "); rank 1 = best, rank_low..rank_high: " + level +
      " interval of the rank over " + rk.n_boot + " statement resamples (causalgraph.stats.ranking.rank_runs)."}));
    return box;
  }

  // -- comparison ------------------------------------------------------------------------------------------
  (function compare() {
    var box = document.getElementById("compare");
    if (!D.compare) { box.hidden = true; document.getElementById("nav-compare").hidden = true; return; }
    var cmp = D.compare, names = cmp.runs;
    box.appendChild(el("h2", {text: "Comparison (baseline: " + names[0] + ")"}));
    cmp.notes.forEach(function (n) { box.appendChild(el("p", {cls: "warn", text: n})); });
    if (cmp.ranking) { box.appendChild(rankingBlock(cmp.ranking)); }
    cmp.pairs.forEach(function (p) {
      var other = names[p.run];
      box.appendChild(el("h3", {text: names[0] + " against " + other + ": McNemar on correctness, per variant"}));
      box.appendChild(el("p", {cls: "muted", text: "b: right in " + names[0] + " only; c: right in " + other +
        " only (wrong, unparsed and failed answers count as not right). χ² with continuity correction; " +
        "Bonferroni over the variants (causalgraph.stats.mcnemar)."}));
      box.appendChild(table(["variant", "paired with", "items", "both right", "b", "c", "both wrong", "χ²", "p", "p (Bonferroni)", "significant"],
        p.mcnemar.map(function (r) {
          return [r.variant_a, r.variant_b, r.n, r.both_right, r.b, r.c, r.both_wrong, r.statistic, r.p, r.p_bonferroni, r.significant ? "*" : ""];
        }), {id: "mcnemar-" + p.run, sortable: true}));
      if (p.label_mcnemar && p.label_mcnemar.length) {
        box.appendChild(el("p", {cls: "muted", text: "McNemar on the answers (the paper's Table 21, causalgraph.stats.mcnemar_runs; unparsed and failed answers left out):"}));
        box.appendChild(table(["variant", "paired with", "items", "left out", "b", "c", "χ²", "p", "p (Bonferroni)", "significant"],
          p.label_mcnemar.map(function (r) {
            return [r.variant_a, r.variant_b, r.n, r.excluded, r.b, r.c, r.statistic, r.p, r.p_bonferroni, r.significant ? "*" : ""];
          }), {id: "label-mcnemar-" + p.run, sortable: true}));
      } else if (p.label_mcnemar_note) {
        box.appendChild(el("p", {cls: "muted", text: "McNemar on the answers does not apply: " + p.label_mcnemar_note}));
      }
      p.notes.forEach(function (n) { box.appendChild(el("p", {cls: "warn", text: n})); });
    });
    box.appendChild(el("h3", {text: "Flipped items: correct in some runs, not in others (" + cmp.flipped.length + ")"}));
    // f[3] holds each run's record index within that run: the page's rows of run k start at runs[k].start.
    function rowOf(k, j) { return D.runs[k].start + j; }
    var fl = table(["variant", "item", "statement"].concat(names), cmp.flipped.map(function (f) {
      return [f[0], f[1], f[2]].concat(f[3].map(function (j, k) { return stateBadge(rowOf(k, j)); }));
    }), {id: "flipped", sortable: true});
    Array.prototype.forEach.call(fl.tBodies[0].rows, function (tr, k) {
      tr.setAttribute("data-key", cmp.flipped[k][1]);
      tr.setAttribute("data-variant", cmp.flipped[k][0]);
      tr.style.cursor = "pointer";
      tr.addEventListener("click", function () { showItem(rowOf(0, cmp.flipped[k][3][0])); });
    });
    box.appendChild(fl);
    box.appendChild(el("h3", {text: "Agreement per statement"}));
    box.appendChild(el("p", {cls: "muted", text: "Items in every run; same answer: every run gave the same parsed answer; " +
      "same correctness: right in every run or in none."}));
    box.appendChild(table(["statement", "items", "same answer", "same correctness", "agreement"].concat(names.map(function (n) { return "correct: " + n; })),
      cmp.statements.map(function (s) {
        return [s.statement, s.items, s.same_answer, s.same_correctness, s.agreement].concat(s.correct);
      }), {id: "agreement", sortable: true}));
  })();

  // -- sign chains: does each endpoint answer compose from its edge answers? (stats consistency --signs) -----
  function signText(s) { return s === 1 ? "+" : s === -1 ? "−" : s === null || s === undefined ? "undefined" : String(s); }
  function verdict(c) {
    if (c.consistent === false) { return el("span", {cls: "state state-wrong chain-mark", text: "✗ inconsistent"}); }
    return c.consistent === true ? el("span", {cls: "state state-correct", text: "consistent"})
      : el("span", {cls: "state state-ungraded", text: "not answered"});
  }
  function chainCells(c) {
    return [c.statement, c.path.join(" → "), c.edges.map(signText).join(" · "), signText(c.composed),
      signText(c.endpoint), verdict(c)];
  }
  var CHAIN_HEADERS = ["statement", "chain", "edge answers", "composed", "endpoint answer", "verdict"];
  // The CauseNet sources of the relations an item asks about (sample-subgraphs --sources), edge by edge;
  // every value goes in as text (el's text / text nodes), never as markup.
  function sourcesBlock(edges) {
    var box = el("div", {id: "d-sources"}, [el("h3", {text: "Sources"})]);
    edges.forEach(function (e) {
      var shown = (e.sources_shown || []).length, total = e.sources_total;
      box.appendChild(el("p", {cls: "source-edge", text: String(e.cause) + " \u2192 " + String(e.effect) + " (" +
        (total === null || total === undefined ? shown + " shown" : shown + " of " + total + " sources") + ")"}));
      var list = el("ul", {cls: "sources"});
      (e.sources_shown || []).forEach(function (s) {
        var where = [s.type, s.reference, s.page_id, s.timestamp, s.line === null || s.line === undefined ? null :
          "line " + s.line].filter(function (x) { return x !== null && x !== undefined && x !== ""; }).join(" \u00b7 ");
        list.appendChild(el("li", null, [el("span", {cls: "source-sentence", text: s.sentence || "(no sentence)"}),
          el("span", {cls: "muted", text: " \u2014 " + where})]));
      });
      box.appendChild(list);
    });
    return box;
  }

  // The chains an item is the endpoint or an edge of (shown in the item's detail).
  function chainBlock(i) {
    var mine = (D.consistency ? D.consistency.chains : []).filter(function (c) {
      return c.row === i || c.edge_rows.some(function (rs) { return rs.indexOf(i) >= 0; });
    });
    if (!mine.length) { return null; }
    var box = el("div", {id: "d-chains"});
    box.appendChild(el("h3", {text: "Sign chains of this item (" + mine.length + ")"}));
    // Both sources: one endpoint answer composes with the edges of each edge source (CorrI, net-effect).
    box.appendChild(table(["edge source", "endpoint source"].concat(CHAIN_HEADERS), mine.map(function (c) {
      return [c.edge_source, c.endpoint_source].concat(chainCells(c));
    })));
    return box;
  }
  (function consistency() {
    var cs = D.consistency;
    if (!cs) { return; }
    // Built here, not in the page's HTML, so pages without sign chains keep their markup.
    var box = el("section", {id: "consistency"}), anchor = document.getElementById("compare");
    anchor.parentNode.insertBefore(box, anchor.nextSibling);
    var nav = document.querySelector("header nav");
    nav.insertBefore(el("a", {href: "#consistency", id: "nav-consistency", text: "Sign chains"}),
      nav.querySelector("a[href='#items']"));
    box.appendChild(el("h2", {text: "Sign chains: do the endpoint answers compose?"}));
    box.appendChild(el("p", {cls: "muted", text: "A chain a → b → … → z is covered when the runs answer the sign of each " +
      "edge and of its endpoints (one model, one graph edit). The edge answers compose by sign algebra (+ · − = −, " +
      "− · − = +); the chain is consistent when the endpoint answer is that composition, whatever the gold says. " +
      "Rate: consistent of answered, with a 95 % interval resampling statements, widened for few statements " +
      "(causalgraph stats consistency --signs; simulated coverage 93 % at 7 statements, 94 % at 17: " +
      "docs/statistics.md); none for one statement. " +
      "An edge answered differently on two rows, or not answered (a failed request, an unread answer), is undefined; " +
      "other: an answer that is no sign."}));
    box.appendChild(table(["model", "graph edit", "edge source", "endpoint source", "chains", "answered", "consistent", "rate",
      "95 % interval", "statements", "endpoint right", "note"], cs.table.map(function (r) {
      return [r.model, r.graph_edit, r.edge_source, r.endpoint_source, r.chains, r.answered, r.consistent,
        r.rate === null ? "undefined" : r.rate,
        // No interval (one statement): said, with the note, never a blank cell.
        r.ci_low === null ? "undefined" : ci([r.ci_low, r.ci_high]), r.statements, r.endpoint_right, r.note];
    }), {id: "consistency-rates", sortable: true}));
    // Inconsistent chains first, then those not answered, then the consistent ones; report order within each.
    var rank = function (c) { return c.consistent === false ? 0 : c.consistent === null ? 1 : 2; };
    var order = cs.chains.map(function (c, k) { return k; }).sort(function (a, b) {
      return rank(cs.chains[a]) - rank(cs.chains[b]) || a - b;
    });
    var bad = cs.chains.filter(function (c) { return c.consistent === false; }).length;
    box.appendChild(el("h3", {text: "Chains: " + cs.chains.length + ", " + bad + " inconsistent (marked ✗)"}));
    box.appendChild(el("p", {cls: "muted", text: "Click a chain for its endpoint item; the item shows the chain again."}));
    var t = table(["model", "edge source", "endpoint source"].concat(CHAIN_HEADERS), order.map(function (k) {
      var c = cs.chains[k];
      return [c.model, c.edge_source, c.endpoint_source].concat(chainCells(c));
    }), {id: "chains", sortable: true});
    Array.prototype.forEach.call(t.tBodies[0].rows, function (tr, n) {
      var c = cs.chains[order[n]];
      tr.setAttribute("data-chain", String(order[n]));
      if (c.consistent === false) { tr.className = "inconsistent"; }
      if (c.row !== null) {
        tr.style.cursor = "pointer";
        tr.addEventListener("click", function () { showItem(c.row); });
      }
    });
    box.appendChild(t);
  })();

  // -- API for tests and the console ---------------------------------------------------------------------
  window.cgRunView = {
    data: D,
    visibleCount: function () { return visible.length; },
    visibleRows: function () { return Array.prototype.slice.call(visible); },
    renderedRows: function () { return tbody.querySelectorAll("tr.item").length; },
    setFilter: function (name, value) {
      var ids = {run: "f-run", task: "f-task", variant: "f-variant", statement: "f-statement", gold: "f-gold", bucket: "f-bucket"};
      var s = document.getElementById(ids[name]);
      var opt = Array.prototype.filter.call(s.options, function (o) { return o.value === "-1" ? value === null : o.textContent.replace(/ \(\d+\)$/, "") === value; })[0];
      if (!opt) { throw new Error("no option " + value + " in filter " + name); }
      s.value = opt.value;
      s.dispatchEvent(new Event("change"));
      return visible.length;
    },
    show: showItem,
    sortBy: function (name, desc) {
      sortCol = COLUMNS.filter(function (c) { return c.name === name; })[0];
      sortDesc = !!desc;
      update();
    }
  };
  update();
  // When the first rows were on screen, in ms since navigation started (benchmarks/bench_viewer.py reads it).
  window.cgRunView.readyAt = performance.now();
  document.body.setAttribute("data-ready", "1");
})();
