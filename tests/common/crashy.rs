//! The one crash-injecting store of the tests: a wrapper around any `rowkey::store::Store`
//! that fails like a process dying between writes. Used by the index crash proof
//! (`tests/index_proof/`, on redb, Bigtable and HBase) and the migration properties
//! (`tests/operations/migrate_props.rs`).
#![allow(dead_code)]

use std::cell::Cell;
use std::fmt;

use rowkey::store::{KeyValue, Store, Table, Write};

/// The crash itself, or the wrapped store's own error.
#[derive(Debug)]
pub enum CrashError<E> {
    Crash,
    Inner(E),
}

impl<E: fmt::Display> fmt::Display for CrashError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrashError::Crash => f.write_str("injected crash"),
            CrashError::Inner(e) => write!(f, "{e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for CrashError<E> {}

/// Where the crash happens.
#[derive(Debug, Clone, Copy)]
enum Fault {
    None,
    /// At the n-th write unit (counted from 0), and every unit after it.
    AtUnit(u64),
    /// In the `n`-th `apply` call (counted from 0), after `percent`% of each of its steps and
    /// before its checkpoint.
    InApply {
        n: usize,
        percent: usize,
    },
}

/// A store that writes an `apply`'s steps row by row (like a store without transactions), or
/// — `atomic` — each `write`/`apply` as one unit (the store's transaction), and crashes where
/// its fault says. After a crash every write fails.
pub struct Crashy<'s, S> {
    inner: &'s S,
    fault: Fault,
    done: Cell<u64>,
    applies: Cell<usize>,
    crashed: Cell<bool>,
    atomic: bool,
}

impl<'s, S: Store> Crashy<'s, S> {
    /// Fails its `fail_at`-th write unit (counted from 0) and every one after it. A unit is one
    /// row mutation or checkpoint, or — `atomic` — one whole `write` or `apply`. `None`: never
    /// (to count units).
    pub fn new(inner: &'s S, fail_at: Option<u64>, atomic: bool) -> Self {
        Crashy {
            inner,
            fault: fail_at.map_or(Fault::None, Fault::AtUnit),
            done: Cell::new(0),
            applies: Cell::new(0),
            crashed: Cell::new(false),
            atomic,
        }
    }

    /// Applies atomically until its `n`-th `apply` (from 0), which writes the first `percent`%
    /// of each step's rows and crashes before the checkpoint.
    pub fn in_apply(inner: &'s S, n: usize, percent: usize) -> Self {
        Crashy {
            fault: Fault::InApply { n, percent },
            ..Crashy::new(inner, None, true)
        }
    }

    /// Write units done.
    pub fn units(&self) -> u64 {
        self.done.get()
    }

    /// Whether it crashed.
    pub fn crashed(&self) -> bool {
        self.crashed.get()
    }

    fn unit(&self) -> Result<(), CrashError<S::Error>> {
        if self.crashed.get() || matches!(self.fault, Fault::AtUnit(n) if n == self.done.get()) {
            self.crashed.set(true);
            return Err(CrashError::Crash);
        }
        self.done.set(self.done.get() + 1);
        Ok(())
    }
}

impl<S: Store> Store for Crashy<'_, S> {
    type Error = CrashError<S::Error>;
    fn scan(
        &self,
        table: &Table,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
        reverse: bool,
    ) -> Result<Vec<KeyValue>, Self::Error> {
        self.inner
            .scan(table, start, stop, limit, reverse)
            .map_err(CrashError::Inner)
    }
    fn get(&self, table: &Table, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error> {
        self.inner.get(table, keys).map_err(CrashError::Inner)
    }
    fn write(&self, writes: &[Write]) -> Result<(), Self::Error> {
        if self.atomic {
            self.unit()?;
            return self.inner.write(writes).map_err(CrashError::Inner);
        }
        for w in writes {
            self.unit()?;
            self.inner
                .write(std::slice::from_ref(w))
                .map_err(CrashError::Inner)?;
        }
        Ok(())
    }
    fn apply(
        &self,
        steps: &[Vec<Write>],
        checkpoint: Option<(&str, &[u8])>,
    ) -> Result<(), Self::Error> {
        let call = self.applies.get();
        self.applies.set(call + 1);
        if let Fault::InApply { n, percent } = self.fault {
            if n == call {
                for step in steps {
                    let part = &step[..step.len() * percent / 100];
                    self.inner.write(part).map_err(CrashError::Inner)?;
                }
                self.crashed.set(true);
                return Err(CrashError::Crash);
            }
        }
        if self.atomic {
            self.unit()?;
            return self
                .inner
                .apply(steps, checkpoint)
                .map_err(CrashError::Inner);
        }
        for step in steps {
            self.write(step)?;
        }
        if let Some((name, blob)) = checkpoint {
            self.unit()?;
            self.inner
                .save_checkpoint(name, blob)
                .map_err(CrashError::Inner)?;
        }
        Ok(())
    }
    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Self::Error> {
        self.inner.load_checkpoint(name).map_err(CrashError::Inner)
    }
    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Self::Error> {
        self.inner
            .save_checkpoint(name, blob)
            .map_err(CrashError::Inner)
    }
    fn same_table(&self) -> bool {
        self.inner.same_table()
    }
}
