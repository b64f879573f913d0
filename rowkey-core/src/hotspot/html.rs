//! The key visualizer's page: one self-contained HTML file (inline CSS and script, the data as
//! JSON in the page, heatmaps drawn on canvases; nothing fetched), from a [`LoadMap`].

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use super::load::{printable_end, printable_start, LoadMap};
use super::svg::{civil_from_days, time_label, xml_escape};

/// `s` as a JSON string that is also safe inside an HTML `<script>` element: `<`, `>` and `&`
/// are escaped, so no `</script>` or `<!--` can end or change it.
pub(super) fn js_str(s: &str) -> String {
    json_string(s, true)
}

/// `s` as a JSON string literal — the one JSON string rule of the crate (the key tool's
/// `--json` output and this page): `"`, `\` and control characters escaped (`\n`, `\r`, `\t`
/// short, for people reading the tool's output); with `in_script`, every control character as
/// `\u00XX` and also `<`, `>`, `&` and U+2028/U+2029, so it is safe inside a `<script>`.
pub(crate) fn json_string(s: &str, in_script: bool) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' if !in_script => out.push_str("\\n"),
            '\r' if !in_script => out.push_str("\\r"),
            '\t' if !in_script => out.push_str("\\t"),
            '<' if in_script => out.push_str("\\u003c"),
            '>' if in_script => out.push_str("\\u003e"),
            '&' if in_script => out.push_str("\\u0026"),
            '\u{2028}' if in_script => out.push_str("\\u2028"),
            '\u{2029}' if in_script => out.push_str("\\u2029"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number (rates are checked finite when added; anything else is 0).
pub(super) fn js_num(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "0".to_owned()
    }
}

fn js_opt(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_owned(), js_str)
}

/// `YYYY-MM-DD HH:MM:SS` (UTC) of `ms` since the epoch.
fn date_time(ms: u64) -> String {
    let secs = ms / 1000;
    let (y, mo, d) = civil_from_days((secs / 86_400) as i64);
    let sod = secs % 86_400;
    format!(
        "{y:04}-{mo:02}-{d:02} {:02}:{:02}:{:02}",
        sod / 3600,
        (sod % 3600) / 60,
        sod % 60
    )
}

/// The map's data as one JSON object (the page's script draws it).
fn data_json(map: &LoadMap) -> String {
    let mut s = String::with_capacity(256 + map.ranges.len() * 200 + map.intervals.len() * 64);
    let _ = write!(
        s,
        "{{\"title\":{},\"unit\":{},\"ranges\":[",
        js_str(&map.title),
        js_str(&map.unit)
    );
    for (i, r) in map.ranges.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"label\":{},\"start\":{},\"end\":{},\"startDecoded\":{},\"endDecoded\":{},\"server\":{},\"region\":{},\"size\":{}}}",
            js_str(&r.label),
            js_str(&printable_start(&r.start)),
            js_str(&printable_end(r.end.as_deref())),
            js_opt(r.start_decoded.as_deref()),
            js_opt(r.end_decoded.as_deref()),
            js_opt(r.server.as_deref()),
            js_opt(r.region.as_deref()),
            r.store_size.map_or_else(|| "null".to_owned(), |b| b.to_string())
        );
    }
    s.push_str("],\"servers\":[");
    for (i, l) in map.server_loads().iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"name\":{},\"ranges\":{},\"reads\":{},\"writes\":{}}}",
            js_str(&l.server),
            l.ranges,
            js_num(l.reads),
            js_num(l.writes)
        );
    }
    s.push_str("],\"means\":[");
    for (i, (r, w)) in map.range_means().into_iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "[{},{}]", js_num(r), js_num(w));
    }
    let span = match (map.intervals.first(), map.intervals.last()) {
        (Some(a), Some(b)) => b.end_ms.saturating_sub(a.start_ms),
        _ => 0,
    };
    s.push_str("],\"times\":[");
    for (i, iv) in map.intervals.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"axis\":{},\"from\":{},\"to\":{}}}",
            js_str(&time_label(iv.start_ms, span)),
            js_str(&date_time(iv.start_ms)),
            js_str(&date_time(iv.end_ms))
        );
    }
    for (key, pick) in [("reads", true), ("writes", false)] {
        let _ = write!(s, "],\"{key}\":[");
        for (i, iv) in map.intervals.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push('[');
            let rates = if pick { &iv.reads } else { &iv.writes };
            for (j, v) in rates.iter().enumerate() {
                if j > 0 {
                    s.push(',');
                }
                s.push_str(&js_num(*v));
            }
            s.push(']');
        }
    }
    s.push_str("],\"findings\":[");
    for (i, f) in map.findings.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&js_str(f));
    }
    s.push_str("]}");
    s
}

const STYLE: &str = r##"
:root{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1d1d24;background:#f4f4f7}
body{margin:0;padding:18px 26px}
h1{font-size:20px;margin:0 0 4px}
#summary{margin:0 0 14px;color:#4a4a55;font-size:13px}
.panel{background:#fff;border:1px solid #dadae2;border-radius:6px;padding:12px 16px 8px;margin:0 0 14px;width:max-content;max-width:calc(100vw - 90px)}
.panel h2{font-size:15px;margin:0 0 10px;display:flex;gap:14px;align-items:center;flex-wrap:wrap}
.panel h2 small{font-weight:normal;color:#666;font-size:12px}
.map{display:flex;align-items:flex-start;gap:10px}
.ylabels{position:relative;width:310px;flex:none}
.ylabel{position:absolute;right:0;width:310px;height:14px;line-height:14px;font-size:12px;text-align:right;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.ylabel.hot{font-weight:bold}
.chip{display:inline-block;width:9px;height:9px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.plot{flex:none;position:relative}
.cursor{position:absolute;border:2px solid #fff;outline:1px solid #000;pointer-events:none;box-sizing:border-box}
canvas.heat{display:block;cursor:crosshair}
.xaxis{position:relative;height:20px;font-size:11px;color:#555}
.xaxis span{position:absolute;top:4px;white-space:nowrap}
.bars{position:relative;width:120px;flex:none}
.bars .bar{position:absolute;left:0;min-width:1px}
.bars .head{position:absolute;top:-15px;font-size:10px;color:#777;white-space:nowrap}
.legend{display:flex;align-items:center;gap:6px;font-size:11px;color:#555;font-weight:normal}
.legend .zero{display:inline-block;width:12px;height:10px;background:#15151f;margin-left:8px}
.note{font-size:13px;color:#666;margin:4px 0 8px}
table.servers{border-collapse:collapse;font-size:12px}
table.servers td,table.servers th{padding:3px 10px 3px 0;text-align:left;white-space:nowrap}
table.servers th{color:#666;font-weight:normal}
table.servers .sbar{display:inline-block;height:10px;vertical-align:-1px;margin-right:6px}
#findings ul{margin:0;padding-left:18px;font-size:13px;font-family:ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap}
#findings li.error{color:#b00020}
#findings li.warning{color:#8a5300}
#tip{position:fixed;pointer-events:none;background:rgba(22,22,30,.96);color:#f2f2f2;font-size:12px;padding:8px 10px;border-radius:5px;max-width:560px;box-shadow:0 2px 10px rgba(0,0,0,.35);z-index:10}
#tip .title{font-weight:bold;margin-bottom:4px}
#tip table{border-collapse:collapse}
#tip td{padding:1px 8px 1px 0;vertical-align:top}
#tip td.k{color:#a9a9b8}
#tip .code{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
"##;

const SCRIPT: &str = r##"
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("loadmap-data").textContent);
  var STOPS = [[68, 1, 84], [59, 82, 139], [33, 144, 140], [94, 201, 98], [253, 231, 37]];
  var EMPTY = "#15151f", MIN_T = 0.12, PLOT_W = 760, BAR_W = 110, LABEL_GAP = 15;
  var PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42b4d4",
    "#f032e6", "#9ab82f", "#c77c9b", "#469990", "#8d6fd1", "#9a6324"];
  var n = D.ranges.length, m = D.times.length;
  var rowH = Math.max(1, Math.min(24, Math.floor(560 / Math.max(1, n))));
  var colW = PLOT_W / Math.max(1, m);
  var plotH = rowH * n;
  var serverNames = D.servers.map(function (s) { return s.name; });
  function serverColor(name) {
    var i = serverNames.indexOf(name);
    return i < 0 ? "#9a9aa6" : PALETTE[i % PALETTE.length];
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function rgb(t) {
    var pos = Math.min(1, Math.max(0, t)) * (STOPS.length - 1);
    var i = Math.min(STOPS.length - 2, Math.floor(pos)), f = pos - i, a = STOPS[i], b = STOPS[i + 1];
    var c = [0, 1, 2].map(function (k) { return Math.round(a[k] + (b[k] - a[k]) * f); });
    return "rgb(" + c.join(",") + ")";
  }
  function fmt(v) {
    if (v === 0) return "0";
    var a = Math.abs(v);
    if (a >= 1e9) return (v / 1e9).toFixed(a >= 1e10 ? 0 : 1) + "G";
    if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + "M";
    if (a >= 1e4) return (v / 1e3).toFixed(a >= 1e5 ? 0 : 1) + "k";
    if (a >= 100) return v.toFixed(0);
    return String(Number(v.toPrecision(3)));
  }
  function bytes(b) {
    var u = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"], i = 0;
    while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
    return (i === 0 ? b : b.toFixed(1)) + " " + u[i];
  }
  function extent(grid) {
    var lo = Infinity, hi = 0;
    grid.forEach(function (row) {
      row.forEach(function (v) { if (v > 0) { if (v < lo) lo = v; if (v > hi) hi = v; } });
    });
    return hi > 0 ? [lo, hi] : null;
  }
  function scale(v, ext) {
    if (!(v > 0)) return -1;
    if (ext[1] <= ext[0]) return 1;
    var u = Math.log(v / ext[0]) / Math.log(ext[1] / ext[0]);
    return MIN_T + (1 - MIN_T) * Math.min(1, Math.max(0, u));
  }

  document.getElementById("summary").textContent = (function () {
    var parts = [n + " key ranges", m + " intervals"];
    if (m > 0) parts.push(D.times[0].from + " – " + D.times[m - 1].to + " UTC");
    parts.push("rates in " + D.unit);
    var total = 0, best = -1, bestV = -1;
    D.means.forEach(function (mw, i) {
      var v = mw[0] + mw[1];
      total += v;
      if (v > bestV) { bestV = v; best = i; }
    });
    if (total > 0) {
      var pct = 100 * bestV / total;
      parts.push("busiest range: " + D.ranges[best].label + " (" +
        (pct < 10 ? pct.toFixed(1) : Math.round(pct)) + "% of all requests)");
    }
    var hot = null;
    ["writes", "reads"].forEach(function (kind) {
      D[kind].forEach(function (row, j) {
        row.forEach(function (v, i) {
          if (v > 0 && (hot === null || v > hot.v)) hot = {v: v, i: i, j: j, kind: kind};
        });
      });
    });
    if (hot !== null) {
      parts.push("hottest cell: " + D.ranges[hot.i].label + " at " + D.times[hot.j].axis +
        " (" + fmt(hot.v) + " " + D.unit + " " + hot.kind + ")");
    }
    return parts.join(" · ");
  })();

  var tip = document.getElementById("tip");
  function showTip(kind, row, col, x, y) {
    var r = D.ranges[row], t = D.times[col];
    tip.textContent = "";
    tip.appendChild(el("div", "title", r.label));
    var table = el("table");
    function line(k, v, code) {
      if (v === null || v === undefined) return;
      var tr = el("tr");
      tr.appendChild(el("td", "k", k));
      tr.appendChild(el("td", code ? "code" : "", v));
      table.appendChild(tr);
    }
    line("region", r.region !== null ? r.region : "range " + (row + 1) + " of " + n);
    line("server", r.server);
    line("start", r.start, true);
    line("", r.startDecoded);
    line("end", r.end, true);
    line("", r.endDecoded);
    line("time", t.from + " – " + t.to + " UTC");
    line("reads", fmt(D.reads[col][row]) + " " + D.unit);
    line("writes", fmt(D.writes[col][row]) + " " + D.unit);
    if (r.size !== null) line("size", bytes(r.size));
    tip.appendChild(table);
    tip.dataset.kind = kind;
    tip.dataset.row = row;
    tip.dataset.col = col;
    tip.hidden = false;
    var w = tip.offsetWidth, h = tip.offsetHeight;
    var left = x + 16, top = y + 16;
    if (left + w > window.innerWidth - 4) left = Math.max(4, x - 16 - w);
    if (top + h > window.innerHeight - 4) top = Math.max(4, y - 16 - h);
    tip.style.left = left + "px";
    tip.style.top = top + "px";
  }

  function legend(ext) {
    var box = el("span", "legend");
    if (!ext) return box;
    box.appendChild(el("span", "", fmt(ext[0])));
    var c = document.createElement("canvas");
    c.width = 160; c.height = 10;
    var g = c.getContext("2d");
    for (var x = 0; x < 160; x++) {
      g.fillStyle = rgb(MIN_T + (1 - MIN_T) * x / 159);
      g.fillRect(x, 0, 1, 10);
    }
    box.appendChild(c);
    box.appendChild(el("span", "", fmt(ext[1]) + " " + D.unit + " (log scale)"));
    box.appendChild(el("span", "zero"));
    box.appendChild(el("span", "", "none"));
    return box;
  }

  function panel(kind, title, grid) {
    var sec = el("section", "panel");
    sec.id = "panel-" + kind;
    var ext = extent(grid);
    var h2 = el("h2", "", title);
    h2.appendChild(legend(ext));
    sec.appendChild(h2);
    if (!ext) {
      sec.appendChild(el("p", "note", "No " + kind + " in this map."));
      return sec;
    }
    var means = D.means.map(function (mw) { return kind === "reads" ? mw[0] : mw[1]; });
    var maxMean = Math.max.apply(null, means.concat([0]));
    var map = el("div", "map");
    // key axis: the hottest range's label first, then every label that keeps its distance
    var labels = el("div", "ylabels");
    labels.style.height = plotH + "px";
    var order = means.map(function (v, i) { return i; });
    var hot = order.reduce(function (a, b) { return means[b] > means[a] ? b : a; }, 0);
    var shown = [];
    [hot].concat(order).forEach(function (i) {
      var y = (i + 0.5) * rowH;
      if (shown.some(function (s) { return Math.abs(s - y) < LABEL_GAP; })) return;
      shown.push(y);
      var l = el("div", "ylabel" + (i === hot && means[i] > 0 ? " hot" : ""));
      l.style.top = Math.max(0, Math.min(plotH - 14, y - 7)) + "px";
      l.dataset.row = i;
      var r = D.ranges[i];
      if (r.server !== null) {
        var chip = el("span", "chip");
        chip.style.background = serverColor(r.server);
        l.appendChild(chip);
      }
      l.appendChild(document.createTextNode(r.label));
      l.title = r.label + (r.region !== null ? "\n" + r.region : "") + (r.server !== null ? "\n" + r.server : "");
      labels.appendChild(l);
    });
    map.appendChild(labels);
    // the heatmap
    var plot = el("div", "plot");
    var c = document.createElement("canvas");
    c.className = "heat";
    var dpr = window.devicePixelRatio || 1;
    c.width = Math.round(PLOT_W * dpr);
    c.height = Math.round(plotH * dpr);
    c.style.width = PLOT_W + "px";
    c.style.height = plotH + "px";
    c.dataset.rows = n;
    c.dataset.cols = m;
    c.dataset.rowHeight = rowH;
    c.dataset.colWidth = colW;
    var g = c.getContext("2d");
    g.scale(dpr, dpr);
    g.fillStyle = EMPTY;
    g.fillRect(0, 0, PLOT_W, plotH);
    for (var j = 0; j < m; j++) {
      var x0 = Math.round(j * colW), x1 = Math.round((j + 1) * colW);
      for (var i = 0; i < n; i++) {
        var t = scale(grid[j][i], ext);
        if (t < 0) continue;
        g.fillStyle = rgb(t);
        g.fillRect(x0, i * rowH, Math.max(1, x1 - x0), rowH);
      }
    }
    var cursor = el("div", "cursor");
    cursor.hidden = true;
    function hide() { tip.hidden = true; cursor.hidden = true; }
    c.addEventListener("mousemove", function (e) {
      var b = c.getBoundingClientRect();
      var col = Math.floor((e.clientX - b.left) / colW), row = Math.floor((e.clientY - b.top) / rowH);
      if (col < 0 || col >= m || row < 0 || row >= n) { hide(); return; }
      var x0 = Math.round(col * colW);
      cursor.style.left = (x0 - 1) + "px";
      cursor.style.top = (row * rowH - 1) + "px";
      cursor.style.width = (Math.round((col + 1) * colW) - x0 + 2) + "px";
      cursor.style.height = (rowH + 2) + "px";
      cursor.hidden = false;
      showTip(kind, row, col, e.clientX, e.clientY);
    });
    c.addEventListener("mouseleave", hide);
    plot.appendChild(c);
    plot.appendChild(cursor);
    var axis = el("div", "xaxis");
    axis.style.width = PLOT_W + "px";
    var every = Math.max(1, Math.ceil(72 / colW));
    for (var k = 0; k < m; k += every) {
      var s = el("span", "", D.times[k].axis);
      s.style.left = (k * colW) + "px";
      axis.appendChild(s);
    }
    plot.appendChild(axis);
    map.appendChild(plot);
    // mean rate of each range, in its server's colour
    var bars = el("div", "bars");
    bars.style.height = plotH + "px";
    bars.appendChild(el("span", "head", "mean " + D.unit));
    means.forEach(function (v, i) {
      if (!(v > 0)) return;
      var b = el("div", "bar");
      b.style.top = (i * rowH) + "px";
      b.style.height = Math.max(1, rowH - (rowH > 3 ? 1 : 0)) + "px";
      b.style.width = (BAR_W * v / maxMean) + "px";
      b.style.background = serverColor(D.ranges[i].server);
      b.title = D.ranges[i].label + ": " + fmt(v) + " " + D.unit;
      bars.appendChild(b);
    });
    map.appendChild(bars);
    sec.appendChild(map);
    return sec;
  }

  var main = document.getElementById("main");
  main.appendChild(panel("writes", "Writes", D.writes));
  main.appendChild(panel("reads", "Reads", D.reads));

  var srv = el("section", "panel");
  srv.id = "servers";
  srv.appendChild(el("h2", "", "Load per server"));
  if (D.servers.length === 0) {
    srv.appendChild(el("p", "note", "No servers named: the key ranges are not on servers yet (offline analysis)."));
  } else {
    var maxR = Math.max.apply(null, D.servers.map(function (s) { return s.reads; }).concat([0]));
    var maxW = Math.max.apply(null, D.servers.map(function (s) { return s.writes; }).concat([0]));
    var table = el("table", "servers"), head = el("tr");
    ["server", "ranges", "writes (" + D.unit + ")", "reads (" + D.unit + ")"].forEach(function (h) {
      head.appendChild(el("th", "", h));
    });
    table.appendChild(head);
    D.servers.forEach(function (s) {
      var tr = el("tr");
      tr.className = "server";
      var name = el("td");
      var chip = el("span", "chip");
      chip.style.background = serverColor(s.name);
      name.appendChild(chip);
      name.appendChild(document.createTextNode(s.name));
      tr.appendChild(name);
      tr.appendChild(el("td", "", String(s.ranges)));
      [[s.writes, maxW], [s.reads, maxR]].forEach(function (vm) {
        var td = el("td"), bar = el("span", "sbar");
        bar.style.width = (vm[1] > 0 ? 220 * vm[0] / vm[1] : 0) + "px";
        bar.style.background = serverColor(s.name);
        td.appendChild(bar);
        td.appendChild(document.createTextNode(fmt(vm[0])));
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    srv.appendChild(table);
  }
  main.appendChild(srv);

  var fnd = el("section", "panel");
  fnd.id = "findings";
  fnd.appendChild(el("h2", "", "Plan findings for the layout"));
  if (D.findings.length === 0) {
    fnd.appendChild(el("p", "note", "No findings."));
  } else {
    var ul = el("ul");
    D.findings.forEach(function (f) {
      var w = f.trim().split(/[\s:]/)[0].toLowerCase();
      ul.appendChild(el("li", w === "error" || w === "warning" ? w : "", f));
    });
    fnd.appendChild(ul);
  }
  main.appendChild(fnd);
  document.body.dataset.ready = "true";
})();
"##;

impl LoadMap {
    /// The key visualizer's report: one self-contained HTML page (inline style and script, the
    /// data in the page, nothing fetched from a network) with a time × key-range heatmap of
    /// the writes and one of the reads (logarithmic colour scale with a legend; the key axis
    /// labelled with each range's [`label`](super::LoadRange::label); beside each heatmap the
    /// mean rate of every range in its server's colour), the load per server, and the
    /// findings. Hovering a cell shows its region, server, start and end key (printable and
    /// decoded), the interval, both rates and the store size.
    ///
    /// Each interval is one column of equal width (times label the axis, gaps between
    /// intervals are not drawn). Cells are drawn on a canvas, so the page takes maps of any
    /// size up to [`MAX_HEATMAP_CELLS`](super::MAX_HEATMAP_CELLS) cells; key ranges beyond
    /// ~560 get one pixel row each.
    ///
    /// ```
    /// use rowkey::hotspot::{LoadMap, LoadRange};
    ///
    /// let mut map = LoadMap::new("</script> is escaped", vec![LoadRange::new(b"", None)])?;
    /// map.push_interval(0, 60_000, vec![1.0], vec![2.5])?;
    /// let page = map.html();
    /// assert_eq!(page.matches("</script>").count(), 2); // the data's and the code's
    /// // map.write_html("load.html")?; writes the same to a file
    /// # Ok::<(), rowkey::hotspot::HotspotError>(())
    /// ```
    pub fn html(&self) -> String {
        let data = data_json(self);
        let title = xml_escape(&self.title);
        let mut s = String::with_capacity(data.len() + STYLE.len() + SCRIPT.len() + 1024);
        s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        let _ = writeln!(s, "<title>{title}</title>");
        let _ = writeln!(s, "<style>{STYLE}</style>\n</head>\n<body>");
        let _ = writeln!(
            s,
            "<header><h1 id=\"title\">{title}</h1><p id=\"summary\"></p></header>"
        );
        s.push_str("<main id=\"main\"></main>\n<div id=\"tip\" role=\"tooltip\" hidden></div>\n");
        s.push_str("<noscript>This report draws its heatmaps with JavaScript.</noscript>\n");
        let _ = writeln!(
            s,
            "<script id=\"loadmap-data\" type=\"application/json\">{data}</script>"
        );
        let _ = writeln!(s, "<script>{SCRIPT}</script>\n</body>\n</html>");
        s
    }

    /// Writes [`html`](Self::html) to `path`.
    ///
    /// # Errors
    ///
    /// Any I/O error from writing the file.
    pub fn write_html(&self, path: impl AsRef<Path>) -> io::Result<()> {
        std::fs::write(path, self.html())
    }
}
