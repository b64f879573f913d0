//! The entry points: [`main`] and [`run`] (the tool in-process), and how a failure ends it.

use std::io::{self, BufRead, IsTerminal, Write};

use super::cli::command;
use super::key_type::KeyTypes;

use super::ctx::{shared_name, Ctx};
use super::failure::Failure;

/// The whole tool as a `main`: reads the process arguments, stdin, stdout and stderr, shows a
/// progress line on stderr when it is a terminal, and exits with the tool's exit code.
pub fn main<K: KeyTypes>() -> ! {
    let args: Vec<String> = std::env::args().collect();
    let stdin = io::stdin();
    let mut stdin = stdin.lock();
    let stdout = io::stdout();
    let mut stdout = io::BufWriter::new(stdout.lock());
    let progress = io::stderr().is_terminal();
    let mut stderr = io::stderr();
    let code = run_with::<K>(&args, &mut stdin, &mut stdout, &mut stderr, progress);
    let _ = stdout.flush();
    std::process::exit(code)
}

/// Runs the tool on `args` (`args[0]` is the program name) with the given streams and returns
/// the exit code: 0 success, 1 bad input, 2 usage error.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Event {
///     #[sep]
///     host: String,
///     ts: u64,
/// }
///
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let code = rowkey::tool::run::<(Event,)>(
///     &["keytool", "encode", "Event", "host=web1", "ts=7"],
///     &mut &b""[..],
///     &mut out,
///     &mut err,
/// );
/// assert_eq!(code, 0);
/// assert!(String::from_utf8(out)?.contains(r#"shell   "web1\x00\x00\x00\x00\x00\x00\x00\x00\x07""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run<K: KeyTypes>(
    args: &[impl AsRef<str>],
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    run_with::<K>(args, stdin, stdout, stderr, false)
}

pub(super) fn run_with<K: KeyTypes>(
    args: &[impl AsRef<str>],
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    progress: bool,
) -> i32 {
    let types = K::key_types();
    if let Some(name) = shared_name(&types) {
        let _ = writeln!(
            stderr,
            "error: two key types are named {name}: the tool cannot tell them apart (register one of them only)"
        );
        return 2;
    }
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let bin = args
        .first()
        .map(|a| {
            std::path::Path::new(a)
                .file_name()
                .map_or_else(|| (*a).to_owned(), |f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "keytool".to_owned());
    let matches = match command(&bin, &types).try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                stderr.write_all(text.as_bytes())
            } else {
                stdout.write_all(text.as_bytes())
            };
            return code;
        }
    };
    let mut ctx = Ctx {
        types: &types,
        stdin,
        out: stdout,
        err: stderr,
        progress,
        json: false,
    };
    let res = match matches.subcommand() {
        Some((name, m)) => {
            ctx.json = m.get_flag("json");
            match name {
                "describe" => ctx.describe(m),
                "encode" => ctx.encode(m),
                "scan" => ctx.scan(m),
                "plan" => ctx.plan(m),
                "hotspots" => ctx.hotspots(m),
                "types" => ctx.list_types(),
                other => Err(Failure::msg(format!("unknown subcommand {other}"))),
            }
        }
        None => Err(Failure::msg("no subcommand: see --help")),
    };
    let _ = ctx.out.flush();
    match res {
        Ok(()) => 0,
        Err(Failure::Message(m)) => {
            let _ = writeln!(ctx.err, "error: {m}");
            1
        }
    }
}
