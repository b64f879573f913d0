//! The checkpoint: what a migration has done, stored with every batch so a run resumes.

use core::fmt;

/// What a migration is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Copying source rows to the destination layout.
    Copy,
    /// Deleting the source rows after verification.
    Retire,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Copy => "copy",
            Phase::Retire => "retire",
        })
    }
}

/// A migration's persisted position: the phase, the rows done so far and the last source key
/// done. Stored as a blob by [`Store::save_checkpoint`](crate::store::Store::save_checkpoint).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The phase the key belongs to.
    pub phase: Phase,
    /// Source rows copied (all of them once the phase is [`Phase::Retire`]).
    pub copied: u64,
    /// Source rows deleted by retirement.
    pub retired: u64,
    /// The last source key done in `phase` (`None`: nothing yet).
    pub last_key: Option<Vec<u8>>,
}

pub(super) const MAGIC: &[u8; 4] = b"RKM1";

impl Checkpoint {
    pub(super) fn start() -> Self {
        Checkpoint {
            phase: Phase::Copy,
            copied: 0,
            retired: 0,
            last_key: None,
        }
    }

    /// The blob: `RKM1`, phase (0 copy, 1 retire), copied and retired (u64 big-endian), then a
    /// presence byte and the last key.
    pub fn encode(&self) -> Vec<u8> {
        let key = self.last_key.as_deref().unwrap_or_default();
        let mut v = Vec::with_capacity(4 + 1 + 16 + 1 + key.len());
        v.extend_from_slice(MAGIC);
        v.push(match self.phase {
            Phase::Copy => 0,
            Phase::Retire => 1,
        });
        v.extend_from_slice(&self.copied.to_be_bytes());
        v.extend_from_slice(&self.retired.to_be_bytes());
        v.push(u8::from(self.last_key.is_some()));
        v.extend_from_slice(key);
        v
    }

    /// Read a blob written by [`encode`](Self::encode).
    pub fn decode(blob: &[u8]) -> Result<Self, String> {
        let bad = |what: &str| format!("migration checkpoint is not valid: {what}");
        let rest = blob
            .strip_prefix(MAGIC)
            .ok_or_else(|| bad("no RKM1 header"))?;
        let (&phase, rest) = rest.split_first().ok_or_else(|| bad("no phase"))?;
        let phase = match phase {
            0 => Phase::Copy,
            1 => Phase::Retire,
            other => return Err(bad(&format!("unknown phase {other}"))),
        };
        let (copied, rest) = rest
            .split_first_chunk::<8>()
            .ok_or_else(|| bad("short copied count"))?;
        let (retired, rest) = rest
            .split_first_chunk::<8>()
            .ok_or_else(|| bad("short retired count"))?;
        let (&has_key, key) = rest.split_first().ok_or_else(|| bad("no key flag"))?;
        let last_key = match has_key {
            0 if key.is_empty() => None,
            1 => Some(key.to_vec()),
            _ => return Err(bad("bad key flag")),
        };
        Ok(Checkpoint {
            phase,
            copied: u64::from_be_bytes(*copied),
            retired: u64::from_be_bytes(*retired),
            last_key,
        })
    }
}
