//! Split points from a key layout alone (salt buckets, hash-prefix characters), and from a
//! sample for salted layouts (bucket boundaries kept, each bucket split at its own quantiles).

use std::cmp::Ordering;

use super::error::{check_limit, PlanError};
use super::sample::{quantile_points, split_points_from_sample};

use crate::hbase::to_string_binary;
use crate::key::RowKey;
use crate::layout::{HashPrefix, Layout, SaltLayout};

/// `floor(j * space / parts)` for `j = 1..parts`; `parts <= space <= 2^64`, so it is exact and
/// strictly increasing.
fn even_points(space: u128, parts: usize) -> impl Iterator<Item = u128> {
    let parts = parts as u128;
    (1..parts).map(move |j| j * space / parts)
}

fn too_many(regions: usize, max: u128, space: String) -> PlanError {
    PlanError::TooManyRegions {
        regions,
        max,
        space,
    }
}

/// Points splitting a hash prefix evenly: hex prefixes over the hex-character space of their
/// first `min(width, 8)` characters (only `0-9a-f`, so every region is reachable), raw prefixes
/// over their first `min(width, 8)` bytes.
fn hash_prefix_points(hp: HashPrefix, parts: usize) -> Result<Vec<Vec<u8>>, PlanError> {
    let chars = hp.width.min(8);
    let (space, what) = if hp.raw {
        (
            1u128 << (8 * chars),
            format!("{chars} leading raw bytes of the hash prefix"),
        )
    } else {
        (
            1u128 << (4 * chars),
            format!("{chars} leading hex characters of the hash prefix"),
        )
    };
    if parts as u128 > space {
        return Err(too_many(parts, space, what));
    }
    Ok(even_points(space, parts)
        .map(|p| {
            if hp.raw {
                let b = p.to_be_bytes();
                b.get(b.len() - chars..).unwrap_or_default().to_vec()
            } else {
                format!("{p:0chars$x}").into_bytes()
            }
        })
        .collect())
}

/// `(buckets, width)` of a salt, or [`PlanError::InvalidLayout`] when the layout's width is not
/// the one its bucket count takes.
fn checked_salt(salt: SaltLayout) -> Result<(u64, usize), PlanError> {
    if salt.buckets == 0 || salt.buckets > 65536 || salt.width != crate::salt::width(salt.buckets) {
        return Err(PlanError::InvalidLayout {
            reason: format!(
                "{} salt buckets do not fit a {}-byte salt",
                salt.buckets, salt.width
            ),
        });
    }
    Ok((u64::from(salt.buckets), salt.width))
}

fn salt_bytes(bucket: u64, width: usize) -> Vec<u8> {
    crate::salt::bytes(bucket as u32, width).as_ref().to_vec()
}

/// Pre-split points derived from a key layout, for `regions` regions — what
/// `T::split_points(regions)` returns.
///
/// * **Salted** (`#[salt(buckets = B)]`): the key starts with the bucket (1 byte for up to 256
///   buckets, else 2 bytes big-endian).
///   * `regions == B`: a split at every bucket `1..B`.
///   * `regions < B`: splits at evenly spaced bucket boundaries (`floor(j * B / regions)`).
///   * `regions == m * B` and the first field has a hash prefix: every bucket is split into
///     `m` parts over the hex (or raw) space of that hash prefix, which follows the salt.
///   * other counts above `B` with a hash prefix: [`PlanError::RegionsNotMultipleOfBuckets`].
///   * any count above `B` without a hash prefix: [`PlanError::NeedsSample`]. What follows the
///     salt is data whose distribution the layout does not tell — a `u64` id's first byte is
///     `0x00` for every realistic id, so splitting each bucket at byte `0x80` would leave half
///     the regions empty. Split each bucket at the quantiles of a sample of real keys with
///     [`salted_sample_split_points`] (`T::split_points_from_sample`) instead.
///
///   Every plan returned here only cuts bytes that vary by construction (the salt, a hash-prefix
///   character), so every region is reachable by keys of the layout.
/// * **Hash prefix on the first field** (`#[hash_prefix(N)]`): evenly over the hex-character
///   space of the first `min(N, 8)` characters, using only `0-9a-f` so that every region is
///   reachable (a naive byte split of `"0000"`..`"ffff"` would leave most regions empty);
///   `#[hash_prefix(N, raw)]` evenly over the first `min(N, 8)` raw bytes. A `#[desc]` field's
///   hash prefix is stored as is, so this holds for it too.
/// * **Neither**: [`PlanError::NeedsSample`] — use [`split_points_from_sample`] (or
///   `T::split_points_from_sample`).
///
/// `regions == 1` gives no points.
///
/// # Errors
///
/// [`PlanError::TooFewRegions`] for 0 regions, [`PlanError::RegionsNotMultipleOfBuckets`],
/// [`PlanError::TooManyRegions`] when the prefix has fewer distinct values than regions,
/// [`PlanError::NeedsSample`], [`PlanError::InvalidLayout`], [`PlanError::RegionLimit`] above
/// [`MAX_REGIONS`](super::MAX_REGIONS).
///
/// ```
/// use rowkey::layout::{FieldEncoding, FieldLayout, HashPrefix, Layout, SaltKind, SaltLayout};
/// use rowkey::plan::{layout_split_points, PlanError};
///
/// const USER: FieldLayout = FieldLayout {
///     name: "user", ty: "String", encoding: FieldEncoding::Sep, width: None, desc: false,
///     hash_prefix: Some(HashPrefix { width: 4, raw: false }),
/// };
/// let hashed = Layout { name: "ByUser", prefix: &[], fields: &[USER], salt: None, fixed_width: None, max_len: None };
/// assert_eq!(layout_split_points(&hashed, 4)?, [b"4000", b"8000", b"c000"]);
///
/// let salt = SaltLayout { buckets: 16, width: 1, through_field: 0, fields: &[0], kind: SaltKind::Phoenix };
/// let salted = Layout { salt: Some(salt), ..hashed };
/// assert_eq!(layout_split_points(&salted, 4)?, [[4], [8], [12]]);
/// assert_eq!(layout_split_points(&salted, 32)?.len(), 31); // each bucket split in two
/// assert!(matches!(layout_split_points(&salted, 20), Err(PlanError::RegionsNotMultipleOfBuckets { .. })));
///
/// const PLAIN: FieldLayout = FieldLayout { hash_prefix: None, ..USER };
/// let plain = Layout { name: "Plain", fields: &[PLAIN], ..hashed };
/// assert_eq!(
///     layout_split_points(&plain, 4),
///     Err(PlanError::NeedsSample { layout: "Plain", salt_buckets: None })
/// );
///
/// // Salted, but nothing after the salt is known to vary: 16 regions at most from the layout.
/// let salted_plain = Layout { salt: Some(salt), ..plain };
/// assert_eq!(layout_split_points(&salted_plain, 16)?.len(), 15);
/// assert_eq!(
///     layout_split_points(&salted_plain, 32),
///     Err(PlanError::NeedsSample { layout: "Plain", salt_buckets: Some(16) })
/// );
/// # Ok::<(), PlanError>(())
/// ```
pub fn layout_split_points(layout: &Layout, regions: usize) -> Result<Vec<Vec<u8>>, PlanError> {
    let mut points = layout_points_after_prefix(layout, regions)?;
    if !layout.prefix.is_empty() {
        for p in &mut points {
            p.splice(0..0, layout.prefix.iter().copied());
        }
    }
    Ok(points)
}

/// [`layout_split_points`] without the layout's constant prefix.
fn layout_points_after_prefix(layout: &Layout, regions: usize) -> Result<Vec<Vec<u8>>, PlanError> {
    if regions == 0 {
        return Err(PlanError::TooFewRegions { regions, min: 1 });
    }
    if regions == 1 {
        return Ok(Vec::new());
    }
    check_limit(regions)?;
    let first_hash = layout.fields.first().and_then(|f| f.hash_prefix);
    if let Some(salt) = layout.salt {
        let (buckets, width) = checked_salt(salt)?;
        let r = regions as u64;
        if r <= buckets {
            return Ok(even_points(u128::from(buckets), regions)
                .map(|k| salt_bytes(k as u64, width))
                .collect());
        }
        // Only a hash prefix right after the salt is known to vary within a bucket; any other
        // byte there is data (a u64 id's high byte is 0x00 for every realistic id), and an even
        // split of it would plan regions that no key reaches.
        let Some(hp) = first_hash else {
            return Err(PlanError::NeedsSample {
                layout: layout.name,
                salt_buckets: Some(salt.buckets),
            });
        };
        if !r.is_multiple_of(buckets) {
            return Err(PlanError::RegionsNotMultipleOfBuckets {
                regions,
                buckets: salt.buckets,
            });
        }
        let parts = (r / buckets) as usize;
        let within = hash_prefix_points(hp, parts)?;
        let mut out = Vec::with_capacity(regions - 1);
        for k in 0..buckets {
            let prefix = salt_bytes(k, width);
            if k > 0 {
                out.push(prefix.clone());
            }
            for p in &within {
                let mut point = prefix.clone();
                point.extend_from_slice(p);
                out.push(point);
            }
        }
        return Ok(out);
    }
    match first_hash {
        Some(hp) => hash_prefix_points(hp, regions),
        None => Err(PlanError::NeedsSample {
            layout: layout.name,
            salt_buckets: None,
        }),
    }
}

/// Split points for a salted layout from a sample of its keys: every salt bucket boundary is a
/// split, and each bucket is split further at the quantiles of its own sample keys (as
/// [`split_points_from_sample`] does for the whole sample). Use it when a salted layout needs
/// more regions than buckets and nothing after the salt is a hash prefix — where
/// [`layout_split_points`] returns [`PlanError::NeedsSample`] — or when the region count is not
/// a multiple of the buckets.
///
/// **How regions are distributed among buckets.** Every bucket gets at least one region (its
/// boundary is always a split). The `regions - B` further regions go, one at a time, to the
/// bucket with the most sample keys per region so far (ties to the lower bucket): D'Hondt
/// apportionment, i.e. proportional to each bucket's sample count, and it minimizes the largest
/// number of sample keys any one region gets. A bucket gets at most as many regions as it has
/// distinct sample keys, and heavy duplicates can merge quantiles, so the plan may have fewer
/// than `regions - 1` points (never more); a bucket with no sample keys keeps one region.
/// Keeping the boundaries has a cost when `regions` is not a multiple of `B`: 40 regions over
/// 16 equal buckets give 8 buckets 3 regions and 8 buckets 2, a max/mean skew of 1.25.
///
/// With fewer regions than buckets, not every boundary can be kept: when `regions` divides
/// `B` the points are [`layout_split_points`]'s bucket boundaries (equal groups of buckets);
/// otherwise equal groups are impossible (16 buckets in 7 regions would give some regions 3
/// buckets and others 2, a skew of 1.31), so the points are the quantiles of the whole sample,
/// as [`split_points_from_sample`].
///
/// The sample is held in memory and sorted; every key must start with a salt below the bucket
/// count (as every key of the layout does).
///
/// # Errors
///
/// [`PlanError::TooFewRegions`] for 0 regions, [`PlanError::NotSalted`] for a layout without a
/// salt (use [`split_points_from_sample`]), [`PlanError::InvalidLayout`],
/// [`PlanError::InvalidSampleKey`] for a key shorter than the salt or with a salt at or above
/// the bucket count, [`PlanError::RegionLimit`] above [`MAX_REGIONS`](super::MAX_REGIONS).
///
/// ```
/// use rowkey::plan::salted_sample_split_points;
/// use rowkey::plan::SplitPoints;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Order {
///     #[salt(buckets = 4)]
///     id: u64,
/// }
///
/// let sample: Vec<Vec<u8>> = (0..4000u64)
///     .map(|id| Order { id }.to_row_key().map(|k| k.to_vec()))
///     .collect::<Result<_, _>>()?;
/// // `Order::split_points(8)` would need to cut the id's bytes: NeedsSample. From a sample:
/// let points = salted_sample_split_points(Order::LAYOUT, &sample, 8)?;
/// assert_eq!(points.len(), 7);
/// assert_eq!([points[1].as_slice(), &points[3], &points[5]], [[1], [2], [3]]); // bucket boundaries kept
/// // Same thing through the key type:
/// assert_eq!(Order::split_points_from_sample(&sample, 8)?, points);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn salted_sample_split_points(
    layout: &Layout,
    keys: impl IntoIterator<Item = impl AsRef<[u8]>>,
    regions: usize,
) -> Result<Vec<Vec<u8>>, PlanError> {
    if regions == 0 {
        return Err(PlanError::TooFewRegions { regions, min: 1 });
    }
    check_limit(regions)?;
    let Some(salt) = layout.salt else {
        return Err(PlanError::NotSalted {
            layout: layout.name,
        });
    };
    let (buckets, width) = checked_salt(salt)?;
    let nb = usize::try_from(buckets).unwrap_or(usize::MAX);
    let mut per_bucket: Vec<Vec<Vec<u8>>> = Vec::new();
    // Bucket boundaries alone (regions divide the buckets), or the whole sample's quantiles
    // (fewer regions that do not divide them), or per-bucket quantiles (more regions).
    let boundaries_only = regions <= nb && nb.is_multiple_of(regions);
    let grouping = regions > nb;
    let mut whole: Vec<Vec<u8>> = Vec::new();
    if grouping {
        per_bucket.resize_with(nb, Vec::new);
    }
    let at = layout.prefix.len();
    for (index, key) in keys.into_iter().enumerate() {
        let key = key.as_ref();
        if !key.starts_with(layout.prefix) {
            return Err(PlanError::InvalidSampleKey {
                index,
                key: to_string_binary(key),
                reason: format!(
                    "does not start with the prefix \"{}\" of `{}`",
                    to_string_binary(layout.prefix),
                    layout.name
                ),
            });
        }
        let bucket = match key.get(at..at + width) {
            Some(prefix) => prefix
                .iter()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
            None => {
                return Err(PlanError::InvalidSampleKey {
                    index,
                    key: to_string_binary(key),
                    reason: format!("shorter than the {width}-byte salt of `{}`", layout.name),
                })
            }
        };
        if bucket >= buckets {
            return Err(PlanError::InvalidSampleKey {
                index,
                key: to_string_binary(key),
                reason: format!(
                    "salt {bucket} is not below the {buckets} buckets of `{}`",
                    layout.name
                ),
            });
        }
        if grouping {
            if let Some(b) = usize::try_from(bucket)
                .ok()
                .and_then(|b| per_bucket.get_mut(b))
            {
                b.push(key.to_vec());
            }
        } else if !boundaries_only {
            whole.push(key.to_vec());
        }
    }
    if boundaries_only {
        return layout_split_points(
            &Layout {
                salt: Some(salt),
                ..*layout
            },
            regions,
        );
    }
    if !grouping {
        whole.sort_unstable();
        return Ok(quantile_points(&whole, regions));
    }
    let mut distinct = Vec::with_capacity(nb);
    for b in &mut per_bucket {
        b.sort_unstable();
        let d = b.windows(2).filter(|w| w.first() != w.get(1)).count() + usize::from(!b.is_empty());
        distinct.push(d);
    }
    let parts = apportion(&per_bucket, &distinct, regions - nb);
    let mut out = Vec::with_capacity(regions - 1);
    for (k, (sample, &m)) in per_bucket.iter().zip(&parts).enumerate() {
        if k > 0 {
            let mut boundary = layout.prefix.to_vec();
            boundary.extend(salt_bytes(k as u64, width));
            out.push(boundary);
        }
        out.extend(quantile_points(sample, m));
    }
    Ok(out)
}

/// Keys per region of one bucket, ordered by `keys / parts` (exact rational comparison), ties
/// to the lower bucket.
#[derive(PartialEq, Eq)]
struct Load {
    keys: u64,
    parts: u64,
    bucket: usize,
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> Ordering {
        (u128::from(self.keys) * u128::from(other.parts))
            .cmp(&(u128::from(other.keys) * u128::from(self.parts)))
            .then_with(|| other.bucket.cmp(&self.bucket))
    }
}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Regions per bucket: one each, then `extra` more by D'Hondt (each to the bucket with the most
/// keys per region so far), capped at each bucket's distinct keys.
fn apportion(per_bucket: &[Vec<Vec<u8>>], distinct: &[usize], extra: usize) -> Vec<usize> {
    let mut parts = vec![1usize; per_bucket.len()];
    let mut heap: std::collections::BinaryHeap<Load> = per_bucket
        .iter()
        .zip(distinct)
        .enumerate()
        .filter(|(_, (_, &d))| d > 1)
        .map(|(bucket, (keys, _))| Load {
            keys: keys.len() as u64,
            parts: 1,
            bucket,
        })
        .collect();
    for _ in 0..extra {
        let Some(top) = heap.pop() else { break };
        let (Some(p), Some(&d)) = (parts.get_mut(top.bucket), distinct.get(top.bucket)) else {
            continue;
        };
        *p += 1;
        if *p < d {
            heap.push(Load {
                parts: *p as u64,
                ..top
            });
        }
    }
    parts
}

/// Split points from a sample of keys of `layout`: [`salted_sample_split_points`] for a salted
/// layout (bucket boundaries kept), [`split_points_from_sample`] otherwise. What
/// `T::split_points_from_sample(keys, regions)` returns.
///
/// # Errors
///
/// As [`salted_sample_split_points`] for salted layouts; [`PlanError::TooFewRegions`] for 0
/// regions and [`PlanError::RegionLimit`] above [`MAX_REGIONS`](super::MAX_REGIONS) otherwise.
///
/// ```
/// use rowkey::plan::layout_sample_split_points;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Event {
///     #[sep]
///     host: String,
///     ts: u64,
/// }
///
/// let sample: Vec<Vec<u8>> = (0..100u64)
///     .map(|ts| Event { host: format!("h{}", ts % 10), ts }.to_row_key().map(|k| k.to_vec()))
///     .collect::<Result<_, _>>()?;
/// let points = layout_sample_split_points(Event::LAYOUT, &sample, 5)?;
/// assert_eq!(points.len(), 4);
/// assert!(points[0].starts_with(b"h2"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn layout_sample_split_points(
    layout: &Layout,
    keys: impl IntoIterator<Item = impl AsRef<[u8]>>,
    regions: usize,
) -> Result<Vec<Vec<u8>>, PlanError> {
    if layout.salt.is_some() {
        return salted_sample_split_points(layout, keys, regions);
    }
    if regions == 0 {
        return Err(PlanError::TooFewRegions { regions, min: 1 });
    }
    check_limit(regions)?;
    Ok(split_points_from_sample(keys, regions))
}

/// Region planning for a key type, from its layout: implemented for every [`RowKey`] (bring it
/// into scope with `use rowkey::plan::SplitPoints`). Planning is an operation on a key type,
/// not part of what a key is, so it lives here rather than on [`RowKey`].
///
/// ```
/// use rowkey::plan::SplitPoints;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct OrderBySeller {
///     #[salt(buckets = 16)]
///     seller_id: u64,
///     #[sep]
///     order_no: String,
/// }
///
/// // one region per salt bucket: split at buckets 1..=15
/// let splits = OrderBySeller::split_points(16)?;
/// assert_eq!(splits.len(), 15);
/// assert_eq!(splits[0], [1]);
/// # Ok::<(), rowkey::plan::PlanError>(())
/// ```
pub trait SplitPoints: RowKey {
    /// Region split points derived from the layout: salt bucket boundaries, or even splits of
    /// the hash-prefix space. See [`layout_split_points`].
    ///
    /// # Errors
    ///
    /// [`PlanError`]: a layout the split points cannot be derived from without a sample
    /// ([`PlanError::NeedsSample`]), or a region count out of range.
    fn split_points(regions: usize) -> Result<Vec<Vec<u8>>, PlanError> {
        layout_split_points(Self::LAYOUT, regions)
    }

    /// Region split points from a sample of real keys of this type: for a salted layout every
    /// bucket boundary is kept and each bucket is split at the quantiles of its own sample keys;
    /// otherwise the quantiles of the whole sample. Use it where
    /// [`split_points`](Self::split_points) returns [`PlanError::NeedsSample`]. See
    /// [`layout_sample_split_points`].
    ///
    /// # Errors
    ///
    /// [`PlanError`]: an empty sample, or a region count out of range.
    fn split_points_from_sample(
        keys: impl IntoIterator<Item = impl AsRef<[u8]>>,
        regions: usize,
    ) -> Result<Vec<Vec<u8>>, PlanError> {
        layout_sample_split_points(Self::LAYOUT, keys, regions)
    }
}

impl<T: RowKey> SplitPoints for T {}
