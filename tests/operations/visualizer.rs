//! The key visualizer's report in a real browser: headless Chromium (Debian package
//! `chromium`) loads each report from disk and is driven over the Chrome DevTools Protocol —
//! the heatmap is drawn, the key axis carries decoded labels that do not overlap, a real mouse
//! move onto the hottest cell shows its region and decoded range — and a screenshot of each
//! report is kept under `target/visualizer/`.
//!
//! Two reports: the offline analysis of a salted key with one hot seller (an `Analyzer` over a
//! day of writes), and a live-like map of 16 regions on 3 servers with reads and writes.

use std::io::ErrorKind;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rowkey::hotspot::{range_label, Analyzer, LoadMap, LoadRange};
use rowkey::plan::{Lint, SplitPoints};
use rowkey::RowKey;
use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

#[derive(RowKey)]
struct Order {
    #[salt(buckets = 8)]
    seller_id: u64,
    order_no: u32,
}

/// Where the reports and screenshots go: `target/visualizer/`.
fn out_dir() -> PathBuf {
    // the test binary is target/<profile>/deps/operations-…
    let exe = std::env::current_exe().expect("the test binary's path");
    let target = exe
        .ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("visualizer");
    std::fs::create_dir_all(&dir).expect("create target/visualizer");
    dir
}

/// The browser process and its profile directory: killed (with its process group) and
/// removed on drop, also when a check fails.
struct Process {
    child: Child,
    profile: PathBuf,
}

impl Drop for Process {
    fn drop(&mut self) {
        let pid = self.child.id();
        let _ = self.child.kill();
        let _ = self.child.wait();
        // its renderers and helpers share its process group (the one started for it)
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .stderr(Stdio::null())
            .status();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Headless Chromium, driven over one DevTools socket (a flattened session on one page).
struct Chromium {
    ws: WebSocket<TcpStream>,
    next_id: u64,
    session: String,
    // dropped last: the socket closes before the browser is killed
    _process: Process,
}

impl Chromium {
    fn start() -> Chromium {
        let bin = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
            .into_iter()
            .find(|p| Path::new(p).exists())
            .unwrap_or_else(|| {
                panic!(
                    "headless Chromium is missing: the key visualizer's browser test needs the \
                     Debian package `chromium` (apt-get install chromium); .ci/run installs it"
                )
            });
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let profile =
            std::env::temp_dir().join(format!("rowkey-visualizer-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&profile).expect("create Chromium's profile directory");
        let mut cmd = Command::new(bin);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--hide-scrollbars",
            "--window-size=1280,900",
            "--remote-debugging-port=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let child = cmd.spawn().expect("start chromium");
        let process = Process { child, profile };
        let ws = connect_when_ready(&process.profile, Duration::from_secs(30))
            .unwrap_or_else(|e| panic!("Chromium's DevTools endpoint: {e}"));
        let mut browser = Chromium {
            ws,
            next_id: 0,
            session: String::new(),
            _process: process,
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}), false);
        let target_id = target["targetId"].as_str().expect("targetId").to_owned();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
            false,
        );
        browser.session = attached["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_owned();
        browser.page("Page.enable", json!({}));
        browser.page("Runtime.enable", json!({}));
        browser
    }

    /// One DevTools command; its result (events in between are skipped).
    fn call(&mut self, method: &str, params: Value, in_page: bool) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if in_page {
            msg["sessionId"] = json!(self.session);
        }
        self.ws
            .send(Message::text(msg.to_string()))
            .unwrap_or_else(|e| panic!("{method}: send: {e}"));
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            assert!(Instant::now() < deadline, "{method}: no answer in 30 s");
            let m = match self.ws.read() {
                Ok(m) => m,
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    continue
                }
                Err(e) => panic!("{method}: read: {e}"),
            };
            let Message::Text(text) = m else { continue };
            let v: Value = serde_json::from_str(text.as_str()).expect("DevTools sends JSON");
            if v["id"].as_u64() != Some(id) {
                continue;
            }
            if let Some(err) = v.get("error") {
                panic!("{method}: {err}");
            }
            return v["result"].clone();
        }
    }

    fn page(&mut self, method: &str, params: Value) -> Value {
        self.call(method, params, true)
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.page(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{expr}: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Loads `file` and waits until its script has drawn the report.
    fn open(&mut self, file: &Path) {
        let url = format!("file://{}", file.display());
        self.page("Page.navigate", json!({"url": url}));
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = self.eval(
                "document.readyState === 'complete' && document.body && document.body.dataset.ready === 'true'",
            );
            if ready == json!(true) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{url}: the report never drew (body[data-ready])"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // the whole page in the viewport: every cell can be hovered, the screenshot is whole
        let height = self.eval("Math.ceil(document.documentElement.scrollHeight)");
        let height = height.as_u64().unwrap_or(900).clamp(400, 8000);
        self.page(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1280, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
    }

    fn screenshot(&mut self, path: &Path) {
        let shot = self.page("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64_decode(shot["data"].as_str().expect("screenshot data"));
        assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
        std::fs::write(path, png).expect("write the screenshot");
    }
}

/// Reads the port from `DevToolsActivePort` in the profile and opens the browser's socket.
fn connect_when_ready(profile: &Path, wait: Duration) -> Result<WebSocket<TcpStream>, String> {
    let file = profile.join("DevToolsActivePort");
    let deadline = Instant::now() + wait;
    let text = loop {
        if let Ok(t) = std::fs::read_to_string(&file) {
            if t.lines().count() >= 2 {
                break t;
            }
        }
        if Instant::now() >= deadline {
            return Err(format!("{} did not appear in {wait:?}", file.display()));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut lines = text.lines();
    let port = lines.next().unwrap_or_default().trim();
    let path = lines.next().unwrap_or_default().trim();
    let stream =
        TcpStream::connect(format!("127.0.0.1:{port}")).map_err(|e| format!("port {port}: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    let url = format!("ws://127.0.0.1:{port}{path}");
    let (ws, _) = tungstenite::client(url.as_str(), stream).map_err(|e| format!("{url}: {e}"))?;
    Ok(ws)
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn order_key(seller_id: u64, order_no: u32) -> Vec<u8> {
    Order {
        seller_id,
        order_no,
    }
    .to_row_key()
    .expect("encodes")
    .to_vec()
}

const DAY0: u64 = 1_764_288_000_000; // 2025-11-28 00:00 UTC

/// A day of orders: 200 sellers evenly, and seller 42 flooding 10:00–12:00.
fn offline_map() -> LoadMap {
    let mut keys = Vec::new();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for i in 0..20_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let t = DAY0 + x % 86_400_000;
        keys.push((order_key(x % 200, i), t));
    }
    for i in 0..6_000u32 {
        let t = DAY0 + 10 * 3_600_000 + u64::from(i) * 1_200;
        keys.push((order_key(42, 100_000 + i), t));
    }
    let sample: Vec<&[u8]> = keys.iter().step_by(7).map(|(k, _)| k.as_slice()).collect();
    let splits = Order::split_points_from_sample(&sample, 24).expect("split points");
    let mut a = Analyzer::new(&splits)
        .expect("valid splits")
        .with_name("orders by seller, salted")
        .with_time_span(DAY0, DAY0 + 86_400_000, 48)
        .expect("time span");
    for (k, t) in &keys {
        a.add_with(k, Some(*t), 64);
    }
    let lint = Lint::new(&splits)
        .layout(Order::LAYOUT)
        .sample(sample.iter())
        .run();
    LoadMap::from_report(&a.report())
        .expect("the analyzer has time slices")
        .label_with::<Order>()
        .with_findings(lint.to_string().lines())
}

/// 16 regions (each salt bucket split at seller 100) on 3 servers, 60 ten-second intervals;
/// the region of salt 5 below seller 100 takes a burst of writes, the one of salt 2 from
/// seller 100 most reads.
fn live_map() -> LoadMap {
    let mut bounds: Vec<Vec<u8>> = Vec::new();
    for salt in 0..8u8 {
        if salt > 0 {
            bounds.push(vec![salt]);
        }
        let mut mid = vec![salt];
        mid.extend_from_slice(&100u64.to_be_bytes());
        bounds.push(mid);
    }
    let servers = [
        "rs1.example.com,16020,1764300000001",
        "rs2.example.com,16020,1764300000002",
        "rs3.example.com,16020,1764300000003",
    ];
    let ranges: Vec<LoadRange> = (0..=bounds.len())
        .map(|i| {
            let start = if i == 0 {
                Vec::new()
            } else {
                bounds[i - 1].clone()
            };
            let end = bounds.get(i).cloned();
            let region = format!(
                "orders,{},1764300000000.{:032x}.",
                rowkey::hbase::to_string_binary(&start),
                (i as u128 + 1) * 0x9e37_79b9_7f4a_7c15
            );
            LoadRange::new(start, end)
                .with_server(servers[i * 3 / 17])
                .with_region(region)
                .with_store_size(((i as u64 + 1) * 180) << 20)
        })
        .collect();
    let n = ranges.len();
    let mut map = LoadMap::new("orders on 3 region servers (live)", ranges)
        .expect("ranges in key order")
        .label_with::<Order>()
        .with_findings(["note: 16 regions for 8 salt buckets: each bucket split at seller_id 100"]);
    for j in 0..60u64 {
        // reads: a steady load everywhere, a read-heavy range (salt 2 from seller 100) and a
        // slow wave over time
        let wave = 1.0 + 0.3 * (j as f64 / 9.0).sin();
        let reads: Vec<f64> = (0..n)
            .map(|i| {
                let base = if i == 5 {
                    900.0
                } else {
                    40.0 + (i % 4) as f64 * 15.0
                };
                (base * wave).round()
            })
            .collect();
        let writes: Vec<f64> = (0..n)
            .map(|i| {
                if i == 10 && (20..40).contains(&j) {
                    2_400.0 + j as f64 * 10.0
                } else if i % 5 == 3 {
                    0.0
                } else {
                    5.0 + ((i as u64 + j) % 7) as f64
                }
            })
            .collect();
        let t = DAY0 + 9 * 3_600_000 + j * 10_000;
        map.push_interval(t, t + 10_000, reads, writes)
            .expect("rates per range");
    }
    map
}

/// The (range, interval) of the largest write rate.
fn hottest(map: &LoadMap) -> (usize, usize) {
    let mut best = (0, 0, -1.0);
    for (j, iv) in map.intervals().iter().enumerate() {
        for (i, &w) in iv.writes.iter().enumerate() {
            if w > best.2 {
                best = (i, j, w);
            }
        }
    }
    (best.0, best.1)
}

/// What a person sees of `map` in Chromium; the screenshot goes to `target/visualizer/<name>.png`.
fn check_in_browser(browser: &mut Chromium, map: &LoadMap, name: &str) {
    let dir = out_dir();
    let html = dir.join(format!("{name}.html"));
    map.write_html(&html).expect("write the report");
    browser.open(&html);

    // the page fetched nothing: every resource is the file itself
    let resources = browser.eval("performance.getEntriesByType('resource').length");
    assert_eq!(resources, json!(0), "{name}: the report loads nothing");

    // the heatmap is drawn: cells in colours other than the empty one, several of them
    let drawn = browser.eval(
        "(() => { const c = document.querySelector('#panel-writes canvas.heat');
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let lit = 0; const colours = new Set();
          for (let i = 0; i < d.length; i += 4) {
            if (d[i] === 0x15 && d[i+1] === 0x15 && d[i+2] === 0x1f) continue;
            lit++; colours.add((d[i] << 16) | (d[i+1] << 8) | d[i+2]);
          }
          return {lit, colours: colours.size, w: c.width, h: c.height}; })()",
    );
    let lit = drawn["lit"].as_u64().unwrap_or(0);
    assert!(
        lit > 1000,
        "{name}: the writes heatmap has lit cells: {drawn}"
    );
    assert!(
        drawn["colours"].as_u64().unwrap_or(0) >= 3,
        "{name}: the log scale gives several colours: {drawn}"
    );
    let legend = browser.eval("document.querySelector('#panel-writes .legend').textContent");
    assert!(
        legend.as_str().unwrap_or("").contains("log scale"),
        "{name}: the legend: {legend}"
    );

    // the key axis: decoded labels, not hex; the hottest range labelled; no two overlap
    let (row, col) = hottest(map);
    let hot = &map.ranges()[row];
    let labels = browser.eval(
        "[...document.querySelectorAll('#panel-writes .ylabel')].map(l => {
           const r = l.getBoundingClientRect();
           return {row: +l.dataset.row, text: l.textContent, top: r.top, bottom: r.bottom,
                   clipped: l.scrollWidth > l.clientWidth};
         })",
    );
    let labels = labels.as_array().expect("labels").clone();
    assert!(
        labels.len() >= 8,
        "{name}: labels on the key axis: {labels:?}"
    );
    let decoded = labels
        .iter()
        .filter(|l| l["text"].as_str().is_some_and(|t| t.contains("salt ")))
        .count();
    assert!(
        decoded * 10 >= labels.len() * 9,
        "{name}: the labels are decoded fields: {labels:?}"
    );
    let hot_label = labels
        .iter()
        .find(|l| l["row"].as_u64() == Some(row as u64))
        .unwrap_or_else(|| panic!("{name}: the hottest range {row} is labelled: {labels:?}"));
    assert_eq!(hot_label["text"].as_str(), Some(hot.label.as_str()));
    assert_eq!(
        hot_label["clipped"],
        json!(false),
        "{name}: {hot_label} is not cut"
    );
    assert!(
        !hot.label.contains("\\x"),
        "{name}: {} is decoded",
        hot.label
    );
    let mut spans: Vec<(f64, f64)> = labels
        .iter()
        .map(|l| {
            (
                l["top"].as_f64().unwrap_or(0.0),
                l["bottom"].as_f64().unwrap_or(0.0),
            )
        })
        .collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    for w in spans.windows(2) {
        assert!(w[1].0 >= w[0].1 - 0.5, "{name}: labels overlap: {spans:?}");
    }

    // a real mouse move onto the hottest cell shows its region and decoded range
    let geo = browser.eval(
        "(() => { const c = document.querySelector('#panel-writes canvas.heat');
          const r = c.getBoundingClientRect();
          return {left: r.left, top: r.top, rowH: +c.dataset.rowHeight, colW: +c.dataset.colWidth}; })()",
    );
    let f = |k: &str| geo[k].as_f64().expect("geometry");
    let x = f("left") + (col as f64 + 0.5) * f("colW");
    let y = f("top") + (row as f64 + 0.5) * f("rowH");
    let colour = browser.eval(&format!(
        "Array.from(document.querySelector('#panel-writes canvas.heat').getContext('2d')
           .getImageData({}, {}, 1, 1).data.slice(0, 3))",
        (x - f("left")).floor(),
        (y - f("top")).floor()
    ));
    assert_ne!(
        colour,
        json!([0x15, 0x15, 0x1f]),
        "{name}: the hot cell is lit"
    );
    browser.page(
        "Input.dispatchMouseEvent",
        json!({"type": "mouseMoved", "x": x, "y": y}),
    );
    let tip = browser.eval(
        "(() => { const t = document.getElementById('tip');
          return {hidden: t.hidden, text: t.innerText, row: t.dataset.row, col: t.dataset.col,
                  visible: t.getBoundingClientRect().width > 0}; })()",
    );
    assert_eq!(
        tip["hidden"],
        json!(false),
        "{name}: the hover shows the details: {tip}"
    );
    assert_eq!(tip["visible"], json!(true), "{name}: {tip}");
    assert_eq!(tip["row"].as_str(), Some(row.to_string().as_str()), "{tip}");
    assert_eq!(tip["col"].as_str(), Some(col.to_string().as_str()), "{tip}");
    let text = tip["text"].as_str().unwrap_or_default();
    let region = hot
        .region
        .clone()
        .unwrap_or_else(|| format!("range {} of {}", row + 1, map.ranges().len()));
    for want in [
        region.as_str(),
        hot.label.as_str(),
        hot.start_decoded.as_deref().unwrap_or("?"),
        hot.end_decoded.as_deref().unwrap_or("?"),
        &rowkey::hbase::to_string_binary(&hot.start),
        "writes",
    ] {
        assert!(
            text.contains(want),
            "{name}: the details show {want:?}:\n{text}"
        );
    }
    browser.screenshot(&dir.join(format!("{name}.png")));
}

#[test]
fn visualizer_reports_read_well_in_chromium() {
    let offline = offline_map();
    let live = live_map();
    // the labels the browser must show are the key type's
    let hot = &live.ranges()[hottest(&live).0];
    assert_eq!(
        hot.label,
        range_label::<Order>(&hot.start, hot.end.as_deref())
    );
    assert_eq!(hot.label, "salt 5 · seller_id < 100");
    assert_eq!(live.server_loads().len(), 3);

    let mut browser = Chromium::start();
    check_in_browser(&mut browser, &offline, "offline");
    check_in_browser(&mut browser, &live, "live");
    let servers = browser.eval("document.querySelectorAll('#servers tr.server').length");
    assert_eq!(servers, json!(3), "the live report lists its 3 servers");
    let reads = browser.eval("!!document.querySelector('#panel-reads canvas.heat')");
    assert_eq!(reads, json!(true), "the live report draws its reads");

    // edge cases draw too (the script finishes): no intervals yet, and one range of one cell
    let empty = LoadMap::new("no samples yet", vec![LoadRange::new(b"", None)]).unwrap();
    let mut one = LoadMap::new(
        "one cell",
        vec![LoadRange::new(b"", None).with_server("rs1")],
    )
    .unwrap()
    .label_with::<Order>();
    one.push_interval(DAY0, DAY0 + 1_000, vec![0.0], vec![3.0])
        .unwrap();
    for (map, name) in [(&empty, "empty"), (&one, "one-cell")] {
        let path = out_dir().join(format!("{name}.html"));
        map.write_html(&path).expect("write the report");
        browser.open(&path);
        let notes = browser.eval("document.querySelectorAll('.note').length");
        assert!(notes.as_u64().unwrap_or(0) >= 1, "{name}: {notes}");
    }
    let label = browser.eval("document.querySelector('#panel-writes .ylabel').textContent");
    assert_eq!(label, json!("(whole table)"));
}

#[derive(RowKey)]
#[rowkey(prefix = b"ev#")]
struct Event {
    #[sep]
    host: String,
    ts: u64,
}

#[derive(RowKey)]
struct Hashed {
    #[hash_prefix(4)]
    #[sep]
    user: String,
    n: u32,
}

#[derive(RowKey)]
struct Wide {
    #[salt(buckets = 300)]
    id: u32,
}

/// Boundary and range labels through key types other than the salted one: a constant prefix
/// and a string, a two-byte salt, and bytes that decode as nothing.
#[test]
fn boundary_labels_read_through_the_key_type() {
    use rowkey::hotspot::boundary_label;

    let key = |host: &str, ts: u64| {
        Event {
            host: host.into(),
            ts,
        }
        .to_row_key()
        .unwrap()
        .to_vec()
    };
    assert_eq!(
        boundary_label::<Event>(&key("web1", 7)),
        r#"host "web1" · ts 7"#
    );
    // a split inside the host: the host's bytes so far
    assert_eq!(boundary_label::<Event>(b"ev#we"), r#"host "we"…"#);
    assert_eq!(
        range_label::<Event>(&key("web1", 0), Some(&key("web7", 0))),
        r#"host "web1"…"web7""#
    );
    assert_eq!(
        range_label::<Event>(&key("web1", 5), Some(&key("web1", 9))),
        r#"host "web1" · ts 5…9"#
    );
    assert_eq!(
        range_label::<Event>(&key("web1", 5), None),
        r#"host "web1" · ts ≥ 5"#
    );
    assert_eq!(
        range_label::<Event>(b"", Some(&key("web1", 0))),
        r#"host < "web1""#
    );
    // not the prefix: printable form
    assert_eq!(boundary_label::<Event>(b"zz\x01"), r"zz\x01");
    assert_eq!(
        range_label::<Event>(b"zz\x01", None),
        r"zz\x01 – (end of table)"
    );
    assert_eq!(range_label::<Event>(b"", None), "(whole table)");

    // split points of a hash prefix: the hash characters
    let points = Hashed::split_points(4).unwrap();
    assert_eq!(boundary_label::<Hashed>(&points[0]), "hash(user) 4000");
    assert_eq!(
        range_label::<Hashed>(&points[0], Some(&points[1])),
        "hash(user) 4000…8000"
    );
    assert_eq!(
        range_label::<Hashed>(b"", Some(&points[0])),
        "hash(user) < 4000"
    );
    assert_eq!(range_label::<Hashed>(&points[2], None), "hash(user) ≥ c000");
    assert_eq!(boundary_label::<Hashed>(b"4000ab"), "hash(user) 4000…");
    // a whole key decodes as its fields
    let whole = Hashed {
        user: "ann".into(),
        n: 7,
    }
    .to_row_key()
    .unwrap();
    assert_eq!(boundary_label::<Hashed>(&whole), r#"user "ann" · n 7"#);

    // a two-byte salt, cut after its first byte
    assert_eq!(boundary_label::<Wide>(&[1, 43]), "salt 299");
    assert_eq!(boundary_label::<Wide>(&[1, 44]), r"\x01,"); // no bucket of 300
    assert_eq!(boundary_label::<Wide>(&[1]), "salt 256…");
    assert_eq!(range_label::<Wide>(&[0, 7], Some(&[0, 8])), "salt 7");
    assert_eq!(range_label::<Wide>(&[1, 43], None), "salt 299");
    assert_eq!(range_label::<Wide>(&[1, 40], None), "salt 296…299");
    // a cut u32 is completed with zero bytes; salt 300 is no bucket of 300
    assert_eq!(
        boundary_label::<Wide>(&[1, 43, 0xff]),
        "salt 299 · id 4278190080…"
    );
    assert_eq!(boundary_label::<Wide>(&[1, 44, 0xff]), r"\x01,\xFF");
}

/// Any bytes, as either boundary: a label, never a panic.
#[test]
fn labels_of_arbitrary_bytes_never_panic() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..3000 {
        let len = (next() % 24) as usize;
        let a: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let b: Vec<u8> = (0..(next() % 24)).map(|_| next() as u8).collect();
        let end = (next() % 4 != 0).then_some(b.as_slice());
        for label in [
            range_label::<Order>(&a, end),
            range_label::<Event>(&a, end),
            range_label::<Hashed>(&a, end),
            range_label::<Wide>(&a, end),
        ] {
            assert!(!label.is_empty());
        }
    }
}
