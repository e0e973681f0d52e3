// The runs page of a zeroone experiment (src/harness/report/html.rs): tabs, the runs table
// (sort, filters, column chooser, paging), the plots (Chart.js) and a run's details. Every
// piece of view state lives in the URL hash, so a link reproduces the view.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var RUNS = D.runs;
  var N = RUNS.length;
  var COL = {};
  D.columns.forEach(function (c, i) { COL[c] = i; });
  var PAGE = 100;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function timeText(s) {
    if (s === null || s === undefined) return "";
    if (s < 1e-3) return (s * 1e6).toPrecision(3) + " us";
    if (s < 1) return (s * 1e3).toPrecision(3) + " ms";
    return s.toPrecision(3) + " s";
  }
  function label(r) { return D.labels[r[COL.backend]]; }
  // The certified column, where any run has a certificate: checked, rejected or none.
  var ANY_CERT = RUNS.some(function (r) { return r[COL.certificate]; });
  function certified(r) { return ANY_CERT ? r[COL.certificate] || "none" : null; }

  // The table's columns: key, kind (num: numeric sort and range filter; str), value, text.
  function raw(key) { return function (r) { return r[COL[key]]; }; }
  var COLUMNS = [
    { key: "instance", kind: "str", value: function (r) { return D.instances[r[COL.instance]]; } },
    { key: "source", kind: "str", value: function (r) { return D.sources[r[COL.source]]; } },
    { key: "size", kind: "num", value: raw("size") },
    { key: "backend", kind: "str", value: function (r) { return label(r).label; } },
    { key: "repetition", kind: "num", value: raw("repetition") },
    { key: "status", kind: "str", value: raw("status") },
    { key: "verified", kind: "str", value: function (r) { return r[COL.verified] ? "yes" : "no"; } },
    { key: "certified", kind: "str", value: certified },
    { key: "check_seconds", kind: "num", value: raw("check_seconds"), text: timeText },
    { key: "seconds", kind: "num", value: raw("seconds"), text: timeText },
    { key: "wall_seconds", kind: "num", value: raw("wall_seconds"), text: timeText },
    { key: "cpu_seconds", kind: "num", value: raw("cpu_seconds"), text: timeText },
    { key: "peak_rss_mb", kind: "num", value: raw("peak_rss_mb"), text: function (x) { return x.toFixed(1); } },
    { key: "count", kind: "big", value: raw("count") },
    { key: "objective", kind: "big", value: raw("objective") },
    { key: "bound", kind: "big", value: raw("bound") },
    { key: "gap", kind: "num", value: raw("gap"), text: function (x) { return x.toPrecision(3); } },
    { key: "nodes", kind: "num", value: raw("nodes") },
    { key: "variables", kind: "num", value: raw("variables") },
    { key: "rows", kind: "num", value: raw("rows") },
    { key: "original_variables", kind: "num", value: raw("original_variables") },
    { key: "original_rows", kind: "num", value: raw("original_rows") },
    { key: "limit_by", kind: "str", value: raw("limit_by") },
    { key: "reason", kind: "str", value: raw("reason") }
  ];
  var BY_KEY = {};
  COLUMNS.forEach(function (c) { BY_KEY[c.key] = c; });
  function present(c) {
    for (var i = 0; i < N; i++) { var v = c.value(RUNS[i]); if (v !== null && v !== undefined) return true; }
    return false;
  }
  var DEFAULT_COLS = ["instance", "source", "backend", "repetition", "status", "verified", "certified", "seconds",
    "cpu_seconds", "peak_rss_mb", "count", "objective", "nodes", "reason"].filter(function (k) {
      return present(BY_KEY[k]);
    });

  // Sort keys, made once per column on first use: numbers (NaN when absent) or string ranks.
  var KEYS = {};
  function sortKeys(c) {
    if (KEYS[c.key]) return KEYS[c.key];
    var keys = new Float64Array(N);
    if (c.kind === "str") {
      var values = [], seen = {};
      for (var i = 0; i < N; i++) {
        var v = c.value(RUNS[i]);
        if (v !== null && v !== undefined && !seen.hasOwnProperty(v)) { seen[v] = 0; values.push(v); }
      }
      values.sort();
      values.forEach(function (v, k) { seen[v] = k; });
      for (i = 0; i < N; i++) {
        var s = c.value(RUNS[i]);
        keys[i] = s === null || s === undefined ? NaN : seen[s];
      }
    } else {
      for (i = 0; i < N; i++) {
        var x = c.value(RUNS[i]);
        keys[i] = x === null || x === undefined ? NaN : Number(x);
      }
    }
    KEYS[c.key] = keys;
    return keys;
  }

  // View state, kept in the URL hash.
  var state = {};
  function readHash() {
    var p = new URLSearchParams(location.hash.replace(/^#/, ""));
    var list = function (k) { var v = p.get(k); return v ? v.split(",") : []; };
    state = {
      tab: p.get("tab") || "summary",
      sort: p.get("sort") || "", dir: p.get("dir") === "desc" ? "desc" : "asc",
      status: list("status"), backend: list("backend"), source: list("source"), certified: list("certified"),
      q: p.get("q") || "", ranges: {},
      cols: p.get("cols") ? list("cols") : DEFAULT_COLS.slice(),
      page: Math.max(0, parseInt(p.get("page") || "0", 10) || 0),
      sx: p.get("sx") || "", sy: p.get("sy") || "",
      scale: p.get("scale") === "linear" ? "linear" : "log",
      run: p.has("run") ? parseInt(p.get("run"), 10) : -1
    };
    p.forEach(function (v, k) {
      var m = /^(min|max)\.(.+)$/.exec(k);
      if (m && BY_KEY[m[2]] && v !== "" && !isNaN(Number(v))) {
        state.ranges[m[2]] = state.ranges[m[2]] || {};
        state.ranges[m[2]][m[1]] = Number(v);
      }
    });
  }
  function writeHash() {
    var p = new URLSearchParams();
    p.set("tab", state.tab);
    if (state.sort) { p.set("sort", state.sort); p.set("dir", state.dir); }
    ["status", "backend", "source", "certified"].forEach(function (k) { if (state[k].length) p.set(k, state[k].join(",")); });
    if (state.q) p.set("q", state.q);
    Object.keys(state.ranges).sort().forEach(function (k) {
      ["min", "max"].forEach(function (m) { if (state.ranges[k][m] !== undefined) p.set(m + "." + k, state.ranges[k][m]); });
    });
    if (state.cols.join(",") !== DEFAULT_COLS.join(",")) p.set("cols", state.cols.join(","));
    if (state.page) p.set("page", state.page);
    if (state.sx) p.set("sx", state.sx);
    if (state.sy) p.set("sy", state.sy);
    if (state.scale !== "log") p.set("scale", state.scale);
    if (state.run >= 0) p.set("run", state.run);
    var hash = "#" + p.toString();
    if (location.hash !== hash) history.replaceState(null, "", hash);
    written = location.hash;
  }

  // Every run in the order of a column (absent values last, ties in record order), made once
  // per column and direction; a filter then keeps that order in one pass, with no sort. Only
  // the engine's own numeric sorts (no comparator calls): each run's rank among the column's
  // distinct values, times N, plus its index, sorted as one number.
  var ORDER = {};
  function sortedAll(key, dir) {
    var id = key + ":" + dir;
    if (ORDER[id]) return ORDER[id];
    var keys = sortKeys(BY_KEY[key]);
    var present = new Float64Array(N), m = 0, i;
    for (i = 0; i < N; i++) if (!isNaN(keys[i])) present[m++] = keys[i];
    present = present.subarray(0, m).sort();
    var distinct = new Float64Array(m), d = 0;
    for (i = 0; i < m; i++) if (d === 0 || present[i] !== distinct[d - 1]) distinct[d++] = present[i];
    var packed = new Float64Array(N);
    for (i = 0; i < N; i++) {
      var x = keys[i], rank = d;
      if (!isNaN(x)) {
        var lo = 0, hi = d - 1;
        while (lo < hi) { var mid = (lo + hi) >> 1; if (distinct[mid] < x) lo = mid + 1; else hi = mid; }
        rank = dir === "desc" ? d - 1 - lo : lo;
      }
      packed[i] = rank * N + i;
    }
    packed.sort();
    var idx = new Int32Array(N);
    for (i = 0; i < N; i++) idx[i] = packed[i] % N;
    ORDER[id] = idx;
    return idx;
  }

  // The filtered and sorted run indices.
  var view = new Int32Array(0);
  function recompute() {
    var order = state.sort && BY_KEY[state.sort] ? sortedAll(state.sort, state.dir) : null;
    var st = state.status.length ? new Set(state.status) : null;
    var be = state.backend.length ? new Set(state.backend) : null;
    var so = state.source.length ? new Set(state.source) : null;
    var ce = state.certified.length ? new Set(state.certified) : null;
    var q = state.q.toLowerCase();
    var ranges = Object.keys(state.ranges).map(function (k) {
      return { keys: sortKeys(BY_KEY[k]), min: state.ranges[k].min, max: state.ranges[k].max };
    });
    var out = new Int32Array(N), n = 0;
    for (var j = 0; j < N; j++) {
      var i = order ? order[j] : j;
      var r = RUNS[i];
      if (st && !st.has(r[COL.status])) continue;
      if (be && !be.has(D.labels[r[COL.backend]].label)) continue;
      if (so && !so.has(D.sources[r[COL.source]])) continue;
      if (ce && !ce.has(certified(r))) continue;
      if (q && D.instances[r[COL.instance]].toLowerCase().indexOf(q) < 0) continue;
      var ok = true;
      for (var k = 0; k < ranges.length && ok; k++) {
        var x = ranges[k].keys[i];
        if (isNaN(x) || (ranges[k].min !== undefined && x < ranges[k].min) ||
            (ranges[k].max !== undefined && x > ranges[k].max)) ok = false;
      }
      if (ok) out[n++] = i;
    }
    view = out.subarray(0, n);
  }

  // The runs tab.
  var runsTab = document.getElementById("tab-runs");
  function checkboxes(name, values, chosen, display) {
    var fs = el("fieldset", { id: "filter-" + name });
    fs.appendChild(el("legend", null, name));
    values.forEach(function (v) {
      var lab = el("label");
      var box = el("input", { type: "checkbox", value: v, "data-filter": name });
      box.checked = chosen.indexOf(v) >= 0;
      box.addEventListener("change", function () {
        state[name] = Array.prototype.filter.call(fs.querySelectorAll("input"), function (b) { return b.checked; })
          .map(function (b) { return b.value; });
        state.page = 0; update();
      });
      lab.appendChild(box);
      lab.appendChild(document.createTextNode(" " + (display ? display(v) : v)));
      fs.appendChild(lab);
    });
    return fs;
  }
  function statusesPresent() {
    var seen = {};
    RUNS.forEach(function (r) { seen[r[COL.status]] = 1; });
    return D.statuses.filter(function (s) { return seen[s]; });
  }
  function buildRunsControls() {
    runsTab.textContent = "";
    var controls = el("div", { "class": "controls" });
    var perStatus = {};
    RUNS.forEach(function (r) { perStatus[r[COL.status]] = (perStatus[r[COL.status]] || 0) + 1; });
    controls.appendChild(checkboxes("status", statusesPresent(), state.status,
      function (v) { return v + " (" + perStatus[v] + ")"; }));
    controls.appendChild(checkboxes("backend", D.labels.map(function (l) { return l.label; }), state.backend,
      function (v) { var l = D.labels.filter(function (x) { return x.label === v; })[0]; return l.peer ? v + " (peer)" : v; }));
    if (D.sources.length > 1) controls.appendChild(checkboxes("source", D.sources.slice().sort(), state.source));
    if (ANY_CERT) controls.appendChild(checkboxes("certified", ["checked", "rejected", "none"].filter(function (v) {
      return RUNS.some(function (r) { return certified(r) === v; });
    }), state.certified));
    var search = el("fieldset");
    search.appendChild(el("legend", null, "instance contains"));
    var q = el("input", { type: "search", id: "filter-q" });
    q.value = state.q;
    q.addEventListener("input", function () { state.q = q.value; state.page = 0; update(); });
    search.appendChild(q);
    controls.appendChild(search);
    var chooser = el("details", { id: "columns" });
    chooser.appendChild(el("summary", null, "columns"));
    COLUMNS.forEach(function (c) {
      var lab = el("label");
      var box = el("input", { type: "checkbox", value: c.key, "data-column": c.key });
      box.checked = state.cols.indexOf(c.key) >= 0;
      box.addEventListener("change", function () {
        state.cols = COLUMNS.map(function (x) { return x.key; }).filter(function (k) {
          var b = chooser.querySelector("input[value='" + k + "']");
          return b && b.checked;
        });
        update();
      });
      lab.appendChild(box);
      lab.appendChild(document.createTextNode(" " + c.key + " "));
      chooser.appendChild(lab);
    });
    controls.appendChild(chooser);
    runsTab.appendChild(controls);
    var pager = el("div", { "class": "pager" });
    var prev = el("button", { id: "prev" }, "previous");
    var next = el("button", { id: "next" }, "next");
    prev.addEventListener("click", function () { if (state.page > 0) { state.page--; update(); } });
    next.addEventListener("click", function () { if ((state.page + 1) * PAGE < view.length) { state.page++; update(); } });
    pager.appendChild(prev);
    pager.appendChild(next);
    pager.appendChild(el("span", { id: "count" }));
    runsTab.appendChild(pager);
    runsTab.appendChild(el("table", { id: "runs-table" }));
  }
  function renderTable() {
    var table = document.getElementById("runs-table");
    var cols = state.cols.map(function (k) { return BY_KEY[k]; }).filter(Boolean);
    var thead = el("thead"), head = el("tr"), filters = el("tr", { "class": "filters" });
    cols.forEach(function (c) {
      var th = el("th", { "data-sort": c.key, "class": c.kind === "str" ? "" : "num" }, c.key);
      if (state.sort === c.key) th.className += " sorted-" + state.dir;
      th.addEventListener("click", function () {
        if (state.sort === c.key) state.dir = state.dir === "asc" ? "desc" : "asc";
        else { state.sort = c.key; state.dir = "asc"; }
        update();
      });
      head.appendChild(th);
      var f = el("th");
      if (c.kind !== "str") {
        ["min", "max"].forEach(function (m) {
          var input = el("input", { type: "text", placeholder: m, "data-range": m + "." + c.key });
          var r = state.ranges[c.key];
          if (r && r[m] !== undefined) input.value = r[m];
          input.addEventListener("change", function () {
            var v = input.value.trim();
            state.ranges[c.key] = state.ranges[c.key] || {};
            if (v === "" || isNaN(Number(v))) delete state.ranges[c.key][m];
            else state.ranges[c.key][m] = Number(v);
            if (!Object.keys(state.ranges[c.key]).length) delete state.ranges[c.key];
            state.page = 0; update();
          });
          f.appendChild(input);
        });
      }
      filters.appendChild(f);
    });
    thead.appendChild(head);
    thead.appendChild(filters);
    var tbody = el("tbody");
    var pages = Math.max(1, Math.ceil(view.length / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var from = state.page * PAGE, to = Math.min(view.length, from + PAGE);
    var rows = [];
    for (var k = from; k < to; k++) {
      var i = view[k], r = RUNS[i];
      var cells = cols.map(function (c) {
        var v = c.value(r);
        var text = v === null || v === undefined ? "" : (c.text ? c.text(v) : String(v));
        var cls = c.kind === "str" ? "" : "num";
        if (c.key === "status") cls = "st-" + v;
        if (c.key === "backend" && label(r).peer) cls = "peer";
        if (c.key === "reason") return "<td class=\"reason\" title=\"" + escapeHtml(text) + "\">" + escapeHtml(text) + "</td>";
        return "<td class=\"" + cls + "\">" + escapeHtml(text) + "</td>";
      });
      rows.push("<tr data-run=\"" + i + "\">" + cells.join("") + "</tr>");
    }
    tbody.innerHTML = rows.join("");
    tbody.addEventListener("click", function (e) {
      var tr = e.target.closest("tr");
      if (tr) openRun(parseInt(tr.getAttribute("data-run"), 10));
    });
    table.textContent = "";
    table.appendChild(thead);
    table.appendChild(tbody);
    var count = document.getElementById("count");
    count.setAttribute("data-count", view.length);
    count.textContent = view.length ? "runs " + (from + 1) + "-" + to + " of " + view.length +
      (view.length < N ? " (" + N + " in all)" : "") : "no run matches (" + N + " in all)";
  }
  function escapeHtml(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  // A run's details.
  function openRun(i) { state.run = i; state.tab = "run"; update(); }
  function renderRun() {
    var tab = document.getElementById("tab-run");
    tab.textContent = "";
    if (!(state.run >= 0 && state.run < N)) {
      tab.appendChild(el("p", { "class": "muted" }, "Click a row of the runs table or a point of a plot to see its run here."));
      return;
    }
    var r = RUNS[state.run];
    tab.appendChild(el("h2", { id: "run-title" }, D.instances[r[COL.instance]] + " / " + label(r).label +
      (label(r).peer ? " (peer)" : "") + " / repetition " + r[COL.repetition]));
    var t = el("table", { id: "run-fields" });
    COLUMNS.forEach(function (c) {
      var v = c.value(r);
      if (v === null || v === undefined) return;
      var tr = el("tr");
      tr.appendChild(el("th", null, c.key === "reason" ? "reason (error or why unknown)" : c.key));
      tr.appendChild(el("td", null, c.text && c.text(v) !== String(v) ? c.text(v) + " (" + v + ")" : String(v)));
      t.appendChild(tr);
    });
    var tr = el("tr");
    tr.appendChild(el("th", null, "registry name"));
    tr.appendChild(el("td", null, label(r).name));
    t.appendChild(tr);
    tab.appendChild(t);
    renderProof(tab, r[COL.proof]);
    if (r[COL.stderr]) {
      tab.appendChild(el("h3", null, "Standard error (its last 4 KB)"));
      tab.appendChild(el("pre", { id: "run-stderr" }, r[COL.stderr]));
    }
    tab.appendChild(el("h3", null, "Options"));
    tab.appendChild(el("pre", { id: "run-options" }, JSON.stringify(JSON.parse(D.options[r[COL.options]]), null, 2)));
    tab.appendChild(el("h3", null, "Statistics"));
    var figs = r[COL.figures];
    if (figs) {
      var ft = el("table", { id: "run-figures" });
      D.figure_names[figs[0]].forEach(function (k, j) {
        var row = el("tr");
        row.appendChild(el("th", null, k));
        row.appendChild(el("td", { "class": "num" }, String(figs[j + 1])));
        ft.appendChild(row);
      });
      tab.appendChild(ft);
    } else tab.appendChild(el("p", { "class": "muted" }, "No statistics recorded."));
    tab.appendChild(el("h3", null, "Other runs of this instance"));
    var ul = el("ul");
    for (var i = 0; i < N; i++) {
      if (RUNS[i][COL.instance] !== r[COL.instance] || i === state.run) continue;
      var li = el("li"), a = el("a", { href: "#", "data-run": i },
        label(RUNS[i]).label + " / repetition " + RUNS[i][COL.repetition] + ": " + RUNS[i][COL.status] +
        " in " + timeText(RUNS[i][COL.seconds]));
      a.addEventListener("click", (function (j) { return function (e) { e.preventDefault(); openRun(j); }; })(i));
      li.appendChild(a);
      ul.appendChild(li);
    }
    tab.appendChild(ul);
  }

  // A certified run's proof: a link relative to the page (NAME.proofs/ beside it), and the
  // model it proves, STEM.opb in the same folder.
  function renderProof(tab, proof) {
    if (!proof) return;
    tab.appendChild(el("h3", null, "Proof"));
    var p = el("p");
    p.appendChild(el("a", { id: "run-proof", href: proof }, proof));
    var stem = proof.replace(/\.pbp(\.gz)?$/, "");
    p.appendChild(document.createTextNode(" (the model it proves: " + stem +
      ".opb, .opb.gz when over 1 MB, in the same folder)"));
    tab.appendChild(p);
  }

  // The plots.
  var ANSWERS = { solved: 1, optimal: 1, feasible: 1, infeasible: 1 };
  function median(xs) {
    if (!xs.length) return null;
    var s = xs.slice().sort(function (a, b) { return a - b; }), m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  }
  // Per label and instance: the median answered time, or null when no repetition answered.
  var perInstance = null;
  function perInstanceTimes() {
    if (perInstance) return perInstance;
    perInstance = D.labels.map(function () { return new Map(); });
    RUNS.forEach(function (r, i) {
      var m = perInstance[r[COL.backend]], inst = r[COL.instance];
      if (!m.has(inst)) m.set(inst, { times: [], run: i });
      if (ANSWERS[r[COL.status]]) m.get(inst).times.push(r[COL.seconds]);
    });
    perInstance.forEach(function (m) { m.forEach(function (v) { v.median = median(v.times); }); });
    return perInstance;
  }
  var charts = {};
  // A label's colour in the report's SVG figures (from the data), so it is the same here.
  function colourOf(l, k) { return l.colour || COLORS[k % COLORS.length]; }
  var COLORS = ["#2f5d9b", "#d9822b", "#3a9d5d", "#b3261e", "#7b4fa0", "#8a6d3b", "#d45d9e", "#5f6b7a", "#17a2b8", "#9aa63a"];
  function cap() {
    if (D.time_limit) return D.time_limit;
    var top = 0;
    RUNS.forEach(function (r) { if (r[COL.seconds] > top) top = r[COL.seconds]; });
    return top || 1;
  }
  // A time axis: log or linear, ticks as times, from `min` to `max` when given.
  function axis(title, min, max) {
    var a = { type: state.scale === "log" ? "logarithmic" : "linear", title: { display: true, text: title },
      ticks: { callback: function (v) { return timeText(Number(v)); } } };
    if (min !== undefined) a.min = min;
    if (max !== undefined) a.max = max;
    return a;
  }
  function renderPlots() {
    var tab = document.getElementById("tab-plots");
    Object.keys(charts).forEach(function (k) { charts[k].destroy(); });
    charts = {};
    tab.textContent = "";
    var controls = el("div", { "class": "controls" });
    var scale = el("select", { id: "scale" });
    ["log", "linear"].forEach(function (s) { var o = el("option", { value: s }, s); o.selected = state.scale === s; scale.appendChild(o); });
    scale.addEventListener("change", function () { state.scale = scale.value; update(); });
    var names = D.labels.map(function (l) { return l.label; });
    if (names.indexOf(state.sx) < 0) state.sx = D.baseline && names.indexOf(D.baseline) >= 0 ? D.baseline : names[0] || "";
    if (names.indexOf(state.sy) < 0) state.sy = names.filter(function (n) { return n !== state.sx; })[0] || state.sx;
    var pick = function (id, key) {
      var s = el("select", { id: id });
      D.labels.forEach(function (l) {
        var o = el("option", { value: l.label }, l.peer ? l.label + " (peer)" : l.label);
        o.selected = state[key] === l.label;
        s.appendChild(o);
      });
      s.addEventListener("change", function () { state[key] = s.value; update(); });
      return s;
    };
    [["scale ", scale], ["scatter x ", pick("scatter-x", "sx")], ["scatter y ", pick("scatter-y", "sy")]].forEach(function (p) {
      var lab = el("label", null, p[0]);
      lab.appendChild(p[1]);
      controls.appendChild(lab);
    });
    tab.appendChild(controls);
    var limit = cap();
    tab.appendChild(el("h2", null, "Cactus"));
    tab.appendChild(el("p", { "class": "muted" }, "Each backend's answered instances sorted by time (median over repetitions): the k-th point is the time within which it answered k instances." +
      (D.time_limit ? " The time limit is " + D.time_limit + " s." : "")));
    var cactusBox = el("div", { "class": "plot" }), cactus = el("canvas", { id: "cactus" });
    cactusBox.appendChild(cactus);
    tab.appendChild(cactusBox);
    tab.appendChild(el("h2", null, "Scatter"));
    tab.appendChild(el("p", { "class": "muted" }, "Per instance, the median answered time of the y backend against the x backend's; an instance without an answer is drawn at " +
      (D.time_limit ? "the time limit" : "the largest time on record") + " (" + timeText(limit) + "). Dashed: the diagonal, 2x and 10x either way. Click a point to open the y backend's run."));
    var scatterBox = el("div", { "class": "plot" }), scatter = el("canvas", { id: "scatter" });
    scatterBox.appendChild(scatter);
    tab.appendChild(scatterBox);
    if (typeof Chart === "undefined") return;
    var times = perInstanceTimes();
    var lo = Infinity;
    times.forEach(function (m) { m.forEach(function (v) { if (v.median !== null && v.median > 0 && v.median < lo) lo = v.median; }); });
    if (!isFinite(lo)) lo = limit / 10;
    var floor = function (x) { return state.scale === "log" ? Math.max(x, lo) : x; };
    var sets = D.labels.map(function (l, k) {
      var ts = [];
      times[k].forEach(function (v) { if (v.median !== null) ts.push(floor(v.median)); });
      ts.sort(function (a, b) { return a - b; });
      return { label: l.peer ? l.label + " (peer)" : l.label, data: ts.map(function (t, j) { return { x: j + 1, y: t }; }),
        borderColor: colourOf(l, k), backgroundColor: colourOf(l, k), pointRadius: 2, showLine: true,
        borderWidth: 1.5, borderDash: l.peer ? [4, 3] : [] };
    });
    if (D.time_limit) {
      var most = 1;
      sets.forEach(function (s) { most = Math.max(most, s.data.length); });
      sets.push({ label: "time limit", data: [{ x: 1, y: D.time_limit }, { x: most, y: D.time_limit }], borderColor: "#999",
        borderDash: [6, 4], pointRadius: 0, showLine: true, borderWidth: 1 });
    }
    charts.cactus = new Chart(cactus, { type: "scatter", data: { datasets: sets }, options: {
      animation: false, maintainAspectRatio: false, parsing: false,
      scales: { x: { type: "linear", title: { display: true, text: "instances answered" }, ticks: { precision: 0 } },
        y: axis("seconds") } } });
    var xi = names.indexOf(state.sx), yi = names.indexOf(state.sy);
    if (xi < 0 || yi < 0) return;
    var points = [];
    times[yi].forEach(function (vy, inst) {
      var vx = times[xi].get(inst);
      if (!vx) return;
      points.push({ x: floor(vx.median === null ? limit : vx.median), y: floor(vy.median === null ? limit : vy.median),
        inst: D.instances[inst], run: vy.run });
    });
    var bottom = state.scale === "log" ? lo / 1.5 : 0, top = limit * 1.2;
    var ends = [bottom, top];
    var line = function (f, name) {
      return { label: name, data: ends.map(function (x) { return { x: x, y: x * f }; }), showLine: true, pointRadius: 0,
        borderColor: f === 1 ? "#555" : "#aaa", borderDash: [6, 4], borderWidth: 1 };
    };
    charts.scatter = new Chart(scatter, { type: "scatter", data: { datasets: [
      { label: state.sy + " vs " + state.sx, data: points, backgroundColor: "rgba(47,93,155,0.6)", pointRadius: 3 },
      line(1, "y = x"), line(2, "y = 2x"), line(0.5, "y = x/2"), line(10, "y = 10x"), line(0.1, "y = x/10")
    ] }, options: {
      animation: false, maintainAspectRatio: false, parsing: false,
      scales: { x: axis(state.sx + " seconds", bottom, top), y: axis(state.sy + " seconds", bottom, top) },
      plugins: { tooltip: { filter: function (item) { return item.datasetIndex === 0; }, callbacks: { label: function (item) {
        var p = item.raw;
        return p.inst + ": " + timeText(p.x) + " (" + state.sx + "), " + timeText(p.y) + " (" + state.sy + ")";
      } } } },
      onClick: function (e, items) {
        var hit = items.filter(function (i) { return i.datasetIndex === 0; })[0];
        if (hit) openRun(points[hit.index].run);
      } } });
  }

  // Tabs and the update loop.
  var tabs = document.querySelectorAll("#tabs button");
  Array.prototype.forEach.call(tabs, function (b) {
    b.addEventListener("click", function () { state.tab = b.getAttribute("data-tab"); update(); });
  });
  var built = false;
  var timings = {};
  function update() {
    var t0 = performance.now();
    if (["summary", "runs", "plots", "run"].indexOf(state.tab) < 0) state.tab = "summary";
    Array.prototype.forEach.call(tabs, function (b) { b.classList.toggle("active", b.getAttribute("data-tab") === state.tab); });
    ["summary", "runs", "plots", "run"].forEach(function (t) {
      document.getElementById("tab-" + t).classList.toggle("active", t === state.tab);
    });
    if (!built) { buildRunsControls(); built = true; }
    recompute();
    var t1 = performance.now();
    renderTable();
    if (state.tab === "plots") renderPlots();
    if (state.tab === "run") renderRun();
    writeHash();
    timings.compute = t1 - t0;
    timings.update = performance.now() - t0;
  }
  var written = "";
  window.addEventListener("hashchange", function () {
    if (location.hash === written) return;
    readHash(); built = false; update();
  });
  readHash();
  update();
  timings.first = performance.now();
  // For people and tests poking at the page from the console: the view and its timings (ms).
  window.zeroone = { state: function () { return state; }, view: function () { return view; },
    charts: function () { return charts; }, timings: timings, runs: N };
})();
