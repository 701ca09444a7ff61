/* scored_pr HTML report: draws the data embedded in the page (no network, no dependencies).
   Curves are drawn on <canvas> from exact operating points; tables are HTML tables. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("scored-pr-data").textContent);
  // Okabe & Ito (2008): distinguishable under the common colour-vision deficiencies.
  var PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442"];
  var api = { data: D, charts: {}, current: 0, overlay: null };
  window.scoredPr = api;

  function num(v) { return v === null || v === undefined ? NaN : v; }
  function fmt(v, digits) {
    v = num(v);
    if (isNaN(v)) return "NaN";
    if (!isFinite(v)) return v > 0 ? "inf" : "-inf";
    if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
    return v.toPrecision(digits || 6).replace(/(\.\d*?)0+(e|$)/, "$1$2").replace(/\.(e|$)/, "$1");
  }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === "text") e.textContent = attrs[k]; else if (k === "html") e.innerHTML = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function cell(tag, text, cls, extra) {
    var a = { text: text }; if (cls) a["class"] = cls;
    if (extra) for (var k in extra) a[k] = extra[k];
    return el(tag, a);
  }

  // ---------------------------------------------------------------- a ranking's derived rows
  function derive(r) {
    if (!r.table || r.derived) return r;
    var t = r.table, n = t.threshold.length, pos = r.counts.positive_weight, neg = r.counts.negative_weight;
    var d = { precision: new Array(n), recall: new Array(n), fpr: new Array(n), f1: new Array(n) };
    for (var i = 0; i < n; i++) {
      var tp = t.tp[i], fp = t.fp[i], fn = t.fn[i];
      d.precision[i] = tp + fp ? tp / (tp + fp) : NaN;
      d.recall[i] = pos ? tp / pos : NaN;
      d.fpr[i] = neg ? fp / neg : NaN;
      var den = (1 + 1) * tp + 1 * fn + fp;  // F1 as scored_pr computes it: (1+b2)tp / ((1+b2)tp + b2 fn + fp)
      d.f1[i] = den ? (1 + 1) * tp / den : NaN;
    }
    r.derived = d;
    return r;
  }
  // The confusion counts of accepting every case scored >= t, from the table (rows by descending threshold).
  function confusionAt(r, t) {
    var th = r.table.threshold, lo = 0, hi = th.length;  // first row whose threshold < t
    while (lo < hi) { var mid = (lo + hi) >> 1; if (th[mid] >= t) lo = mid + 1; else hi = mid; }
    var j = lo - 1;  // the row of the smallest threshold >= t, or -1: nothing accepted
    if (j < 0) return { row: -1, threshold: t, tp: 0, fp: 0, tn: r.counts.negative_weight, fn: r.counts.positive_weight };
    return { row: j, threshold: th[j], tp: r.table.tp[j], fp: r.table.fp[j], tn: r.table.tn[j], fn: r.table.fn[j] };
  }
  function pointTip(r, i) {
    var d = derive(r).derived, t = r.table;
    var rows = (R.length > 1 ? [["model", r.name]] : []).concat([["threshold", fmt(t.threshold[i], 10)], ["precision", fmt(d.precision[i])],
      ["recall", fmt(d.recall[i])], ["F1", fmt(d.f1[i])], ["TP", fmt(t.tp[i])], ["FP", fmt(t.fp[i])],
      ["TN", fmt(t.tn[i])], ["FN", fmt(t.fn[i])]]);
    return "<table>" + rows.map(function (p) {
      return "<tr><th>" + p[0] + "</th><td data-k=\"" + p[0] + "\">" + String(p[1]).replace(/</g, "&lt;") + "</td></tr>";
    }).join("") + "</table>";
  }

  // ---------------------------------------------------------------- a chart on a canvas
  function Chart(parent, id, title, xlab, ylab, xr, yr) {
    this.id = id; this.xlab = xlab; this.ylab = ylab; this.xr = xr; this.yr = yr;
    this.series = []; this.marks = []; this.hi = null; this.labelBoxes = [];
    this.box = el("div", { "class": "chart", id: "chart-" + id });
    this.box.appendChild(el("h3", { text: title }));
    this.canvas = el("canvas", { role: "img", "aria-label": title });
    this.tip = el("div", { "class": "tip", id: "tip-" + id });
    this.legend = el("ul", { "class": "legend" });
    this.box.appendChild(this.canvas); this.box.appendChild(this.tip); this.box.appendChild(this.legend);
    parent.appendChild(this.box);
    var self = this;
    this.canvas.addEventListener("mousemove", function (ev) { self.hover(ev); });
    this.canvas.addEventListener("mouseleave", function () { self.hi = null; self.tip.style.display = "none"; self.draw(); });
    api.charts[id] = this;
  }
  api.Chart = Chart;  // for the page's other scripts (decisions.js)
  Chart.prototype.M = { l: 48, r: 12, t: 10, b: 36 };
  Chart.prototype.size = function () {
    var w = this.canvas.clientWidth || 400, h = this.canvas.clientHeight || 300;
    return { w: w, h: h, pw: w - this.M.l - this.M.r, ph: h - this.M.t - this.M.b };
  };
  Chart.prototype.toPixel = function (x, y) {
    var s = this.size();
    return [this.M.l + (x - this.xr[0]) / (this.xr[1] - this.xr[0]) * s.pw,
            this.M.t + (1 - (y - this.yr[0]) / (this.yr[1] - this.yr[0])) * s.ph];
  };
  Chart.prototype.setLegend = function () {
    var ul = this.legend; ul.innerHTML = "";
    this.series.forEach(function (s) {
      if (!s.label) return;
      var li = el("li", { text: s.label, "class": s.boxes ? "box" : (s.dash ? "dash" : ""), style: "--c:" + (s.dash ? tint(s.color) : s.color) });
      ul.appendChild(li);
    });
  };
  // How a dashed (interpolated, convex hull) curve is drawn: wider than the solid curves, in a paler tint, over them.
  var DASHED = { pattern: [7, 5], width: 2.6, mix: 0.55, spacing: 3 };
  function tint(hex) {  // "#rrggbb" mixed with white (DASHED.mix of white)
    var v = parseInt(hex.slice(1), 16), out = "#";
    [16, 8, 0].forEach(function (sh) {
      var c = Math.round(((v >> sh) & 255) * (1 - DASHED.mix) + 255 * DASHED.mix);
      out += (c < 16 ? "0" : "") + c.toString(16);
    });
    return out;
  }
  // The indices of the vertices of a dashed series to draw: the first, then each vertex at least
  // DASHED.spacing pixels from the last one kept, and the last. A subset of the exact vertices (no new
  // point); at 2,000 vertices across 300 pixels the dash pattern would vanish, a vertex every pixel.
  function thinned(chart, sr) {
    var out = [], last = null, n = sr.x.length, min2 = DASHED.spacing * DASHED.spacing;
    for (var i = 0; i < n; i++) {
      var x = sr.x[i], y = sr.y[i];
      if (x === null || y === null || isNaN(x) || isNaN(y)) { out.push(i); last = null; continue; }  // a gap: the pen lifts
      var p = chart.toPixel(x, y);
      if (last !== null && i < n - 1 && (p[0] - last[0]) * (p[0] - last[0]) + (p[1] - last[1]) * (p[1] - last[1]) < min2) continue;
      out.push(i); last = p;
    }
    return out;
  }
  // Draw a mark's label beside point p, wholly inside the plot area: right of the point, or left of it
  // near the right edge, shifted in when neither fits; above the point, or below it near the top.
  // Returns the label's box in canvas pixels (CSS), as drawn.
  function placeLabel(g, text, p, dy, M, s) {
    g.textAlign = "left"; g.textBaseline = "alphabetic";
    var m = g.measureText(text), w = m.width;
    var asc = m.actualBoundingBoxAscent || 8, desc = m.actualBoundingBoxDescent || 2;
    var left = M.l + 2, right = M.l + s.pw - 2, top = M.t + 2, bottom = M.t + s.ph - 2;
    var x = p[0] + 8;
    if (x + w > right) x = p[0] - 8 - w;
    if (x < left) x = Math.max(left, right - w);
    var y = p[1] - 8 + dy;
    if (y - asc < top) y = p[1] + 8 + asc + dy;
    y = Math.min(Math.max(y, top + asc), bottom - desc);
    g.fillText(text, x, y);
    return { x: x, y: y - asc, width: w, height: asc + desc, text: text };
  }
  function ticks(lo, hi) {  // about five round steps (1, 2 or 5 times a power of ten)
    var raw = (hi - lo) / 5, mag = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / mag;
    var step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag, out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : +v.toPrecision(12));
    return out;
  }
  Chart.prototype.draw = function () {
    var c = this.canvas, s = this.size(), dpr = window.devicePixelRatio || 1, self = this;
    if (c.width !== Math.round(s.w * dpr) || c.height !== Math.round(s.h * dpr)) {
      c.width = Math.round(s.w * dpr); c.height = Math.round(s.h * dpr);
    }
    var g = c.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, s.w, s.h);
    g.font = "11px system-ui, sans-serif"; g.fillStyle = "#333"; g.strokeStyle = "#e4e4e4"; g.lineWidth = 1;
    ticks(this.xr[0], this.xr[1]).forEach(function (v) {
      var p = self.toPixel(v, self.yr[0]);
      g.beginPath(); g.moveTo(p[0], self.M.t); g.lineTo(p[0], self.M.t + s.ph); g.stroke();
      g.textAlign = "center"; g.fillText(fmt(v, 4), p[0], self.M.t + s.ph + 13);
    });
    ticks(this.yr[0], this.yr[1]).forEach(function (v) {
      var p = self.toPixel(self.xr[0], v);
      g.beginPath(); g.moveTo(self.M.l, p[1]); g.lineTo(self.M.l + s.pw, p[1]); g.stroke();
      g.textAlign = "right"; g.fillText(fmt(v, 4), self.M.l - 4, p[1] + 4);
    });
    g.strokeStyle = "#888"; g.strokeRect(this.M.l, this.M.t, s.pw, s.ph);
    g.textAlign = "center"; g.fillText(this.xlab, this.M.l + s.pw / 2, s.h - 4);
    g.save(); g.translate(11, this.M.t + s.ph / 2); g.rotate(-Math.PI / 2); g.fillText(this.ylab, 0, 0); g.restore();
    g.save(); g.beginPath(); g.rect(this.M.l - 3, this.M.t - 3, s.pw + 6, s.ph + 6); g.clip();
    this.labelBoxes = [];
    // boxes first, then the solid curves, then the dashed ones on top, in a paler tint of the same colour:
    // where a dashed curve coincides with its solid one (many points), pale dashes alternate with the solid line
    var order = this.series.filter(function (sr) { return sr.boxes; })
      .concat(this.series.filter(function (sr) { return !sr.boxes && !sr.dash; }), this.series.filter(function (sr) { return !sr.boxes && sr.dash; }));
    order.forEach(function (sr) {
      if (sr.boxes) {
        g.fillStyle = sr.color; g.globalAlpha = 0.22;
        sr.boxes.forEach(function (b) {
          var p0 = self.toPixel(b[0], b[3]), p1 = self.toPixel(b[1], b[2]);
          g.fillRect(p0[0], p0[1], Math.max(p1[0] - p0[0], 1), Math.max(p1[1] - p0[1], 1));
        });
        g.globalAlpha = 1;
        return;
      }
      g.strokeStyle = sr.dash ? tint(sr.color) : sr.color; g.lineWidth = sr.width || (sr.dash ? DASHED.width : 1.6);
      g.setLineDash(sr.dash ? DASHED.pattern : []);
      var idx = sr.dash ? thinned(self, sr) : null;
      sr.drawn = idx;  // the vertices drawn (indices into x, y): the dashed curves', at distinct pixel positions
      g.beginPath(); var pen = false, n = idx ? idx.length : sr.x.length;
      for (var v = 0; v < n; v++) {
        var i = idx ? idx[v] : v, x = sr.x[i], y = sr.y[i];
        if (isNaN(x) || isNaN(y) || x === null || y === null) { pen = false; continue; }
        var p = self.toPixel(x, y);
        if (pen) g.lineTo(p[0], p[1]); else g.moveTo(p[0], p[1]);
        pen = true;
      }
      g.stroke(); g.setLineDash([]);
      if (sr.dots) {
        g.fillStyle = sr.color;
        for (var j = 0; j < sr.x.length; j++) {
          if (isNaN(sr.y[j])) continue;
          var q = self.toPixel(sr.x[j], sr.y[j]); g.beginPath(); g.arc(q[0], q[1], 2, 0, 7); g.fill();
        }
      }
    });
    this.marks.forEach(function (m) {
      g.strokeStyle = m.color || "#000"; g.fillStyle = m.color || "#000"; g.lineWidth = 1.2;
      if (m.vline !== undefined) {
        var v = self.toPixel(m.vline, self.yr[0]);
        g.setLineDash([3, 3]); g.beginPath(); g.moveTo(v[0], self.M.t); g.lineTo(v[0], self.M.t + s.ph); g.stroke(); g.setLineDash([]);
        return;
      }
      if (m.line) {
        var a = self.toPixel(m.line[0], m.line[1]), b = self.toPixel(m.line[2], m.line[3]);
        g.setLineDash([2, 4]); g.beginPath(); g.moveTo(a[0], a[1]); g.lineTo(b[0], b[1]); g.stroke(); g.setLineDash([]);
        return;
      }
      if (isNaN(num(m.x)) || isNaN(num(m.y))) return;
      var p = self.toPixel(m.x, m.y);
      g.beginPath();
      if (m.shape === "diamond") { g.moveTo(p[0], p[1] - 6); g.lineTo(p[0] + 6, p[1]); g.lineTo(p[0], p[1] + 6); g.lineTo(p[0] - 6, p[1]); g.closePath(); g.fill(); }
      else { g.arc(p[0], p[1], 5, 0, 7); g.lineWidth = 2; g.stroke(); }
      if (m.label) self.labelBoxes.push(placeLabel(g, m.label, p, m.dy || 0, self.M, s));
    });
    if (this.hi) {
      var h = this.hi.s, p = this.toPixel(h.x[this.hi.i], h.y[this.hi.i]);
      g.fillStyle = h.color; g.beginPath(); g.arc(p[0], p[1], 4.5, 0, 7); g.fill();
    }
    g.restore();
  };
  Chart.prototype.hover = function (ev) {
    var rect = this.canvas.getBoundingClientRect(), mx = ev.clientX - rect.left, my = ev.clientY - rect.top;
    var best = null, bd = 20 * 20, self = this;
    this.series.forEach(function (sr) {
      if (!sr.tip) return;
      for (var i = 0; i < sr.x.length; i++) {
        if (isNaN(sr.x[i]) || isNaN(sr.y[i])) continue;
        var p = self.toPixel(sr.x[i], sr.y[i]), dd = (p[0] - mx) * (p[0] - mx) + (p[1] - my) * (p[1] - my);
        if (dd < bd) { bd = dd; best = { s: sr, i: i }; }
      }
    });
    this.hi = best;
    if (best) {
      this.tip.innerHTML = best.s.tip(best.s.rows ? best.s.rows[best.i] : best.i);
      this.tip.setAttribute("data-row", best.s.rows ? best.s.rows[best.i] : best.i);
      this.tip.setAttribute("data-model", best.s.model);
      this.tip.style.display = "block";
      var x = mx + this.canvas.offsetLeft + 14, y = my + this.canvas.offsetTop + 10;
      if (x + this.tip.offsetWidth > this.box.clientWidth) x = mx + this.canvas.offsetLeft - this.tip.offsetWidth - 14;
      this.tip.style.left = x + "px"; this.tip.style.top = y + "px";
    } else this.tip.style.display = "none";
    this.draw();
  };

  // ---------------------------------------------------------------- the page
  var root = document.getElementById("scored-pr");
  var R = D.rankings;
  R.forEach(derive);
  var layout = D.layout;
  function colourOf(k) { return PALETTE[k % PALETTE.length]; }

  function measuresTable(list, withModels) {
    var t = el("table", { "class": "measures", id: "measures" });
    var hasCi = false, hasBounds = false;
    list.forEach(function (r) { r.measures.forEach(function (m) { if (m.low !== undefined) hasCi = true; if (m.lower !== undefined) hasBounds = true; }); });
    var head = [cell("th", "measure", "name")];
    list.forEach(function (r) { head.push(cell("th", withModels ? r.name : "value")); });
    if (hasCi && !withModels) head.push(cell("th", "confidence interval"));
    if (hasBounds) head.push(cell("th", "certified bounds"));
    t.appendChild(el("thead", null, [el("tr", null, head)]));
    var body = el("tbody");
    list[0].measures.forEach(function (m, k) {
      var tr = el("tr", { "data-key": m.key }, [cell("td", m.label, "name")]);
      list.forEach(function (r) { var v = r.measures[k]; tr.appendChild(valueCell(v ? v.value : "", v && v.note)); });
      if (hasCi && !withModels) tr.appendChild(cell("td", m.low !== undefined ? "[" + fmt(m.low) + ", " + fmt(m.high) + "] " + (100 * m.level).toFixed(0) + "% " + m.method : "", "ci"));
      if (hasBounds) tr.appendChild(cell("td", m.lower !== undefined && m.lower !== null ? "[" + fmt(m.lower) + ", " + fmt(m.upper) + "]" : "exact", "ci"));
      body.appendChild(tr);
    });
    t.appendChild(body);
    return t;
  }
  // A value's cell; a NaN carries the reason it is undefined beside it (``note``), never a bare "NaN".
  function valueCell(v, note, extra) {
    var td = cell("td", v === "" ? "" : fmt(v), null, { "data-value": v === "" ? "" : String(num(v)) });
    if (extra) for (var k in extra) td.setAttribute(k, extra[k]);
    if (note && v !== "" && isNaN(num(v))) {
      td.setAttribute("data-note", note); td.setAttribute("title", note);
      td.appendChild(el("span", { "class": "why", text: " (" + note + ")" }));
    }
    return td;
  }
  function countsLine(r) {
    var c = r.counts, s = fmt(c.num_cases) + " cases; " + fmt(c.num_positive_ref) + " positive (" + fmt(c.num_misses) +
      " misses), " + fmt(c.num_negative_ref) + " negative; ties " + c.ties;
    if (c.weighted) s += "; weighted";
    if (c.num_bins !== undefined && c.num_bins !== null) s += "; " + fmt(c.num_bins) + " bins" + (r.exact ? " (exact)" : "");
    return s;
  }
  function sortable(t) {
    var ths = t.querySelectorAll("thead th");
    Array.prototype.forEach.call(ths, function (th, col) {
      th.addEventListener("click", function () {
        var dir = th.getAttribute("aria-sort") === "descending" ? "ascending" : "descending";
        Array.prototype.forEach.call(ths, function (o) { o.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir);
        var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col].getAttribute("data-sort"), y = b.cells[col].getAttribute("data-sort");
          var nx = parseFloat(x), ny = parseFloat(y), c;
          if (!isNaN(nx) || !isNaN(ny)) c = (isNaN(nx) ? -Infinity : nx) - (isNaN(ny) ? -Infinity : ny);
          else c = String(x).localeCompare(String(y));
          return dir === "ascending" ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }

  root.appendChild(el("h1", { text: D.title }));
  var sub = layout === "compare" ? "two models on the same cases" : layout === "single" ? (D.kind + " evaluation; " + countsLine(R[0]))
    : (D.kind + " evaluation: " + D.items.length + " " + D.item_noun + (D.items.length === 1 ? "" : D.item_noun === "query" ? "ies" : "s"));
  root.appendChild(el("p", { "class": "sub", id: "subtitle", text: sub.replace("querys", "queries").replace("queryies", "queries") }));
  if (D.empty) {
    var nothing = layout === "per_query" && !D.items.length ? "No queries yet" : layout === "per_label" ? "No rows yet" : "No cases yet";
    root.appendChild(el("p", { "class": "note empty", id: "empty-note", role: "status",
      text: nothing + ": the measures are undefined (NaN) or 0 and the curves are empty until cases are added." }));
  }

  if (R[0] && R[0].extra && R[0].extra.window) {
    var w = R[0].extra.window;
    root.appendChild(el("h2", { text: "Window" }));
    var wt = el("table", { id: "window" }, [el("tbody", null, [
      el("tr", null, [cell("th", "window", "name"), cell("td", w.size !== null ? "the last " + fmt(w.size) + " cases" : "the last " + fmt(w.seconds) + " seconds")]),
      el("tr", null, [cell("th", "cases in the window", "name"), cell("td", fmt(R[0].counts.num_cases))]),
      el("tr", null, [cell("th", "cases seen since the start (cumulative)", "name"), cell("td", fmt(w.num_cases_seen))]),
    ])]);
    root.appendChild(wt);
    root.appendChild(el("p", { "class": "note", text: "Every figure and curve below is of the cases in the window." }));
  }

  root.appendChild(el("h2", { text: "Measures" }));
  if (layout === "single") root.appendChild(measuresTable([R[0]], false));
  else if (layout === "compare") {
    root.appendChild(measuresTable(R, true));
    root.appendChild(el("h2", { text: (D.paired === false ? "Unpaired" : "Paired") + " comparison (A \u2212 B)" + (D.slice_comparisons ? ": overall" : "") }));
    var ct = el("table", { id: "comparison" });
    var hd = ["measure", "A", "B", "A \u2212 B", "interval", "statistic", "p-value", "method"];
    ct.appendChild(el("thead", null, [el("tr", null, hd.map(function (h, i) { return cell("th", h, i ? null : "name"); }))]));
    var cb = el("tbody");
    D.comparisons.forEach(function (c) {
      cb.appendChild(el("tr", { "data-measure": c.measure }, [cell("td", c.measure, "name"), cell("td", fmt(c.a)), cell("td", fmt(c.b)),
        cell("td", fmt(c.difference)), cell("td", "[" + fmt(c.low) + ", " + fmt(c.high) + "] " + (100 * c.level).toFixed(0) + "%"),
        cell("td", fmt(c.statistic, 4)), cell("td", fmt(c.p_value, 4), null, { "data-value": String(num(c.p_value)) }), cell("td", c.method)]));
    });
    ct.appendChild(cb); root.appendChild(ct);
    root.appendChild(el("p", { "class": "note", text: (D.same_ranking ? "A and B rank every case identically: every difference is 0. " : "") +
      "Two-sided tests: DeLong's paired test for ROC AUC, a paired stratified bootstrap for average precision." }));
    R.forEach(function (r) { root.appendChild(el("p", { "class": "note", text: r.name + ": " + countsLine(r) })); });
    if (D.slice_comparisons) sliceComparisons(D.slice_comparisons);
  } else {
    var at = el("table", { id: "averages" });
    at.appendChild(el("thead", null, [el("tr", null, [cell("th", "measure", "name"), cell("th", "value")])]));
    var ab = el("tbody");
    D.averages.forEach(function (a) { ab.appendChild(el("tr", { "data-key": a.key }, [cell("td", a.label, "name"), valueCell(a.value, a.note)])); });
    at.appendChild(ab); root.appendChild(at);
    if (D.confusion) {
      var cl = D.confusion.labels;
      root.appendChild(el("h2", { text: "Confusion matrix (at the top-scoring class; the first class on ties)" }));
      var mt = el("table", { id: "confusion-matrix", "class": "matrix" });
      mt.appendChild(el("thead", null, [
        el("tr", null, [cell("th", "", "corner"), cell("th", "predicted class", "axis", { colspan: cl.length })]),
        el("tr", null, [cell("th", "true class", "name axis")].concat(cl.map(function (c) { return cell("th", c, null, { scope: "col" }); })))]));
      var mb = el("tbody");
      D.confusion.matrix.forEach(function (row, i) {
        mb.appendChild(el("tr", { "data-true": cl[i] }, [cell("th", cl[i], "name", { scope: "row" })].concat(row.map(function (v, j) {
          return cell("td", fmt(v), i === j ? "diag" : null, { "data-value": String(v), "data-predicted": cl[j] });
        }))));
      });
      mt.appendChild(mb); root.appendChild(mt);
      root.appendChild(el("p", { "class": "note", text: "Rows: the true class; columns: the predicted (top-scoring) class; the diagonal holds the correct rows." }));
    }
    root.appendChild(el("h2", { text: "Per " + D.item_noun + " (click a heading to sort, a row to draw its curves)" }));
    var cols = [["name", D.item_noun], ["num_cases", "cases"], ["positives", "positives"], ["negatives", "negatives"],
      ["average_precision", "AP"], ["area_under_roc_curve", "ROC AUC"], ["maximum_f_measure", "max F1"], ["r_precision", "R-precision"]];
    var ivCols = [["average_precision", "AP interval"], ["area_under_roc_curve", "ROC AUC interval"]].filter(function (c) {
      return D.items.some(function (row) { return row.intervals && row.intervals[c[0]]; });
    });
    var it = el("table", { "class": "sortable", id: "items" });
    it.appendChild(el("thead", null, [el("tr", null, cols.map(function (c, i) { return cell("th", c[1], i ? null : "name"); })
      .concat(ivCols.map(function (c) { return cell("th", c[1]); })))]));
    var ib = el("tbody");
    D.items.forEach(function (row, index) {
      var tr = el("tr", row.worst ? { "data-curve": row.curve === null ? "" : row.curve, "class": "worst", title: "the worst slice" }
        : { "data-curve": row.curve === null ? "" : row.curve });
      if (row.overlay) tr.setAttribute("data-overlay", index);
      cols.forEach(function (c, i) {
        var v = row[c[0]];
        tr.appendChild(i ? valueCell(v, (row.notes || {})[c[0]], { "data-sort": String(num(v)) }) : cell("td", v, "name", { "data-sort": v }));
      });
      ivCols.forEach(function (c) {
        var iv = (row.intervals || {})[c[0]];
        tr.appendChild(iv ? cell("td", "[" + fmt(iv[0]) + ", " + fmt(iv[1]) + "]", "interval",
          { "data-sort": String(num(iv[0])), title: fmt(iv[2]) + " " + iv[3] + " interval" }) : cell("td", "", "interval", { "data-sort": "NaN" }));
      });
      if (row.curve !== null) tr.addEventListener("click", function () { select(row.curve); });
      else if (row.overlay) tr.addEventListener("click", function () { showOverlay(index); });
      ib.appendChild(tr);
    });
    it.appendChild(ib); root.appendChild(it); sortable(it);
    if (D.worst) root.appendChild(el("p", { "class": "note", id: "worst", text: "Worst slice by average precision (lowest value, at least " + D.worst.min_cases + " cases; marked in the table): " + D.worst.name }));
    if (D.items_with_overlays !== undefined) {  // a sliced page: a slice's curves over the overall ones
      if (D.items.length > D.items_with_curves) root.appendChild(el("p", { "class": "note", id: "overlay-note", text: "Full curves for the first " +
        D.items_with_curves + " slices; " + (D.items_with_overlays > D.items_with_curves ? "the next " + (D.items_with_overlays - D.items_with_curves) +
        " are drawn over the overall curves from at most 32 of their operating points per curve (4 decimals)" : "") +
        (D.items.length > D.items_with_overlays ? "; the other " + (D.items.length - D.items_with_overlays) + " are in the table only" : "") + "." }));
      if (D.gaps) gapsTable(D.gaps);
    } else if (D.items.length > D.items_with_curves) root.appendChild(el("p", { "class": "note", text: "Curves for the first " + D.items_with_curves + " " + D.item_noun + " entries; the table lists all." }));
  }
  // compare --by: A against B in every slice (paired where the slice holds the same ids in both files), a sortable table.
  function sliceComparisons(S) {
    root.appendChild(el("h2", { text: "Per slice (A \u2212 B; click a heading to sort)" }));
    var st = el("table", { "class": "sortable", id: "slice-comparisons" });
    var hd = ["slice", "cases (A / B)", "pairing", "measure", "A", "B", "A \u2212 B", "interval", "p-value", "method"];
    st.appendChild(el("thead", null, [el("tr", null, hd.map(function (h, i) { return cell("th", h, i ? null : "name"); }))]));
    var sb = el("tbody");
    S.forEach(function (s) {
      var cases = s.paired ? fmt(s.num_cases_a) : fmt(s.num_cases_a) + " / " + fmt(s.num_cases_b);
      var head = [cell("td", s.name, "name", { "data-sort": s.name }), cell("td", cases, null, { "data-sort": String(s.num_cases_a) }),
        cell("td", s.paired ? "paired" : "unpaired")];
      if (s.measure === null) {
        sb.appendChild(el("tr", { "data-slice": s.name }, head.concat([cell("td", "", null, { "data-sort": "" }),
          cell("td", s.note, "note", { colspan: 6 })])));
        return;
      }
      sb.appendChild(el("tr", { "data-slice": s.name, "data-measure": s.measure }, head.concat([cell("td", s.measure),
        valueCell(s.a, null, { "data-sort": String(num(s.a)) }), valueCell(s.b, null, { "data-sort": String(num(s.b)) }),
        valueCell(s.difference, null, { "data-sort": String(num(s.difference)), "class": "difference" }),
        cell("td", "[" + fmt(s.low) + ", " + fmt(s.high) + "] " + (100 * s.level).toFixed(0) + "%", "interval", { "data-sort": String(num(s.low)), title: s.note || "" }),
        valueCell(s.p_value, null, { "data-sort": String(num(s.p_value)), "class": "p" }), cell("td", s.method)])));
    });
    st.appendChild(sb); root.appendChild(st); sortable(st);
    root.appendChild(el("p", { "class": "note", text: "A slice whose cases carry the same ids in A and B is compared paired (joined on the ids); " +
      "any other slice unpaired, each model on its own cases. p-values are not adjusted for the number of slices." }));
  }

  // Each slice against the rest of its crossing (SlicedEvaluation.gaps): difference, interval, p-values adjusted for the comparisons.
  function gapsTable(G) {
    root.appendChild(el("h2", { text: "Gaps: each slice against the rest of its crossing (" + G.label + ")" }));
    var gt = el("table", { "class": "sortable", id: "gaps" });
    var hd = ["slice", "cases", G.label, "rest", "difference", (100 * G.level).toFixed(0) + "% interval", "p-value", "p-value (" + G.correction + ")", "method"];
    gt.appendChild(el("thead", null, [el("tr", null, hd.map(function (h, i) { return cell("th", h, i ? null : "name"); }))]));
    var gb = el("tbody");
    G.rows.forEach(function (g) {
      gb.appendChild(el("tr", { "data-slice": g.name }, [cell("td", g.name, "name", { "data-sort": g.name }),
        valueCell(g.num_cases, null, { "data-sort": String(g.num_cases) }), valueCell(g.estimate, null, { "data-sort": String(num(g.estimate)) }),
        valueCell(g.reference, null, { "data-sort": String(num(g.reference)) }), valueCell(g.difference, null, { "data-sort": String(num(g.difference)), "class": "difference" }),
        cell("td", "[" + fmt(g.low) + ", " + fmt(g.high) + "]", "interval", { "data-sort": String(num(g.low)), "data-low": String(num(g.low)), "data-high": String(num(g.high)) }),
        valueCell(g.p_value, null, { "data-sort": String(num(g.p_value)), "class": "p" }),
        valueCell(g.p_adjusted, null, { "data-sort": String(num(g.p_adjusted)), "class": "p-adjusted" }), cell("td", g.method)]));
    });
    gt.appendChild(gb); root.appendChild(gt); sortable(gt);
    root.appendChild(el("p", { "class": "note", text: "Each slice against the cases of its crossing outside it (an unpaired comparison of disjoint cases: " +
      "the bootstrap for average precision, DeLong's test for ROC AUC); p-values adjusted by " + (G.correction === "holm" ? "Holm's step-down method" : "Bonferroni's") +
      " over the " + G.rows.length + " comparisons. NaN: a slice or its rest with one class." }));
  }

  function ready() {
    document.body.setAttribute("data-render-ms", String(performance.now()));  // since navigation start
    document.body.setAttribute("data-ready", "1");
  }
  if (!R.length) {  // no query (or label) to draw: the tables above are the whole report
    root.appendChild(el("p", { "class": "note", id: "provenance", text: "No " + D.item_noun + " has curves yet. Made by scored_pr " + D.version + "." }));
    ready();
    return;
  }

  // ----- charts
  root.appendChild(el("h2", { text: "Curves" }));
  var controls = el("div", { "class": "controls" });
  if (layout === "per_label" || layout === "per_query") {
    var sel = el("select", { id: "item-select", "aria-label": "curves of" });
    R.forEach(function (r, k) { if (layout !== "per_label" || k > 0) sel.appendChild(el("option", { value: k, text: r.name })); });
    sel.addEventListener("change", function () { select(+sel.value); });
    controls.appendChild(el("label", { text: "Curves of " + D.item_noun + ": " }, [sel]));
    root.appendChild(controls);
  }
  var grid = el("div", { "class": "grid" });
  root.appendChild(grid);
  var pr = new Chart(grid, "pr", "Precision-recall", "recall", "precision", [0, 1], [0, 1.02]);
  var roc = new Chart(grid, "roc", "ROC", "false positive rate", "true positive rate (recall)", [0, 1], [0, 1.02]);
  var fc = null;

  function shown() {
    if (layout === "single") return [0];
    if (layout === "compare") return [0, 1];
    if (layout === "per_label") return api.current === 0 ? [0] : [api.current, 0];
    if (D.base !== undefined && D.base !== null && api.current !== D.base) return [api.current, D.base];  // a slice over the overall
    return [api.current];
  }
  function build() {
    var list = shown();
    pr.series = []; roc.series = []; pr.marks = []; roc.marks = [];
    pr.marks.push({ line: [0, 0, 1, 1], color: "#999" });
    var ths = [], fSeries = [];
    list.forEach(function (k, pos) {
      var r = R[k], colour = (layout === "per_label" && k === 0) || (k === D.base && (list.length > 1 || api.overlay !== null)) ? "#000000"
        : colourOf(layout === "compare" ? pos : pos === 0 ? 0 : 1);
      var label = layout === "single" ? "" : r.name + ": ";
      if (r.bounded) {
        pr.series.push({ boxes: r.pr_boxes, color: colour, label: label + "certified band" });
        pr.series.push({ x: r.pr_estimate.map(function (p) { return p[0]; }), y: r.pr_estimate.map(function (p) { return p[1]; }), color: colour, label: label + "estimate" });
        roc.series.push({ boxes: r.roc_boxes, color: colour, label: label + "certified band" });
        roc.series.push({ x: r.roc_estimate.map(function (p) { return p[0]; }), y: r.roc_estimate.map(function (p) { return p[1]; }), color: colour, label: label + "estimate" });
        return;
      }
      var d = r.derived, tip = function (i) { return pointTip(r, i); };
      pr.series.push({ x: d.recall, y: d.precision, color: colour, tip: tip, model: k, label: label + "operating points" });
      pr.series.push({ x: r.pr_interp.map(function (p) { return p[0]; }), y: r.pr_interp.map(function (p) { return p[1]; }), color: colour, dash: true, dots: r.pr_interp.length < 40, label: label + "interpolated" });
      var rows = [-1].concat(d.fpr.map(function (_, i) { return i; }));
      roc.series.push({ x: [0].concat(d.fpr), y: [0].concat(d.recall), rows: rows, color: colour, model: k, label: label + "operating points",
        tip: function (i) { return i < 0 ? "threshold inf: nothing accepted" : pointTip(r, i); } });
      roc.series.push({ x: r.roc_interp.map(function (p) { return p[0]; }), y: r.roc_interp.map(function (p) { return p[1]; }), color: colour, dash: true, dots: r.roc_interp.length < 40, label: label + (r.counts.ties === "grouped" ? "convex hull" : "interpolated") });
      if (r.bep !== null && pos === 0) pr.marks.push({ x: r.bep, y: r.bep, color: colour, label: "break-even " + fmt(r.bep, 4) });
      ths = ths.concat(r.table.threshold);
      fSeries.push({ x: r.table.threshold, y: d.f1, color: colour, tip: tip, model: k, label: label + "F1", r: r });
    });
    if (fSeries.length) {
      var lo = Math.min.apply(null, ths), hi = Math.max.apply(null, ths);
      if (!(hi > lo)) { lo -= 0.5; hi += 0.5; }
      var padx = (hi - lo) * 0.02;
      if (!fc) fc = new Chart(grid, "f", "F1 by threshold (accept score \u2265 threshold)", "threshold", "F1", [lo - padx, hi + padx], [0, 1.02]);
      fc.xr = [lo - padx, hi + padx];
      fc.series = fSeries; fc.marks = [];
      fSeries.forEach(function (s, k) {
        if (s.r.best.threshold !== null) fc.marks.push({ dy: 14 * k, x: s.r.best.threshold, y: s.r.best.f, shape: "diamond", color: s.color, label: "max F1 " + fmt(s.r.best.f, 4) + " at " + fmt(s.r.best.threshold, 4) });
      });
    }
    if (api.overlay !== null) {  // a slice without a full entry: its light curves over the overall ones
      var o = D.items[api.overlay], oc = colourOf(0);
      pr.series.push({ x: o.overlay.pr.map(function (p) { return p[0]; }), y: o.overlay.pr.map(function (p) { return p[1]; }), color: oc, width: 2.2, overlay: o.name,
        dots: o.overlay.pr.length < 40, label: o.name + ": " + o.overlay.pr.length + " operating points" });
      roc.series.push({ x: o.overlay.roc.map(function (p) { return p[0]; }), y: o.overlay.roc.map(function (p) { return p[1]; }), color: oc, width: 2.2, overlay: o.name,
        dots: o.overlay.roc.length < 40, label: o.name + ": " + o.overlay.roc.length + " operating points" });
    }
    reliabilityChart(list);
    [pr, roc, fc, rc].forEach(function (c) { if (c) c.setLegend(); });
  }

  // ----- the reliability diagram (probabilities only): CORP curve and band, binned points with
  // Clopper-Pearson intervals, the score histogram beneath (scaled to a fifth of the height)
  var rc = null;
  function reliabilityChart(list) {
    var rel = list.filter(function (k) { return R[k].reliability; });
    if (!rel.length) { if (rc) { rc.series = []; rc.marks = []; rc.box.style.display = "none"; } return; }
    if (!rc) rc = new Chart(grid, "reliability", "Reliability (are the scores probabilities?)", "score", "fraction correct", [0, 1], [0, 1.02]);
    rc.box.style.display = "";
    rc.series = []; rc.marks = [{ line: [0, 0, 1, 1], color: "#999" }];
    rel.forEach(function (k, pos) {
      var r = R[k], rl = r.reliability, label = layout !== "single" ? r.name + ": " : "";
      var colour = layout === "per_label" && k === 0 ? "#000000" : colourOf(layout === "compare" ? list.indexOf(k) : pos === 0 ? 0 : 1);
      var hmax = Math.max.apply(null, rl.histogram.map(function (h) { return h[2]; })) || 1;
      if (pos === 0) rc.series.push({ boxes: rl.histogram.map(function (h) { return [h[0], h[1], 0, 0.2 * h[2] / hmax]; }), color: "#888888", label: label + "scores (histogram)" });
      if (rl.band) rc.series.push({ boxes: rl.band, color: colour, label: label + fmt(100 * rl.confidence, 3) + "% consistency band" });
      rc.series.push({ x: rl.corp_x, y: rl.corp_y, color: colour, model: k,
        label: label + "CORP (MCB " + fmt(rl.mcb, 4) + ", DSC " + fmt(rl.dsc, 4) + ", UNC " + fmt(rl.unc, 4) + ")" });
      rc.series.push({ boxes: rl.bins.map(function (b) { return [b[0] - 0.004, b[0] + 0.004, b[2], b[3]]; }), color: colour,
        label: label + fmt(100 * rl.level, 3) + "% Clopper-Pearson intervals" });
      rc.series.push({ x: rl.bins.map(function (b) { return b[0]; }), y: rl.bins.map(function (b) { return b[1]; }), color: colour, dash: true, dots: true, model: k,
        label: label + rl.bins.length + " bins", rows: rl.bins.map(function (_, i) { return i; }),
        tip: function (i) { var b = rl.bins[i]; return "<table><tr><th>mean score</th><td>" + fmt(b[0], 4) + "</td></tr><tr><th>fraction correct</th><td>" +
          fmt(b[1], 4) + " [" + fmt(b[2], 4) + ", " + fmt(b[3], 4) + "]</td></tr><tr><th>weight</th><td>" + fmt(b[4]) + "</td></tr></table>"; } });
    });
  }

  // ----- the threshold control
  var tp = null;
  function thresholdPanel() {
    var rs = R.filter(function (r) { return r.table; });
    if (!rs.length) {
      root.appendChild(el("p", { "class": "note", text: "A bounded summary keeps bins, not every score: the boxes hold the exact curves (certified bounds); no threshold control." }));
      return;
    }
    root.appendChild(el("h2", { text: "At a threshold" }));
    var box = el("div", { "class": "panel threshold", id: "threshold-panel" });
    var left = el("div");
    var slider = el("input", { type: "range", id: "th-slider", min: 0, step: 1, "aria-label": "threshold (slider)" });
    var input = el("input", { type: "number", id: "th-value", step: "any", "aria-label": "threshold (typed)" });
    var modelSel = null;
    if (layout === "compare") {
      modelSel = el("select", { id: "th-model", "aria-label": "model" });
      R.forEach(function (r, k) { modelSel.appendChild(el("option", { value: k, text: r.name })); });
      left.appendChild(el("label", { text: "Model: " }, [modelSel]));
    }
    left.appendChild(el("label", { text: "Threshold (accept score \u2265 it): " }, [input]));
    left.appendChild(el("div", { "class": "controls" }, [slider]));
    var note = el("p", { "class": "note", id: "th-note" });
    left.appendChild(note);
    var cm = el("table", { id: "confusion" }, [
      el("thead", null, [el("tr", null, [cell("th", ""), cell("th", "actual positive"), cell("th", "actual negative")])]),
      el("tbody", null, [
        el("tr", null, [cell("th", "accepted", "name"), cell("td", "", null, { id: "cm-tp" }), cell("td", "", null, { id: "cm-fp" })]),
        el("tr", null, [cell("th", "rejected", "name"), cell("td", "", null, { id: "cm-fn" }), cell("td", "", null, { id: "cm-tn" })]),
      ])]);
    var pm = el("table", { id: "at-threshold" }, [el("tbody", null, ["precision", "recall", "F1"].map(function (k) {
      return el("tr", null, [cell("th", k, "name"), cell("td", "", null, { id: "th-" + k.toLowerCase() })]);
    }))]);
    box.appendChild(left); box.appendChild(cm); box.appendChild(pm);
    root.appendChild(box);
    function model() { return modelSel ? +modelSel.value : layout === "single" ? 0 : api.current; }
    function set(field, v, why) {
      var c = document.getElementById(field); c.textContent = fmt(v); c.setAttribute("data-value", String(v));
      if (why && isNaN(v)) { c.setAttribute("data-note", why); c.setAttribute("title", why); c.appendChild(el("span", { "class": "why", text: " (" + why + ")" })); }
      else { c.removeAttribute("data-note"); c.removeAttribute("title"); }
    }
    function show(t, fromSlider) {
      var k = model(), r = R[k];
      if (!r.table) return;
      var c = confusionAt(r, t), pos = r.counts.positive_weight;
      set("cm-tp", c.tp); set("cm-fp", c.fp); set("cm-tn", c.tn); set("cm-fn", c.fn);
      set("th-precision", c.tp + c.fp ? c.tp / (c.tp + c.fp) : NaN, "undefined: no case accepted");
      set("th-recall", pos ? c.tp / pos : NaN, r.counts.num_cases ? "undefined: no positive case" : "undefined: no cases yet");
      var den = (1 + 1) * c.tp + 1 * c.fn + c.fp;
      set("th-f1", den ? (1 + 1) * c.tp / den : NaN, r.counts.num_cases ? "undefined: no positive case and none accepted" : "undefined: no cases yet");
      var n = r.table.threshold.length;
      if (!fromSlider) slider.value = c.row < 0 ? 0 : n - 1 - c.row;
      var exact = r.complete || c.row < 0 || c.threshold === t || fromSlider;
      note.setAttribute("data-exact", exact ? "1" : "0");
      note.textContent = c.row < 0 ? "Above every score: nothing accepted." :
        (exact ? "Counts at threshold " + fmt(t, 12) + " (accepting " + fmt(c.tp + c.fp) + " cases)." :
          "This page holds " + fmt(n) + " of the " + fmt(r.distinct) + " distinct scores; shown: the counts at " +
          fmt(c.threshold, 12) + ", the nearest of them at or above " + fmt(t, 12) + ".") +
        (r.complete ? " The page holds every distinct score, so any typed threshold is exact." : "");
      api.threshold = { model: k, threshold: fromSlider ? t : c.row < 0 ? t : c.threshold, row: c.row };
      [pr, roc].forEach(function (ch) { ch.marks = ch.marks.filter(function (m) { return !m.current; }); });
      if (c.row >= 0) {
        var d = r.derived;
        pr.marks.push({ current: true, x: d.recall[c.row], y: d.precision[c.row], color: "#D55E00" });
        roc.marks.push({ current: true, x: d.fpr[c.row], y: d.recall[c.row], color: "#D55E00" });
      }
      if (fc) { fc.marks = fc.marks.filter(function (m) { return !m.current; }); if (c.row >= 0) fc.marks.push({ current: true, vline: c.threshold, color: "#D55E00" }); }
      [pr, roc, fc, rc].forEach(function (ch) { if (ch) ch.draw(); });
    }
    function reset() {
      var r = R[model()], n = r.table.threshold.length;
      slider.max = Math.max(n - 1, 0);
      var t = r.best.threshold !== null ? r.best.threshold : r.table.threshold[0];
      input.value = t; show(t, false);
    }
    slider.addEventListener("input", function () {
      var r = R[model()], t = r.table.threshold[r.table.threshold.length - 1 - (+slider.value)];
      input.value = t; show(t, true);
    });
    input.addEventListener("input", function () { var t = parseFloat(input.value); if (!isNaN(t)) show(t, false); });
    input.addEventListener("change", function () { var t = parseFloat(input.value); if (!isNaN(t)) show(t, false); });
    if (modelSel) modelSel.addEventListener("change", reset);
    api.setThreshold = function (t) { input.value = t; show(t, false); };
    tp = { reset: reset };
  }

  function select(k, overlay) {
    api.current = k;
    api.overlay = overlay === undefined ? null : overlay;
    var sel = document.getElementById("item-select"); if (sel) sel.value = k;
    Array.prototype.forEach.call(document.querySelectorAll("#items tbody tr"), function (tr) {
      tr.classList.toggle("selected", api.overlay !== null ? tr.getAttribute("data-overlay") === String(api.overlay)
        : tr.getAttribute("data-curve") === String(k));
    });
    build();
    if (tp && R[k].table) tp.reset(); else [pr, roc, fc, rc].forEach(function (c) { if (c) c.draw(); });
  }
  api.select = select;
  // The slice of table row ``index`` (one without a full entry) over the overall curves.
  function showOverlay(index) { select(D.base !== undefined && D.base !== null ? D.base : 0, index); }
  api.showOverlay = showOverlay;

  build();
  thresholdPanel();
  var anyExact = R.some(function (r) { return r.table; });
  if (anyExact) root.appendChild(el("p", { "class": "note", id: "provenance", text: "Every drawn point of the solid curves is an exact operating point (a distinct score threshold); " +
    "when a ranking has more distinct scores than the page keeps, the points are a subset chosen along the curves (best F1, break-even and both ends always kept). " +
    "Dashed: the interpolated PR curve and the ROC convex hull. Made by scored_pr " + D.version + "." }));
  else root.appendChild(el("p", { "class": "note", id: "provenance", text: "The line is the estimate from the bins; every point of the exact curve lies in one of the shaded boxes. Made by scored_pr " + D.version + "." }));
  select(layout === "per_label" ? (R.length > 1 ? 1 : 0) : 0);
  window.addEventListener("resize", function () { [pr, roc, fc, rc].forEach(function (c) { if (c) c.draw(); }); });
  function redraw() { [pr, roc, fc, rc].forEach(function (c) { if (c) c.draw(); }); }
  window.addEventListener("beforeprint", redraw);
  if (window.matchMedia) {  // print layout: redraw the charts at the printed size, not scaled bitmaps
    var printing = window.matchMedia("print");
    if (printing.addEventListener) printing.addEventListener("change", redraw); else if (printing.addListener) printing.addListener(redraw);
  }
  ready();
})();
