//! [`Indexed`]: a base table and its indexes, kept true by every put, delete and batch.

use core::fmt;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use crate::{DecodeRowKeyOwned, RowKey};

use super::def::{entry, parse, Entry, Index, Kind, Spec};
use super::error::{DefineIndexError, IndexError};
use super::record::Record;
use crate::store::{KeyValue, Store, Table, Write};

/// A base table of records `R` and its indexes, over a [`Store`]. See the
/// [module docs](super) for the maintenance order and what each store guarantees.
///
/// Writers through one `Indexed` are serialized (a put reads the stored record, then writes):
/// share one `Indexed` between threads rather than opening several over the same tables.
pub struct Indexed<S, R> {
    pub(super) store: S,
    pub(super) specs: Vec<Box<dyn Spec<R>>>,
    lock: Mutex<()>,
}

impl<S, R> fmt::Debug for Indexed<S, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Indexed")
            .field(
                "indexes",
                &self.specs.iter().map(|s| s.name()).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

/// One operation of a [`IndexBatch`].
pub enum Op<R: Record> {
    /// Insert or replace the record with its primary key.
    Put(R),
    /// Delete the record with this primary key (a missing one is not an error).
    Delete(R::Key),
}

/// Puts and deletes written together: on a transactional store atomically, elsewhere in the
/// three steps of the [module docs](super) for the whole batch. Several operations on one
/// primary key: the last one wins.
///
/// ```
/// # use rowkey::index::{IndexBatch, Record, RecordError};
/// # use rowkey::RowKey;
/// # #[derive(RowKey, Debug, Clone, PartialEq)] struct Id { id: u32 }
/// # #[derive(Debug, Clone, PartialEq)] struct Doc { id: u32 }
/// # impl Record for Doc {
/// #     type Key = Id;
/// #     fn key(&self) -> Id { Id { id: self.id } }
/// #     fn to_value(&self) -> Vec<u8> { Vec::new() }
/// #     fn from_row(k: Id, _: &[u8]) -> Result<Doc, RecordError> { Ok(Doc { id: k.id }) }
/// # }
/// let mut batch = IndexBatch::new();
/// batch.put(Doc { id: 1 }).put(Doc { id: 2 }).delete(Id { id: 3 });
/// assert_eq!(batch.len(), 3);
/// ```
pub struct IndexBatch<R: Record> {
    ops: Vec<Op<R>>,
}

impl<R: Record + Clone> Clone for Op<R>
where
    R::Key: Clone,
{
    fn clone(&self) -> Self {
        match self {
            Op::Put(r) => Op::Put(r.clone()),
            Op::Delete(k) => Op::Delete(k.clone()),
        }
    }
}

impl<R: Record + fmt::Debug> fmt::Debug for Op<R>
where
    R::Key: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Put(r) => f.debug_tuple("Put").field(r).finish(),
            Op::Delete(k) => f.debug_tuple("Delete").field(k).finish(),
        }
    }
}

impl<R: Record + Clone> Clone for IndexBatch<R>
where
    R::Key: Clone,
{
    fn clone(&self) -> Self {
        IndexBatch {
            ops: self.ops.clone(),
        }
    }
}

impl<R: Record + fmt::Debug> fmt::Debug for IndexBatch<R>
where
    R::Key: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexBatch")
            .field("ops", &self.ops)
            .finish()
    }
}

impl<R: Record> Default for IndexBatch<R> {
    fn default() -> Self {
        IndexBatch { ops: Vec::new() }
    }
}

impl<R: Record> IndexBatch<R> {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a put.
    pub fn put(&mut self, record: R) -> &mut Self {
        self.ops.push(Op::Put(record));
        self
    }

    /// Add a delete.
    pub fn delete(&mut self, key: R::Key) -> &mut Self {
        self.ops.push(Op::Delete(key));
        self
    }

    /// The operations, in the order added.
    pub fn ops(&self) -> &[Op<R>] {
        &self.ops
    }

    /// The number of operations.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the batch is empty.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// One operation by reference.
enum OpRef<'a, R: Record> {
    Put(&'a R),
    Delete(&'a R::Key),
}

/// The stored and the new state of one primary key in a write.
struct Change<'a, R> {
    old: Option<(R, Vec<u8>)>,
    new: Option<(&'a R, Vec<u8>)>,
}

impl<S: Store, R: Record> Indexed<S, R> {
    /// A table of records `R` over `store`, with no index yet.
    pub fn new(store: S) -> Self {
        Indexed {
            store,
            specs: Vec::new(),
            lock: Mutex::new(()),
        }
    }

    /// Maintain `index` too. Every index that is read or scrubbed must be maintained by
    /// every writer of the table.
    ///
    /// # Errors
    ///
    /// Another index of the table has the same name.
    pub fn with_index<I: RowKey + DecodeRowKeyOwned + 'static>(
        mut self,
        index: &Index<R, I>,
    ) -> Result<Self, DefineIndexError>
    where
        R: 'static,
    {
        if self.specs.iter().any(|s| s.name() == index.name()) {
            return Err(DefineIndexError {
                index: index.name().to_owned(),
                reason: "the table already has an index of that name".into(),
            });
        }
        self.specs.push(Box::new(index.clone()));
        Ok(self)
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The names of the table's indexes, in the order added.
    pub fn index_names(&self) -> impl Iterator<Item = &str> {
        self.specs.iter().map(|s| s.name())
    }

    /// The record with primary key `key`, if any.
    ///
    /// # Errors
    ///
    /// The store fails, the key does not encode, or the stored row does not decode.
    pub fn get(&self, key: &R::Key) -> Result<Option<R>, IndexError<S::Error>> {
        let pk = encode_pk::<R, S::Error>(key)?;
        let found = self.store.get(&Table::Base, std::slice::from_ref(&pk));
        match found
            .map_err(IndexError::Store)?
            .into_iter()
            .next()
            .flatten()
        {
            Some(v) => decode_record(&pk, &v).map(Some),
            None => Ok(None),
        }
    }

    /// Insert or replace a record: new index rows first, then the base row, then the index
    /// rows the old record had and the new one has not.
    ///
    /// # Errors
    ///
    /// [`IndexError::UniqueViolation`] (nothing written), a key that does not encode, a
    /// stored row that does not decode, or the store — after which the tables are in one of
    /// the states the [module docs](super) list, all safe.
    pub fn put(&self, record: &R) -> Result<(), IndexError<S::Error>> {
        self.write_ops(&[OpRef::Put(record)]).map(drop)
    }

    /// Delete a record: the base row first, then its index rows. Returns whether there was
    /// one.
    ///
    /// # Errors
    ///
    /// As [`put`](Self::put).
    pub fn delete(&self, key: &R::Key) -> Result<bool, IndexError<S::Error>> {
        self.write_ops(&[OpRef::Delete(key)])
            .map(|deleted| deleted > 0)
    }

    /// Apply a batch (see [`IndexBatch`]).
    ///
    /// # Errors
    ///
    /// As [`put`](Self::put); a unique key taken by two records of the batch, or moved from
    /// one record to another within it, is a [`IndexError::UniqueViolation`].
    pub fn apply(&self, batch: &IndexBatch<R>) -> Result<(), IndexError<S::Error>> {
        let ops: Vec<OpRef<'_, R>> = batch
            .ops
            .iter()
            .map(|op| match op {
                Op::Put(r) => OpRef::Put(r),
                Op::Delete(k) => OpRef::Delete(k),
            })
            .collect();
        self.write_ops(&ops).map(drop)
    }

    /// The index rows a record should have, one per index: `(table, (key, value))`. What a
    /// rebuild writes and the scrub compares with.
    ///
    /// # Errors
    ///
    /// A key does not encode.
    pub fn expected_rows(
        &self,
        record: &R,
    ) -> Result<Vec<(Table, KeyValue)>, IndexError<S::Error>> {
        let pk = encode_pk::<R, S::Error>(&record.key())?;
        let value = record.to_value();
        self.specs
            .iter()
            .map(|s| {
                let e = entry_of::<R, S::Error>(s.as_ref(), record, &pk, &value)?;
                Ok((Table::Index(s.name().to_owned()), (e.key, e.value)))
            })
            .collect()
    }

    /// Write `ops`; returns how many stored records they delete.
    fn write_ops(&self, ops: &[OpRef<'_, R>]) -> Result<usize, IndexError<S::Error>> {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        // The final state per primary key (the last operation wins).
        let mut last: BTreeMap<Vec<u8>, Option<&R>> = BTreeMap::new();
        for op in ops {
            match op {
                OpRef::Put(r) => last.insert(encode_pk::<R, S::Error>(&r.key())?, Some(*r)),
                OpRef::Delete(k) => last.insert(encode_pk::<R, S::Error>(k)?, None),
            };
        }
        if last.is_empty() {
            return Ok(0);
        }
        let pks: Vec<Vec<u8>> = last.keys().cloned().collect();
        let stored = self
            .store
            .get(&Table::Base, &pks)
            .map_err(IndexError::Store)?;
        let mut changes: Vec<(Vec<u8>, Change<'_, R>)> = Vec::with_capacity(pks.len());
        for ((pk, new), old) in last.into_iter().zip(stored) {
            let old = match old {
                Some(v) => Some((decode_record::<R, S::Error>(&pk, &v)?, v)),
                None => None,
            };
            let new = new.map(|r| (r, r.to_value()));
            changes.push((pk, Change { old, new }));
        }
        self.check_unique(&changes)?;

        let mut add = Vec::new();
        let mut base = Vec::new();
        let mut remove = Vec::new();
        for spec in &self.specs {
            let table = Table::Index(spec.name().to_owned());
            let mut keep: BTreeSet<Vec<u8>> = BTreeSet::new();
            let mut old_entries: Vec<Entry> = Vec::new();
            for (pk, c) in &changes {
                let old = match &c.old {
                    Some((r, v)) => Some(entry_of::<R, S::Error>(spec.as_ref(), r, pk, v)?),
                    None => None,
                };
                if let Some((r, v)) = &c.new {
                    let e = entry_of::<R, S::Error>(spec.as_ref(), *r, pk, v)?;
                    if old.as_ref() != Some(&e) {
                        add.push(Write::Put {
                            table: table.clone(),
                            key: e.key.clone(),
                            value: e.value,
                        });
                    }
                    keep.insert(e.key);
                }
                old_entries.extend(old);
            }
            for e in old_entries {
                if !keep.contains(&e.key) {
                    remove.push(Write::Delete {
                        table: table.clone(),
                        key: e.key,
                    });
                }
            }
        }
        for (pk, c) in &changes {
            match (&c.old, &c.new) {
                (Some((_, ov)), Some((_, nv))) if ov == nv => {}
                (_, Some((_, nv))) => base.push(Write::Put {
                    table: Table::Base,
                    key: pk.clone(),
                    value: nv.clone(),
                }),
                (Some(_), None) => base.push(Write::Delete {
                    table: Table::Base,
                    key: pk.clone(),
                }),
                (None, None) => {}
            }
        }
        let deleted = changes
            .iter()
            .filter(|(_, c)| c.old.is_some() && c.new.is_none())
            .count();
        self.store
            .apply(&[add, base, remove], None)
            .map_err(IndexError::Store)?;
        Ok(deleted)
    }

    /// Refuse a write that would give a unique index key to a second live record: checked
    /// against the stored records (not the batch's other changes, so a unique key cannot move
    /// between records inside one batch: a crash between the steps could then leave the
    /// holder's entry pointing at a record that never took the key).
    fn check_unique(
        &self,
        changes: &[(Vec<u8>, Change<'_, R>)],
    ) -> Result<(), IndexError<S::Error>> {
        for spec in self.specs.iter().filter(|s| s.kind() == Kind::Unique) {
            let table = Table::Index(spec.name().to_owned());
            let mut claims: BTreeMap<Vec<u8>, &[u8]> = BTreeMap::new();
            for (pk, c) in changes {
                let Some((r, _)) = &c.new else { continue };
                let key = encoded_key::<R, S::Error>(spec.as_ref(), *r)?;
                if let Some(other) = claims.insert(key.clone(), pk) {
                    return Err(IndexError::UniqueViolation {
                        index: spec.name().to_owned(),
                        index_key: key,
                        key: pk.clone(),
                        holder: other.to_vec(),
                    });
                }
                if let Some((old, _)) = &c.old {
                    if encoded_key::<R, S::Error>(spec.as_ref(), old)? == key {
                        claims.remove(&key);
                    }
                }
            }
            if claims.is_empty() {
                continue;
            }
            let keys: Vec<Vec<u8>> = claims.keys().cloned().collect();
            let found = self.store.get(&table, &keys).map_err(IndexError::Store)?;
            for ((key, pk), value) in claims.into_iter().zip(found) {
                let Some(value) = value else { continue };
                let Some(holder) = parse(Kind::Unique, &key, &value).map(|p| p.pk.to_vec()) else {
                    continue; // not an index row: the write replaces it
                };
                if holder == pk {
                    continue;
                }
                let stored = self
                    .store
                    .get(&Table::Base, std::slice::from_ref(&holder))
                    .map_err(IndexError::Store)?;
                let Some(hv) = stored.into_iter().next().flatten() else {
                    continue; // dangling: the holder is gone
                };
                let held = decode_record::<R, S::Error>(&holder, &hv)?;
                if encoded_key::<R, S::Error>(spec.as_ref(), &held)? == key {
                    return Err(IndexError::UniqueViolation {
                        index: spec.name().to_owned(),
                        index_key: key,
                        key: pk.to_vec(),
                        holder,
                    });
                }
            }
        }
        Ok(())
    }
}

pub(super) fn encode_pk<R: Record, E>(key: &R::Key) -> Result<Vec<u8>, IndexError<E>> {
    key.to_row_key()
        .map(|b| b.to_vec())
        .map_err(|error| IndexError::Encode {
            what: "the primary key".into(),
            error,
        })
}

pub(super) fn encoded_key<R, E>(spec: &dyn Spec<R>, record: &R) -> Result<Vec<u8>, IndexError<E>> {
    spec.encoded_key(record)
        .map_err(|error| IndexError::Encode {
            what: format!("the key of index {}", spec.name()),
            error,
        })
}

pub(super) fn entry_of<R, E>(
    spec: &dyn Spec<R>,
    record: &R,
    pk: &[u8],
    value: &[u8],
) -> Result<Entry, IndexError<E>> {
    entry(spec, record, pk, value).map_err(|error| IndexError::Encode {
        what: format!("the key of index {}", spec.name()),
        error,
    })
}

/// A base row as a record.
pub(super) fn decode_record<R: Record, E>(pk: &[u8], value: &[u8]) -> Result<R, IndexError<E>> {
    let key = R::Key::from_row_key(pk).map_err(|e| IndexError::Decode {
        table: Table::Base,
        key: pk.to_vec(),
        reason: format!("the primary key: {e}"),
    })?;
    R::from_row(key, value).map_err(|e| IndexError::Decode {
        table: Table::Base,
        key: pk.to_vec(),
        reason: format!("the record's value: {e}"),
    })
}
