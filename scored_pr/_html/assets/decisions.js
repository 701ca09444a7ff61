/* scored_pr HTML report, the threshold to ship: the constraint line and its operating point on the PR plot, with
   an input for the minimum precision that moves both live, the net-benefit plot (probability scores), and cost and
   gain inputs that move the minimum-cost point live.
   Reads the data report.js parsed (window.scoredPr) and draws on its charts; no network, no dependencies. */
(function () {
  "use strict";
  var api = window.scoredPr;
  if (!api || !api.charts || !api.charts.pr) return;
  var R = api.data.rankings || [];
  var root = document.getElementById("scored-pr");
  function ranking() { var r = R[api.current]; return r && r.decisions ? r : null; }
  function fmt(v) { return v === null || v === undefined || isNaN(v) ? "\u2014" : String(+(+v).toPrecision(6)); }
  function node(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The minimum-cost candidate: least (cost_fp + gain_tn) FP - (cost_fn + gain_tp) TP (the expected cost up to a
  // constant), the first (highest threshold) on a tie; the same arithmetic as scored_pr's min_cost_threshold.
  function minCost(r, cfp, cfn, gtp, gtn) {
    var c = r.decisions.cost.candidates, best = -1, bestV = Infinity, a = cfp + gtn, b = cfn + gtp;
    for (var i = 0; i < c.threshold.length; i++) {
      var v = a * c.fp[i] - b * c.tp[i];
      if (v < bestV) { bestV = v; best = i; }
    }
    if (best < 0) return null;
    var tp = c.tp[best], fp = c.fp[best], tn = c.tn[best], fn = c.fn[best];
    var pos = r.counts.positive_weight, neg = r.counts.negative_weight, n = pos + neg;
    return { threshold: c.threshold[best], tp: tp, fp: fp, tn: tn, fn: fn, row: best,
             precision: tp + fp ? tp / (tp + fp) : NaN, recall: pos ? tp / pos : NaN, fpr: neg ? fp / neg : NaN,
             expected_cost: n ? (cfp * fp + cfn * fn - gtp * tp - gtn * tn) / n : NaN };
  }
  var costs = null;  // [cost_fp, cost_fn, gain_tp, gain_tn] typed in the page (null: the data's defaults)
  function costsOf(r) { return costs || r.decisions.cost.default.concat(r.decisions.cost.default_gains || [0, 0]); }

  // The greatest recall at precision >= target among the thresholds that can be it (decisions.frontier,
  // descending): the first of greatest recall among those whose precision TP / (TP + FP) is >= target (NaN never
  // is), as scored_pr's operating_point("recall", {"precision": target}). Without the frontier: the data's point.
  function constrained(r, target) {
    var k = r.decisions, f = k.frontier, g = k.targets;
    if (!f) {  // over the page's budget: the evaluator's answers at a grid of targets (the input snaps to it)
      if (!g) return k.constraint;
      var j = g.target.indexOf(target);
      return j < 0 ? k.constraint : g.point[j];
    }
    var pos = r.counts.positive_weight, best = -1, bestR = NaN;
    for (var i = 0; i < f.threshold.length; i++) {
      var tp = f.tp[i], fp = f.fp[i], prec = tp + fp ? tp / (tp + fp) : NaN;
      if (!(prec >= target)) continue;
      var rec = pos ? tp / pos : NaN;
      if (best < 0 || (!isNaN(rec) && (isNaN(bestR) || rec > bestR))) { best = i; bestR = rec; }
    }
    if (best < 0) return { feasible: false, threshold: null, precision: NaN, recall: NaN };
    var t = f.tp[best], p = f.fp[best];
    return { feasible: true, threshold: f.threshold[best], tp: t, fp: p, precision: t / (t + p), recall: bestR };
  }
  var target = null;  // the minimum precision typed in the page (null: the data's)
  function targetOf(r) {
    var p = target === null ? r.decisions.min_precision : target, g = r.decisions.targets;
    if (r.decisions.frontier || !g) return p;
    var best = g.target[0];  // without the frontier: the nearest target of the grid
    g.target.forEach(function (t) { if (Math.abs(t - p) < Math.abs(best - p)) best = t; });
    return best;
  }

  // ----- marks on the PR and ROC charts, renewed at every draw (the charts rebuild their marks on a new selection)
  function decorate(chart, which) {
    var own = chart.draw;
    chart.draw = function () {
      this.marks = this.marks.filter(function (m) { return !m.decision; });
      var r = ranking();
      if (r) {
        var cs = costsOf(r), c = minCost(r, cs[0], cs[1], cs[2], cs[3]), p = targetOf(r), k = constrained(r, p);
        if (which === "pr") {
          this.marks.push({ decision: true, line: [0, p, 1, p], color: "#009E73" });
          if (k.feasible) this.marks.push({ decision: true, shape: "diamond", x: k.recall, y: k.precision, color: "#009E73",
            label: "max recall at precision \u2265 " + fmt(p) + ": " + fmt(k.recall), dy: -14 });
          if (c) this.marks.push({ decision: true, x: c.recall, y: c.precision, color: "#CC79A7", label: "min cost", dy: 14 });
        } else if (c) {
          this.marks.push({ decision: true, x: c.fpr, y: c.recall, color: "#CC79A7", label: "min cost" });
        }
      }
      return own.apply(this, arguments);
    };
  }
  decorate(api.charts.pr, "pr");
  if (api.charts.roc) decorate(api.charts.roc, "roc");

  var anchor = document.getElementById("provenance");
  function place(e) { if (anchor && anchor.parentNode === root) root.insertBefore(e, anchor); else root.appendChild(e); }

  // ----- the net-benefit plot (probability scores only)
  var nbChart = null;
  function netBenefit() {
    var r = ranking(), nb = r && r.decisions.net_benefit;
    if (!nb || !nb.threshold.length) { if (nbChart) nbChart.box.style.display = "none"; return; }
    var all = nb.model.concat(nb.treat_all).filter(function (v) { return v !== null && isFinite(v); });
    var hi = Math.max.apply(null, all.concat([0.01])), lo = Math.max(Math.min.apply(null, all.concat([0])), -hi);
    if (!nbChart) {
      var grid = document.querySelector("#scored-pr .grid") || root;
      nbChart = new api.Chart(grid, "nb", "Net benefit (decision curve)", "threshold probability", "net benefit", [0, 1], [lo, hi * 1.05]);
    }
    nbChart.box.style.display = "";
    nbChart.yr = [lo, hi * 1.05];
    var y = function (a) { return a.map(function (v) { return v === null ? NaN : v; }); };
    nbChart.series = [
      { x: nb.threshold, y: y(nb.model), color: "#0072B2", label: "model" },
      { x: nb.threshold, y: y(nb.treat_all), color: "#E69F00", label: "treat all" },
      { x: nb.threshold, y: y(nb.treat_none), color: "#999999", label: "treat none" }];
    nbChart.setLegend();
    nbChart.draw();
  }

  if (!R.some(function (r) { return r.decisions; })) return;

  // ----- the constraint's target: the minimum precision, moving the line and the chosen point live
  place(node("h2", {}, "Operating point"));
  var opPanel = node("div", { "class": "panel", id: "constraint-panel" });
  var precIn = node("input", { type: "number", id: "min-precision", step: "any", min: "0", max: "1", "aria-label": "minimum precision" });
  var lp = node("label", {}, "Minimum precision: ");
  lp.appendChild(precIn); opPanel.appendChild(lp);
  var opOut = node("table", { id: "constraint-choice" }), opBody = node("tbody");
  ["threshold", "recall", "precision"].forEach(function (k) {
    var tr = node("tr"); tr.appendChild(node("th", { "class": "name" }, k));
    tr.appendChild(node("td", { id: "constraint-" + k })); opBody.appendChild(tr);
  });
  opOut.appendChild(opBody); opPanel.appendChild(opOut);
  var opNote = node("p", { "class": "note" }, "The threshold of greatest recall whose precision is at least the target " +
    "(operating_point(\"recall\", {\"precision\": target})), among every distinct score; a tie goes to the highest threshold.");
  opPanel.appendChild(opNote);
  place(opPanel);

  // ----- the cost inputs
  place(node("h2", {}, "Costs"));
  var panel = node("div", { "class": "panel", id: "cost-panel" });
  var fpIn = node("input", { type: "number", id: "cost-fp", step: "any", min: "0", "aria-label": "cost of a false positive" });
  var fnIn = node("input", { type: "number", id: "cost-fn", step: "any", min: "0", "aria-label": "cost of a false negative" });
  var tpIn = node("input", { type: "number", id: "gain-tp", step: "any", min: "0", "aria-label": "gain of a true positive" });
  var tnIn = node("input", { type: "number", id: "gain-tn", step: "any", min: "0", "aria-label": "gain of a true negative" });
  var l1 = node("label", {}, "Cost of a false positive: "), l2 = node("label", {}, " Cost of a false negative: ");
  var l3 = node("label", {}, " Gain of a true positive: "), l4 = node("label", {}, " Gain of a true negative: ");
  l1.appendChild(fpIn); l2.appendChild(fnIn); l3.appendChild(tpIn); l4.appendChild(tnIn);
  [l1, l2, l3, l4].forEach(function (l) { panel.appendChild(l); });
  var out = node("table", { id: "cost-choice" }), body = node("tbody");
  ["threshold", "expected cost", "precision", "recall", "TP", "FP", "TN", "FN"].forEach(function (k) {
    var tr = node("tr"); tr.appendChild(node("th", { "class": "name" }, k));
    tr.appendChild(node("td", { id: "cost-" + k.replace(" ", "-").toLowerCase() })); body.appendChild(tr);
  });
  out.appendChild(body); panel.appendChild(out);
  panel.appendChild(node("p", { "class": "note" }, "The threshold of least expected cost per case, (cost_fp FP + cost_fn FN - gain_tp TP - gain_tn TN) / n, " +
    "among every distinct score (the candidates kept are the ROC hull's vertices, where a linear cost with non-negative costs and gains is least); " +
    "a tie goes to the highest threshold."));
  place(panel);

  function showConstraint(r) {
    var p = targetOf(r), k = constrained(r, p);
    if (document.activeElement !== precIn) precIn.value = p;
    precIn.disabled = !r.decisions.frontier && !r.decisions.targets;
    precIn.step = r.decisions.frontier ? "any" : "0.05";
    opNote.textContent = r.decisions.frontier ? "The threshold of greatest recall whose precision is at least the target " +
      "(operating_point(\"recall\", {\"precision\": target})), among every distinct score; a tie goes to the highest threshold." :
      "The threshold of greatest recall whose precision is at least the target (operating_point(\"recall\", {\"precision\": target})); " +
      "this ranking has too many candidate points to carry them all, so the target is taken to the nearest multiple of 0.05.";
    if (document.activeElement === precIn && target !== null && p !== target) precIn.title = "taken as " + p;
    var vals = { threshold: k.feasible ? fmt(k.threshold) : "none meets it", recall: fmt(k.recall), precision: fmt(k.precision) };
    Object.keys(vals).forEach(function (key) { document.getElementById("constraint-" + key).textContent = vals[key]; });
    document.getElementById("constraint-threshold").setAttribute("data-value", k.feasible ? String(k.threshold) : "");
    api.constraintChoice = k;
  }
  function show() {
    var r = ranking();
    if (!r) { panel.style.display = "none"; opPanel.style.display = "none"; return; }
    panel.style.display = ""; opPanel.style.display = "";
    showConstraint(r);
    var cs = costsOf(r), c = minCost(r, cs[0], cs[1], cs[2], cs[3]);
    if (document.activeElement !== fpIn) fpIn.value = cs[0];
    if (document.activeElement !== fnIn) fnIn.value = cs[1];
    if (document.activeElement !== tpIn) tpIn.value = cs[2];
    if (document.activeElement !== tnIn) tnIn.value = cs[3];
    var vals = c ? { threshold: c.threshold === null ? "inf (accept nothing)" : fmt(c.threshold), "expected-cost": fmt(c.expected_cost),
      precision: fmt(c.precision), recall: fmt(c.recall), tp: fmt(c.tp), fp: fmt(c.fp), tn: fmt(c.tn), fn: fmt(c.fn) } : {};
    Object.keys(vals).forEach(function (k) {
      var td = document.getElementById("cost-" + k); td.textContent = vals[k];
    });
    var th = document.getElementById("cost-threshold");
    th.setAttribute("data-value", c ? String(c.threshold) : "");
    api.costChoice = c;
    api.charts.pr.draw(); if (api.charts.roc) api.charts.roc.draw();
    netBenefit();
  }
  function typed() {
    var v = [fpIn, fnIn, tpIn, tnIn].map(function (e) { return parseFloat(e.value); });
    if (v.some(function (x) { return isNaN(x) || x < 0 || !isFinite(x); })) return;  // keep the last valid costs
    costs = v; show();
  }
  [fpIn, fnIn, tpIn, tnIn].forEach(function (e) { e.addEventListener("input", typed); });
  api.setCosts = function (a, b, c, d) { costs = [a, b, c || 0, d || 0]; show(); };
  function typedTarget() {
    var p = parseFloat(precIn.value);
    if (isNaN(p) || p < 0 || p > 1) return;  // keep the last valid target
    target = p; show();
  }
  precIn.addEventListener("input", typedTarget);
  api.setMinPrecision = function (p) { target = p; show(); };
  var sel = document.getElementById("item-select");
  if (sel) sel.addEventListener("change", show);
  var origSelect = api.select;
  api.select = function (k) { origSelect(k); show(); };
  show();
})();
