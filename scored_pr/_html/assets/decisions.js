/* scored_pr HTML report, the threshold to ship: the constraint line and its operating point on the PR plot,
   the net-benefit plot (probability scores), and cost inputs that move the minimum-cost point live.
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

  // The minimum-cost candidate: least cost_fp FP - cost_fn TP (the expected cost up to a constant), the
  // first (highest threshold) on a tie; the same arithmetic as scored_pr's min_cost_threshold.
  function minCost(r, cfp, cfn) {
    var c = r.decisions.cost.candidates, best = -1, bestV = Infinity;
    for (var i = 0; i < c.threshold.length; i++) {
      var v = cfp * c.fp[i] - cfn * c.tp[i];
      if (v < bestV) { bestV = v; best = i; }
    }
    if (best < 0) return null;
    var tp = c.tp[best], fp = c.fp[best], tn = c.tn[best], fn = c.fn[best], n = tp + fp + tn + fn, pos = tp + fn, neg = fp + tn;
    return { threshold: c.threshold[best], tp: tp, fp: fp, tn: tn, fn: fn, row: best,
             precision: tp + fp ? tp / (tp + fp) : NaN, recall: pos ? tp / pos : NaN, fpr: neg ? fp / neg : NaN,
             expected_cost: n ? (cfp * fp + cfn * fn) / n : NaN };
  }
  var costs = null;  // [cost_fp, cost_fn] typed in the page (null: the data's defaults)
  function costsOf(r) { return costs || r.decisions.cost.default; }

  // ----- marks on the PR and ROC charts, renewed at every draw (the charts rebuild their marks on a new selection)
  function decorate(chart, which) {
    var own = chart.draw;
    chart.draw = function () {
      this.marks = this.marks.filter(function (m) { return !m.decision; });
      var r = ranking();
      if (r) {
        var k = r.decisions, c = minCost(r, costsOf(r)[0], costsOf(r)[1]);
        if (which === "pr") {
          this.marks.push({ decision: true, line: [0, k.min_precision, 1, k.min_precision], color: "#009E73" });
          if (k.constraint.feasible) this.marks.push({ decision: true, shape: "diamond", x: k.constraint.recall, y: k.constraint.precision, color: "#009E73",
            label: "max recall at precision \u2265 " + k.min_precision + ": " + fmt(k.constraint.recall), dy: -14 });
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

  // ----- the cost inputs
  if (!R.some(function (r) { return r.decisions; })) return;
  place(node("h2", {}, "Costs"));
  var panel = node("div", { "class": "panel", id: "cost-panel" });
  var fpIn = node("input", { type: "number", id: "cost-fp", step: "any", min: "0", "aria-label": "cost of a false positive" });
  var fnIn = node("input", { type: "number", id: "cost-fn", step: "any", min: "0", "aria-label": "cost of a false negative" });
  var l1 = node("label", {}, "Cost of a false positive: "), l2 = node("label", {}, " Cost of a false negative: ");
  l1.appendChild(fpIn); l2.appendChild(fnIn); panel.appendChild(l1); panel.appendChild(l2);
  var out = node("table", { id: "cost-choice" }), body = node("tbody");
  ["threshold", "expected cost", "precision", "recall", "TP", "FP", "TN", "FN"].forEach(function (k) {
    var tr = node("tr"); tr.appendChild(node("th", { "class": "name" }, k));
    tr.appendChild(node("td", { id: "cost-" + k.replace(" ", "-").toLowerCase() })); body.appendChild(tr);
  });
  out.appendChild(body); panel.appendChild(out);
  panel.appendChild(node("p", { "class": "note" }, "The threshold of least expected cost per case, (cost_fp FP + cost_fn FN) / n, among every distinct score " +
    "(the candidates kept are the ROC hull's vertices, where a linear cost is least); a tie goes to the highest threshold."));
  place(panel);

  function show() {
    var r = ranking();
    if (!r) { panel.style.display = "none"; return; }
    panel.style.display = "";
    var cs = costsOf(r), c = minCost(r, cs[0], cs[1]);
    if (document.activeElement !== fpIn) fpIn.value = cs[0];
    if (document.activeElement !== fnIn) fnIn.value = cs[1];
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
    var a = parseFloat(fpIn.value), b = parseFloat(fnIn.value);
    if (isNaN(a) || isNaN(b) || a < 0 || b < 0 || !isFinite(a) || !isFinite(b)) return;  // keep the last valid pair
    costs = [a, b]; show();
  }
  fpIn.addEventListener("input", typed); fnIn.addEventListener("input", typed);
  api.setCosts = function (a, b) { costs = [a, b]; show(); };
  var sel = document.getElementById("item-select");
  if (sel) sel.addEventListener("change", show);
  var origSelect = api.select;
  api.select = function (k) { origSelect(k); show(); };
  show();
})();
