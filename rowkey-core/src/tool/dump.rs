//! Key dumps: the output of `cbt read`, of an HBase shell `scan`, or one key per line.
//!
//! Each format is parsed so that every key reads back byte for byte; the few byte sequences a
//! format cannot carry unambiguously are listed on [`DumpFormat`]'s variants.

use std::io::{self, BufRead, Write};

use crate::hbase::from_string_binary;
use crate::text::parse_hex;

/// The dump formats the key tool reads ([`read_dump_as`](super::read_dump_as)).
///
/// Each variant says how the key of a row is found and which keys, if any, that cannot read
/// back exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DumpFormat {
    /// HBase shell `scan` output: a `ROW  COLUMN+CELL` header, then one line per cell, the row
    /// key in `toStringBinary` form after one space, then ` column=FAMILY:QUALIFIER,
    /// timestamp=…, value=…`; consecutive lines of one row are one key.
    ///
    /// `toStringBinary` escapes every byte outside `0x20..=0x7E` (and `\`), so every key reads
    /// back, with two exceptions that the text itself cannot tell apart:
    ///
    /// * a key whose text holds ` column=`, a family-like name (no space, comma, `=` or `:`)
    ///   and a `:` (the start of a cell's own text): the key is cut before the first such place;
    /// * trailing spaces (`0x20`) of a key, when the shell padded the key column (output to a
    ///   terminal: the header's `COLUMN+CELL` is further right than `ROW  `, and keys shorter
    ///   than the column are padded with spaces) or when the dump has no header: they are taken
    ///   as padding. Output redirected to a file (`hbase shell <<< "scan 't'" > dump.txt`) is
    ///   not padded: one space separates key and cell, and keys keep their trailing spaces.
    ///
    /// A terminal also wraps keys longer than a quarter of its width onto several lines; such
    /// output cannot be read back (redirect the shell's output to a file instead).
    HBase,
    /// `cbt read` output: per row a line of 40 dashes, the raw key bytes and a newline, then per
    /// cell a header line `  FAMILY:QUALIFIER` (padded to 40 characters) `@ YYYY/MM/DD-hh:mm:ss.ffffff`
    /// and its value lines, then an empty line.
    ///
    /// Bigtable returns no row without cells (`keys-only=true` strips the values, not the
    /// cells), so the key is exactly the bytes between the dash line and the newline before its
    /// first cell header — newlines, `\r`, empty lines and dash lines inside the key included.
    /// The one key that cannot read back: a key holding a newline followed by a segment (up to
    /// its next newline or its end) shaped like a cell header — two spaces, a column padded to
    /// at least 40 characters, ` @ ` and a timestamp in exactly that format; the key is cut
    /// before it. (Past the first cell header everything up to the next dash line belongs to
    /// the row, so a column qualifier — printed raw — holding a newline and then a dash line
    /// would start a row of its own.)
    ///
    /// Newer `cbt` releases print the key and the column quoted (Go `%q`: `"\x05\x00…"`); such a
    /// row is recognised by its quoted column and its key unquoted, which reads back every key.
    Cbt,
    /// One `toStringBinary` key per line (what [`to_string_binary`](crate::hbase::to_string_binary)
    /// prints); empty lines are skipped. Every key reads back: the text has no newline, and
    /// spaces and quotes are part of the key.
    Lines,
    /// One hex key per line (optionally `0x` or `hex:` first; spaces and colons are ignored);
    /// empty lines are skipped. Every key reads back.
    Hex,
}

impl DumpFormat {
    /// The format's name in the tool's output (`cbt read`, `HBase shell scan`, …).
    pub fn name(self) -> &'static str {
        match self {
            DumpFormat::HBase => "HBase shell scan",
            DumpFormat::Cbt => "cbt read",
            DumpFormat::Lines => "one toStringBinary key per line",
            DumpFormat::Hex => "one hex key per line",
        }
    }

    /// The format named on the command line (`hbase`, `cbt`, `lines`, `hex`).
    pub fn from_option(name: &str) -> Option<DumpFormat> {
        match name {
            "hbase" => Some(DumpFormat::HBase),
            "cbt" => Some(DumpFormat::Cbt),
            "lines" => Some(DumpFormat::Lines),
            "hex" => Some(DumpFormat::Hex),
            _ => None,
        }
    }
}

pub(super) const CBT_RULE: &[u8] = b"----------------------------------------";
const SNIFF_LINES: usize = 64;

/// The line without its `\n` (and a `\r` before it).
pub(super) fn trim_eol(line: &[u8]) -> &[u8] {
    let l = line.strip_suffix(b"\n").unwrap_or(line);
    l.strip_suffix(b"\r").unwrap_or(l)
}

fn is_hbase_header(l: &[u8]) -> bool {
    l.starts_with(b"ROW") && find(l, b"COLUMN+CELL").is_some()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Every position of `needle` in `hay`, in order.
fn find_all<'a>(hay: &'a [u8], needle: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    hay.windows(needle.len().max(1))
        .enumerate()
        .filter(move |(_, w)| *w == needle)
        .map(|(i, _)| i)
}

fn is_hex_line(l: &[u8]) -> bool {
    let l = l.strip_prefix(b"0x").unwrap_or(l);
    !l.is_empty() && l.len().is_multiple_of(2) && l.iter().all(u8::is_ascii_hexdigit)
}

/// Whether `t` is the text of an HBase shell cell: `column=FAMILY:QUALIFIER, timestamp=…`, the
/// family a name without spaces, commas and `=`.
fn is_hbase_cell(t: &[u8]) -> bool {
    let Some(rest) = t.strip_prefix(b"column=") else {
        return false;
    };
    let Some(colon) = rest.iter().position(|b| b" ,=:".contains(b)) else {
        return false;
    };
    colon > 0
        && rest.get(colon) == Some(&b':')
        && rest
            .get(colon..)
            .is_some_and(|r| find(r, b", timestamp=").is_some())
}

/// The key text of an HBase shell row line (` KEY column=…`), or `None` for any other line.
/// `cell_col`: where the header put `COLUMN+CELL` (see [`DumpFormat::HBase`]).
fn hbase_key_text(l: &[u8], cell_col: Option<usize>) -> Option<&[u8]> {
    if !l.starts_with(b" ") || is_hbase_header(l) {
        return None;
    }
    // Padded output (a terminal): the cell text starts at the header's column or, for a key
    // longer than the column, further right.
    let min = match cell_col {
        Some(c) if c > 5 => c,
        _ => 0,
    };
    let at = find_all(l, b" column=")
        .filter(|&p| p >= 1 && p + 1 >= min)
        .find(|&p| l.get(p + 1..).is_some_and(is_hbase_cell))?;
    let key = l.get(1..at)?;
    // trailing spaces: padding, unless the header says the output is not padded
    let padded = cell_col.is_none_or(|c| c > 5);
    if padded {
        let end = key.iter().rposition(|b| *b != b' ').map_or(0, |i| i + 1);
        return key.get(..end);
    }
    Some(key)
}

/// Whether a line of a `cbt read` dump is a cell header:
/// `  FAMILY:QUALIFIER<padding to 40> @ YYYY/MM/DD-hh:mm:ss.ffffff`.
fn is_cbt_cell(l: &[u8]) -> bool {
    if !l.starts_with(b"  ") || l.get(2).is_none_or(|b| *b == b' ') {
        return false;
    }
    let Some(at) = l.windows(3).rposition(|w| w == b" @ ") else {
        return false;
    };
    // `%-40s`: the column takes at least 40 characters after the two-space indent
    if at < 42 {
        return false;
    }
    l.get(at + 3..).is_some_and(is_cbt_time)
}

/// `YYYY/MM/DD-hh:mm:ss.ffffff` (Go's `2006/01/02-15:04:05.000000`; years of 4 or more digits).
fn is_cbt_time(t: &[u8]) -> bool {
    const SHAPE: &[u8] = b"/00/00-00:00:00.000000";
    let Some(split) = t.len().checked_sub(SHAPE.len()) else {
        return false;
    };
    let (year, rest) = t.split_at(split);
    year.len() >= 4
        && year.iter().all(u8::is_ascii_digit)
        && rest.iter().zip(SHAPE).all(|(b, s)| {
            if *s == b'0' {
                b.is_ascii_digit()
            } else {
                b == s
            }
        })
}

/// A Go double-quoted string literal (what `fmt`'s `%q` prints) as bytes; `None` if malformed.
fn go_unquote(s: &[u8]) -> Option<Vec<u8>> {
    let inner = s.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let mut out = Vec::with_capacity(inner.len());
    let mut it = inner.iter().copied();
    let hex = |it: &mut dyn Iterator<Item = u8>, n: usize| -> Option<u32> {
        let mut v = 0u32;
        for _ in 0..n {
            v = v * 16 + char::from(it.next()?).to_digit(16)?;
        }
        Some(v)
    };
    while let Some(b) = it.next() {
        match b {
            b'"' | b'\n' => return None,
            b'\\' => match it.next()? {
                b'a' => out.push(0x07),
                b'b' => out.push(0x08),
                b'f' => out.push(0x0C),
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'v' => out.push(0x0B),
                b'\\' => out.push(b'\\'),
                b'"' => out.push(b'"'),
                b'x' => out.push(u8::try_from(hex(&mut it, 2)?).ok()?),
                e @ (b'u' | b'U') => {
                    let c = char::from_u32(hex(&mut it, if e == b'u' { 4 } else { 8 })?)?;
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                d @ b'0'..=b'7' => {
                    let mut v = u32::from(d - b'0');
                    for _ in 0..2 {
                        v = v * 8 + char::from(it.next()?).to_digit(8)?;
                    }
                    out.push(u8::try_from(v).ok()?);
                }
                _ => return None,
            },
            _ => out.push(b),
        }
    }
    Some(out)
}

/// Whether a key is one of the tool's key type.
pub(super) type Decodes<'a> = &'a dyn Fn(&[u8]) -> bool;

/// The format of a dump from its first lines. `decodes`: whether a key is one of the tool's
/// key type (decides between hex and `toStringBinary` lines, both valid for hex digits).
fn sniff(lines: &[Vec<u8>], decodes: Option<Decodes<'_>>) -> DumpFormat {
    let content: Vec<&[u8]> = lines
        .iter()
        .map(|l| trim_eol(l))
        .filter(|l| !l.is_empty())
        .collect();
    if content.contains(&CBT_RULE) {
        return DumpFormat::Cbt;
    }
    if content
        .iter()
        .any(|l| is_hbase_header(l) || hbase_key_text(l, None).is_some())
    {
        return DumpFormat::HBase;
    }
    if !content.is_empty() && content.iter().all(|l| is_hex_line(l)) {
        // Hex digits are also valid toStringBinary text: take hex when it decodes more keys.
        let Some(decodes) = decodes else {
            return DumpFormat::Hex;
        };
        let score = |hex_mode: bool| {
            content
                .iter()
                .filter(|l| {
                    let k = if hex_mode { hex_key(l) } else { lines_key(l) };
                    k.is_ok_and(|k| decodes(&k))
                })
                .count()
        };
        if score(true) >= score(false) {
            return DumpFormat::Hex;
        }
    }
    DumpFormat::Lines
}

fn hex_key(l: &[u8]) -> Result<Vec<u8>, String> {
    let t = String::from_utf8_lossy(l);
    let t = t.trim();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("hex:"))
        .unwrap_or(t);
    parse_hex(t).map_err(|e| format!("{t:?} is not hex: {e}"))
}

fn lines_key(l: &[u8]) -> Result<Vec<u8>, String> {
    let t = std::str::from_utf8(l).map_err(|_| {
        "not text (raw key bytes: a cbt read dump is read with --format cbt)".to_owned()
    })?;
    from_string_binary(t).map_err(|e| format!("{t:?} is not a toStringBinary key: {e}"))
}

/// A progress line on stderr for long dumps.
pub(super) struct Progress {
    on: bool,
    total: Option<u64>,
    read: u64,
    keys: u64,
    next: u64,
}

impl Progress {
    pub(super) fn new(on: bool, total: Option<u64>) -> Self {
        Progress {
            on,
            total,
            read: 0,
            keys: 0,
            next: 0,
        }
    }

    fn tick(&mut self, bytes: usize, err: &mut dyn Write) {
        self.read += bytes as u64;
        if !self.on || self.read < self.next {
            return;
        }
        self.next = self.read + (8 << 20);
        let _ = match self.total {
            Some(t) if t > 0 => write!(
                err,
                "\r{:>5.1}%  {} MiB  {} keys",
                self.read as f64 * 100.0 / t as f64,
                self.read >> 20,
                self.keys
            ),
            _ => write!(err, "\r{} MiB  {} keys", self.read >> 20, self.keys),
        };
        let _ = err.flush();
    }

    fn done(&mut self, err: &mut dyn Write) {
        if self.on {
            let _ = writeln!(err, "\r{} keys read{:20}", self.keys, "");
        }
    }
}

/// Where the `cbt read` parser is.
enum CbtState {
    /// Before the first dash line, or past a row's first cell header.
    Skip,
    /// Reading a key: its lines so far joined with `\n`, and how many lines.
    Key { key: Vec<u8>, lines: usize },
}

/// The line-by-line parser of one format; calls `f` with each row key (once per row).
struct Parser {
    format: DumpFormat,
    cbt: CbtState,
    /// HBase: the previous row (one line per cell).
    last: Option<Vec<u8>>,
    /// HBase: the column of `COLUMN+CELL` in the header, once seen.
    cell_col: Option<usize>,
    line_no: u64,
}

impl Parser {
    fn line(&mut self, raw: &[u8], f: &mut dyn FnMut(&[u8])) -> Result<bool, String> {
        self.line_no += 1;
        match self.format {
            DumpFormat::Cbt => self.cbt_line(raw, f),
            DumpFormat::HBase => {
                let l = trim_eol(raw);
                if is_hbase_header(l) {
                    self.cell_col = find(l, b"COLUMN+CELL");
                    return Ok(false);
                }
                // header, "N row(s)", "Took …", prompts
                let Some(text) = hbase_key_text(l, self.cell_col) else {
                    return Ok(false);
                };
                let text = String::from_utf8_lossy(text);
                let key =
                    from_string_binary(&text).map_err(|e| format!("line {}: {e}", self.line_no))?;
                if self.last.as_deref() == Some(&key[..]) {
                    return Ok(false);
                }
                f(&key);
                self.last = Some(key);
                Ok(true)
            }
            DumpFormat::Lines | DumpFormat::Hex => {
                let l = trim_eol(raw);
                if l.is_empty() || (self.format == DumpFormat::Hex && l.trim_ascii().is_empty()) {
                    return Ok(false);
                }
                let key = if self.format == DumpFormat::Hex {
                    hex_key(l)
                } else {
                    lines_key(l)
                }
                .map_err(|e| format!("line {}: {e}", self.line_no))?;
                f(&key);
                Ok(true)
            }
        }
    }

    fn cbt_line(&mut self, raw: &[u8], f: &mut dyn FnMut(&[u8])) -> Result<bool, String> {
        // cbt prints keys unescaped: only the `\n` ends the line, a `\r` is the key's.
        let l = raw.strip_suffix(b"\n").unwrap_or(raw);
        match &mut self.cbt {
            CbtState::Skip => {
                if l == CBT_RULE {
                    self.cbt = CbtState::Key {
                        key: Vec::new(),
                        lines: 0,
                    };
                }
                Ok(false)
            }
            // The first line after the dash line is always the key's (keys are not empty).
            CbtState::Key { key, lines } if *lines > 0 && is_cbt_cell(l) => {
                let key = std::mem::take(key);
                let quoted = l.get(2) == Some(&b'"');
                self.cbt = CbtState::Skip;
                if quoted {
                    let k = go_unquote(&key).ok_or_else(|| {
                        format!(
                            "line {}: the row's column is quoted (cbt %q output) but its key is not a quoted string: {}",
                            self.line_no.saturating_sub(1),
                            crate::hbase::to_string_binary(&key)
                        )
                    })?;
                    f(&k);
                } else {
                    f(&key);
                }
                Ok(true)
            }
            CbtState::Key { key, lines } => {
                if *lines > 0 {
                    key.push(b'\n');
                }
                key.extend_from_slice(l);
                *lines += 1;
                Ok(false)
            }
        }
    }

    /// The end of the dump: a key without cells (a dump cut short) is still a key.
    fn finish(&mut self, f: &mut dyn FnMut(&[u8])) -> bool {
        match std::mem::replace(&mut self.cbt, CbtState::Skip) {
            CbtState::Key { key, lines } if !key.is_empty() => {
                // cbt ends every row with an empty line: not the key's
                let key = match key.strip_suffix(b"\n") {
                    Some(k) if lines > 1 => k,
                    _ => &key[..],
                };
                f(key);
                true
            }
            _ => false,
        }
    }
}

/// Reads a dump from `r` into `f`, key by key; `forced`: the format, else detected from the
/// first lines (with `decodes` to tell hex from `toStringBinary` lines).
pub(super) fn read_dump_from(
    r: &mut dyn BufRead,
    forced: Option<DumpFormat>,
    decodes: Option<Decodes<'_>>,
    f: &mut dyn FnMut(&[u8]),
    mut progress: Progress,
    err: &mut dyn Write,
) -> Result<DumpFormat, String> {
    let mut head: Vec<Vec<u8>> = Vec::new();
    let mut eof = false;
    let mut buf = Vec::new();
    if forced.is_none() {
        while head.len() < SNIFF_LINES {
            buf.clear();
            let n = r.read_until(b'\n', &mut buf).map_err(|e| e.to_string())?;
            if n == 0 {
                eof = true;
                break;
            }
            head.push(buf.clone());
        }
    }
    let format = forced.unwrap_or_else(|| sniff(&head, decodes));
    let mut p = Parser {
        format,
        cbt: CbtState::Skip,
        last: None,
        cell_col: None,
        line_no: 0,
    };
    for l in &head {
        if p.line(l, f)? {
            progress.keys += 1;
        }
        progress.tick(l.len(), err);
    }
    // The sniffing loop may have reached the end already; else read on to the first empty read.
    while !eof {
        buf.clear();
        let n = r.read_until(b'\n', &mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            eof = true;
            continue;
        }
        if p.line(&buf, f)? {
            progress.keys += 1;
        }
        progress.tick(n, err);
    }
    if p.finish(f) {
        progress.keys += 1;
    }
    progress.done(err);
    Ok(format)
}

/// Reads every row key of a dump (HBase shell `scan` output, `cbt read` output, or one key per
/// line in `toStringBinary` or hex form; the format detected from the first lines) into `f`,
/// streaming. Every key reads back byte for byte, including keys holding newlines in a `cbt
/// read` dump; the few exceptions of each format are listed on [`DumpFormat`].
///
/// # Errors
///
/// An I/O error, or a key line that is not valid `toStringBinary`/hex (with its line number).
///
/// ```
/// let dump = "ROW   COLUMN+CELL\n \\x00\\x01row1   column=f:q, timestamp=1, value=v\n \\x00\\x01row1   column=f:r, timestamp=1, value=w\n1 row(s)\n";
/// let mut keys = Vec::new();
/// rowkey::tool::read_dump(&mut dump.as_bytes(), &mut |k| keys.push(k.to_vec()))?;
/// assert_eq!(keys, vec![b"\x00\x01row1".to_vec()]);
///
/// // `cbt read` prints keys raw: a key ending in a newline keeps it
/// let cell = "  f:q                                      @ 2023/11/14-22:13:20.000000\n    \"1\"\n\n";
/// let rule = "-".repeat(40);
/// let dump = format!("{rule}\nab\n\n{cell}{rule}\ncd\n{cell}");
/// let mut keys = Vec::new();
/// rowkey::tool::read_dump(&mut dump.as_bytes(), &mut |k| keys.push(k.to_vec()))?;
/// assert_eq!(keys, vec![b"ab\n".to_vec(), b"cd".to_vec()]);
/// # Ok::<(), String>(())
/// ```
pub fn read_dump(r: &mut dyn BufRead, f: &mut dyn FnMut(&[u8])) -> Result<(), String> {
    let mut sink = io::sink();
    read_dump_from(r, None, None, f, Progress::new(false, None), &mut sink).map(|_| ())
}

/// [`read_dump`] of a dump in a known format (what `--format` selects): no detection, so a
/// one-key-per-line dump whose keys happen to look like hex digits, a dash line or an HBase
/// cell stays what it is.
///
/// # Errors
///
/// As [`read_dump`].
///
/// ```
/// use rowkey::tool::{read_dump_as, DumpFormat};
///
/// let mut keys = Vec::new();
/// read_dump_as(&mut &b"cafe\n\"q\" \n"[..], DumpFormat::Lines, &mut |k| keys.push(k.to_vec()))?;
/// assert_eq!(keys, vec![b"cafe".to_vec(), b"\"q\" ".to_vec()]);
/// # Ok::<(), String>(())
/// ```
pub fn read_dump_as(
    r: &mut dyn BufRead,
    format: DumpFormat,
    f: &mut dyn FnMut(&[u8]),
) -> Result<(), String> {
    let mut sink = io::sink();
    read_dump_from(
        r,
        Some(format),
        None,
        f,
        Progress::new(false, None),
        &mut sink,
    )
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_quoted_strings() {
        assert_eq!(go_unquote(br#""r1""#).unwrap(), b"r1");
        assert_eq!(
            go_unquote(br#""\x05\x00a\n\"\\\u00e9\U0001F600\a\b\f\r\t\v\101""#).unwrap(),
            "\x05\x00a\n\"\\\u{e9}\u{1F600}\x07\x08\x0C\r\t\x0BA".as_bytes()
        );
        assert_eq!(
            go_unquote("\"caf\u{e9}\"".as_bytes()).unwrap(),
            "caf\u{e9}".as_bytes()
        );
        for bad in [
            &b"r1"[..],
            b"\"r1",
            b"\"a\"b\"",
            b"\"\\q\"",
            b"\"\\x0\"",
            b"\"\\400\"",
        ] {
            assert_eq!(go_unquote(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn cbt_cell_headers() {
        let cell = format!("  {:<40} @ 2023/11/14-22:13:20.000000", "f:q");
        assert!(is_cbt_cell(cell.as_bytes()));
        let quoted = format!("  {:<40} @ 2023/11/14-22:13:20.000000", "\"f:q\"");
        assert!(is_cbt_cell(quoted.as_bytes()));
        let long = format!(
            "  {} @ 12023/11/14-22:13:20.000000",
            "f:".to_owned() + &"q".repeat(50)
        );
        assert!(is_cbt_cell(long.as_bytes()));
        for bad in [
            format!("  {:<39} @ 2023/11/14-22:13:20.000000", "f:q"),
            format!("   {:<40} @ 2023/11/14-22:13:20.000000", "f:q"),
            format!("  {:<40} @ 2023/11/14-22:13:20.00000", "f:q"),
            format!("  {:<40} @ 2023-11-14-22:13:20.000000", "f:q"),
            format!("  {:<40} @ 2023/11/14-22:13:20.000000 ", "f:q"),
            "    \"100\"".to_owned(),
        ] {
            assert!(!is_cbt_cell(bad.as_bytes()), "{bad:?}");
        }
    }

    #[test]
    fn hbase_row_lines() {
        let l = b" ab  column=f:q, timestamp=1, value=x";
        // redirected output: one space, the key keeps its trailing space
        assert_eq!(hbase_key_text(l, Some(5)), Some(&b"ab "[..]));
        // no header: trailing spaces are padding
        assert_eq!(hbase_key_text(l, None), Some(&b"ab"[..]));
        // aligned at column 5 + … : padding
        assert_eq!(
            hbase_key_text(b" ab   column=f:q, timestamp=1, value=x", Some(6)),
            Some(&b"ab"[..])
        );
        // padded output: trailing spaces are padding, also after a key longer than the column
        let l = b" abc   column=f:q, timestamp=1, value=x";
        assert_eq!(hbase_key_text(l, Some(6)), Some(&b"abc"[..]));
        // a key holding " column=" but not a cell's text
        let l = b" a column=b column=f:q, timestamp=1, value= column=f:q, timestamp=2, value=";
        assert_eq!(hbase_key_text(l, Some(5)), Some(&b"a column=b"[..]));
        assert_eq!(hbase_key_text(b"ROW  COLUMN+CELL", None), None);
        assert_eq!(hbase_key_text(b"1 row(s)", None), None);
    }
}
