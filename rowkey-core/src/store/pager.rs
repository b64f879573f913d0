//! Reading one range of one table page by page, forward or backward: the one pager of every
//! operation.

use std::collections::VecDeque;

use super::port::{KeyValue, Store, Table};

/// The rows of `[start, stop)` of one table, fetched `page` at a time; after an error it
/// ends.
pub(crate) struct Pager<'s, S: Store> {
    store: &'s S,
    table: Table,
    start: Vec<u8>,
    stop: Option<Vec<u8>>,
    page: usize,
    reverse: bool,
    buf: VecDeque<KeyValue>,
    done: bool,
}

impl<'s, S: Store> Pager<'s, S> {
    pub(crate) fn new(
        store: &'s S,
        table: Table,
        start: &[u8],
        stop: Option<&[u8]>,
        page: usize,
        reverse: bool,
    ) -> Self {
        Pager {
            store,
            table,
            start: start.to_vec(),
            stop: stop.map(<[u8]>::to_vec),
            page: page.max(1),
            reverse,
            buf: VecDeque::new(),
            done: false,
        }
    }
}

impl<S: Store> Iterator for Pager<'_, S> {
    type Item = Result<KeyValue, S::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(row) = self.buf.pop_front() {
                return Some(Ok(row));
            }
            if self.done {
                return None;
            }
            let rows = match self.store.scan(
                &self.table,
                &self.start,
                self.stop.as_deref(),
                self.page,
                self.reverse,
            ) {
                Ok(rows) => rows,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            if rows.len() < self.page {
                self.done = true;
            }
            match rows.last() {
                // Backward: the next page stops before the last key read.
                Some((last, _)) if self.reverse => self.stop = Some(last.clone()),
                // Forward: it starts right after it.
                Some((last, _)) => {
                    self.start.clear();
                    self.start.extend_from_slice(last);
                    self.start.push(0);
                }
                None => self.done = true,
            }
            self.buf.extend(rows);
        }
    }
}
