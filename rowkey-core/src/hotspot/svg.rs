//! The time × region heatmap as an SVG picture, regions labelled on the y axis.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use super::report::{start_labels, Report};

pub(super) fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Color stops from low to high count (viridis-like); zero counts are drawn in `EMPTY_COLOR`.
pub(super) const STOPS: [(u8, u8, u8); 5] = [
    (0x44, 0x01, 0x54),
    (0x3B, 0x52, 0x8B),
    (0x21, 0x90, 0x8C),
    (0x5E, 0xC9, 0x62),
    (0xFD, 0xE7, 0x25),
];
pub(super) const EMPTY_COLOR: &str = "#15151f";

/// Where a cell of one key sits on the colour scale: far enough from the bottom stop that it
/// stands out from an empty cell.
pub(super) const MIN_T: f64 = 0.12;

/// The position of a cell of `count` keys (at least 1) on the colour scale of a picture whose
/// busiest cell has `max`: logarithmic, from [`MIN_T`] for one key to 1 for `max`, so that a
/// quiet but used cell (125 keys beside 2,000) is visibly not empty.
pub(super) fn scale(count: u64, max: u64) -> f64 {
    if max <= 1 {
        return 1.0;
    }
    let u = (count.max(1) as f64).ln() / (max as f64).ln();
    MIN_T + (1.0 - MIN_T) * u.clamp(0.0, 1.0)
}

pub(super) fn color(t: f64) -> String {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let pos = t * (STOPS.len() - 1) as f64;
    let i = (pos.floor() as usize).min(STOPS.len() - 2);
    let frac = pos - i as f64;
    let (a, b) = match (STOPS.get(i), STOPS.get(i + 1)) {
        (Some(a), Some(b)) => (*a, *b),
        _ => ((0, 0, 0), (0, 0, 0)),
    };
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * frac).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
pub(super) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A UTC label for `ms` since the epoch: `HH:MM` (with seconds for short spans, with the date
/// for spans of more than two days).
pub(super) fn time_label(ms: u64, span_ms: u64) -> String {
    let secs = ms / 1000;
    let days = (secs / 86_400) as i64;
    let sod = secs % 86_400;
    let (h, m, s) = (sod / 3600, (sod % 3600) / 60, sod % 60);
    if span_ms > 2 * 86_400_000 {
        let (y, mo, d) = civil_from_days(days);
        format!("{y:04}-{mo:02}-{d:02}")
    } else if span_ms < 600_000 {
        format!("{h:02}:{m:02}:{s:02}")
    } else {
        format!("{h:02}:{m:02}")
    }
}

pub(super) fn render_svg(report: &Report) -> String {
    let regions = report.regions.len().max(1);
    let (slices, cells): (usize, Vec<u64>) = match &report.grid {
        Some(g) => (g.slices.max(1), g.cells.clone()),
        None => (1, report.regions.iter().map(|r| r.keys).collect()),
    };
    let max = cells.iter().copied().max().unwrap_or(0);

    // Geometry.
    let plot_w = 900.0_f64;
    let cell_h = (640.0 / regions as f64).clamp(2.0, 22.0);
    let plot_h = cell_h * regions as f64;
    let cell_w = plot_w / slices as f64;
    let (left, top, right, bottom) = (230.0_f64, 70.0_f64, 150.0_f64, 70.0_f64);
    let width = left + plot_w + right;
    let height = top + plot_h + bottom;

    let mut s = String::with_capacity(4096 + cells.len() * 64);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="#ffffff"/>"##
    );

    // Title.
    let name = if report.name.is_empty() {
        "keys".to_owned()
    } else {
        report.name.clone()
    };
    let _ = writeln!(
        s,
        r#"<text x="{left:.0}" y="26" font-size="18" font-weight="bold">{}</text>"#,
        xml_escape(&format!("{name}: keys per region over time"))
    );
    let _ = writeln!(
        s,
        r##"<text x="{left:.0}" y="46" fill="#444444">{}</text>"##,
        xml_escape(&format!(
            "{} keys, {} regions ({} empty), max/mean skew {:.2}, CV {:.2}, busiest cell {max} keys",
            report.total_keys(),
            report.regions.len(),
            report.empty_regions(),
            report.max_mean_skew(),
            report.coefficient_of_variation()
        ))
    );

    // Cells: one background rect for "no keys", then a rect per non-empty cell.
    let _ = writeln!(
        s,
        r#"<rect x="{left:.2}" y="{top:.2}" width="{plot_w:.2}" height="{plot_h:.2}" fill="{EMPTY_COLOR}"/>"#
    );
    let _ = writeln!(s, r#"<g shape-rendering="crispEdges">"#);
    let with_titles = cells.len() <= 20_000;
    for (idx, &count) in cells.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let slice = idx / regions;
        let region = idx % regions;
        let x = left + slice as f64 * cell_w;
        let y = top + region as f64 * cell_h;
        let fill = color(scale(count, max));
        if with_titles {
            let when = match &report.grid {
                Some(g) => {
                    let span = g.t1 - g.t0;
                    format!(
                        "{}–{}",
                        time_label(g.slice_start(slice), span),
                        time_label(g.slice_start(slice + 1), span)
                    )
                }
                None => "all keys".to_owned(),
            };
            let _ = writeln!(
                s,
                r#"<rect x="{x:.2}" y="{y:.2}" width="{cell_w:.2}" height="{cell_h:.2}" fill="{fill}"><title>region {region}, {when}: {count} keys</title></rect>"#
            );
        } else {
            let _ = writeln!(
                s,
                r#"<rect x="{x:.2}" y="{y:.2}" width="{cell_w:.2}" height="{cell_h:.2}" fill="{fill}"/>"#
            );
        }
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(
        s,
        r##"<rect x="{left:.2}" y="{top:.2}" width="{plot_w:.2}" height="{plot_h:.2}" fill="none" stroke="#333333"/>"##
    );

    // Y axis: region labels — index and start key (toStringBinary) — as many as fit, and
    // always the busiest region (in bold, with a marker), so the hot spot can be named from
    // the picture alone.
    let every = (13.0 / cell_h).ceil().max(1.0) as usize;
    let busiest = report
        .regions
        .iter()
        .enumerate()
        .filter(|(_, r)| r.keys > 0)
        .max_by(|a, b| a.1.keys.cmp(&b.1.keys).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i);
    let labels = start_labels(&report.regions, 22);
    for (i, _) in report.regions.iter().enumerate() {
        let hot = busiest == Some(i);
        // Thinned labels give way to the busiest region's label when they would overlap it.
        let near_hot = busiest.is_some_and(|b| !hot && b.abs_diff(i) < every);
        if !hot && (i % every != 0 || near_hot) {
            continue;
        }
        let y = top + (i as f64 + 0.5) * cell_h;
        let label = format!("{i:>3} {}", labels.get(i).map_or("", String::as_str));
        let label = if hot { format!("▶ {label}") } else { label };
        let weight = if hot { r#" font-weight="bold""# } else { "" };
        let _ = writeln!(
            s,
            r##"<line x1="{:.2}" y1="{y:.2}" x2="{left:.2}" y2="{y:.2}" stroke="#333333"/>"##,
            left - 4.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="end" font-family="monospace" font-size="11"{weight}>{}</text>"#,
            left - 6.0,
            y + 4.0,
            xml_escape(&label)
        );
    }
    let axis_title = if every > 1 {
        format!("regions in key order: index, start key (1 in {every} labeled; ▶ busiest)")
    } else {
        "regions in key order: index, start key (▶ busiest)".to_owned()
    };
    let _ = writeln!(
        s,
        r#"<text x="16" y="{:.2}" transform="rotate(-90 16 {:.2})" text-anchor="middle">{}</text>"#,
        top + plot_h / 2.0,
        top + plot_h / 2.0,
        xml_escape(&axis_title)
    );

    // X axis: time ticks.
    let axis_y = top + plot_h;
    match &report.grid {
        Some(g) => {
            let span = g.t1 - g.t0;
            let ticks = slices.min(8);
            for k in 0..=ticks {
                let slice = k * slices / ticks.max(1);
                let x = left + slice as f64 * cell_w;
                let _ = writeln!(
                    s,
                    r##"<line x1="{x:.2}" y1="{axis_y:.2}" x2="{x:.2}" y2="{:.2}" stroke="#333333"/>"##,
                    axis_y + 5.0
                );
                let _ = writeln!(
                    s,
                    r#"<text x="{x:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
                    axis_y + 19.0,
                    xml_escape(&time_label(g.slice_start(slice), span))
                );
            }
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
                left + plot_w / 2.0,
                axis_y + 44.0,
                xml_escape(&format!(
                    "write time (UTC), {slices} slices of {}",
                    duration_label(span / slices.max(1) as u64)
                ))
            );
        }
        None => {
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">all keys (no time span given)</text>"#,
                left + plot_w / 2.0,
                axis_y + 24.0
            );
        }
    }

    // Legend: the scale from one key (bottom) to the busiest cell (top), logarithmic like the
    // cells, with powers of ten marked between.
    let lx = left + plot_w + 30.0;
    let lh = plot_h.clamp(80.0, 300.0);
    let _ = writeln!(
        s,
        r#"<defs><linearGradient id="rk-scale" x1="0" y1="1" x2="0" y2="0">"#
    );
    const LEGEND_STOPS: usize = 9;
    for i in 0..LEGEND_STOPS {
        let u = i as f64 / (LEGEND_STOPS - 1) as f64;
        let t = if max <= 1 {
            1.0
        } else {
            MIN_T + (1.0 - MIN_T) * u
        };
        let _ = writeln!(
            s,
            r#"<stop offset="{:.1}%" stop-color="{}"/>"#,
            u * 100.0,
            color(t)
        );
    }
    let _ = writeln!(s, "</linearGradient></defs>");
    let _ = writeln!(
        s,
        r##"<rect x="{lx:.2}" y="{top:.2}" width="18" height="{lh:.2}" fill="url(#rk-scale)" stroke="#333333"/>"##
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.2}" y="{:.2}">{max}</text>"#,
        lx + 24.0,
        top + 10.0
    );
    let mut tick = 10u64;
    while max > 1 && tick < max {
        let u = (tick as f64).ln() / (max as f64).ln();
        let y = top + lh * (1.0 - u);
        // a tick whose label would touch the max or the 1 label is left out
        if y > top + 22.0 && y < top + lh - 12.0 {
            let _ = writeln!(
                s,
                r##"<line x1="{lx:.2}" y1="{y:.2}" x2="{:.2}" y2="{y:.2}" stroke="#333333"/>"##,
                lx + 22.0
            );
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{:.2}">{tick}</text>"#,
                lx + 24.0,
                y + 4.0
            );
        }
        tick = tick.saturating_mul(10);
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.2}" y="{:.2}">1</text>"#,
        lx + 24.0,
        top + lh
    );
    let _ = writeln!(
        s,
        r##"<rect x="{lx:.2}" y="{:.2}" width="18" height="12" fill="{EMPTY_COLOR}" stroke="#333333"/>"##,
        top + lh + 10.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.2}" y="{:.2}">0</text>"#,
        lx + 24.0,
        top + lh + 20.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{lx:.2}" y="{:.2}">keys per cell</text>"#,
        top - 22.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{lx:.2}" y="{:.2}" fill="#444444">(log scale)</text>"##,
        top - 8.0
    );
    s.push_str("</svg>\n");
    s
}

pub(super) fn duration_label(ms: u64) -> String {
    if ms >= 3_600_000 && ms.is_multiple_of(3_600_000) {
        format!("{} h", ms / 3_600_000)
    } else if ms >= 60_000 && ms.is_multiple_of(60_000) {
        format!("{} min", ms / 60_000)
    } else if ms >= 1000 && ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

impl Report {
    /// The time × region heatmap as a standalone SVG document: time on the x axis (UTC labels,
    /// times taken as ms since the Unix epoch), regions in key order on the y axis (first region
    /// at the top, named by index and start key), each cell colored by its key count (dark =
    /// none, then purple → blue → green → yellow as the count rises to the maximum cell, on a
    /// logarithmic scale so that a cell with a few keys beside a busy one is visibly used), with
    /// axis labels, a title and a color legend (marked at powers of ten).
    ///
    /// A monotonically increasing key shows as a diagonal (one hot region at a time); a salted
    /// or hashed key as a flat band across all regions. Without a time span
    /// ([`Analyzer::with_time_span`](super::Analyzer::with_time_span)) the picture has one
    /// column: the total per region.
    pub fn heatmap_svg(&self) -> String {
        render_svg(self)
    }

    /// Writes [`heatmap_svg`](Self::heatmap_svg) to `path`.
    ///
    /// # Errors
    ///
    /// Any I/O error from writing the file.
    pub fn write_heatmap_svg(&self, path: impl AsRef<Path>) -> io::Result<()> {
        std::fs::write(path, self.heatmap_svg())
    }
}
