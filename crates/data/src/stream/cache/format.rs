//! The bytes of a design cache file: a header naming what the rows were made from, one block
//! per chunk, and a footer with the counts, written last so that a file cut short anywhere has
//! no valid footer.
//!
//! ```text
//! header  magic "BLDCACHE" | version u64 | settings [32] | data file [32]
//! block   rows u64 | columns u64 | x column-major (rows x columns f64) | y (rows f64)
//!         | source rows (rows u64) | checksum u64 of the block's bytes before it
//! footer  magic "BLDCEND\0" | blocks u64 | rows u64 | chunks u64 | bytes before the footer u64
//!         | checksum u64 of the blocks' checksums
//! ```
//!
//! Every number is little-endian (`f64::to_le_bytes`), and every value sits at a multiple of 8
//! bytes from the file's start, so on a little-endian 64-bit target ([`NATIVE`]) a block's
//! bytes are its f64s and usizes: a pass reads them in place, the rows written, bit for bit.

use faer::MatRef;

use crate::stream::{DesignChunk, DesignRows};

pub(super) use super::checksum::{word, Checksum};

const MAGIC: &[u8; 8] = b"BLDCACHE";
const END: &[u8; 8] = b"BLDCEND\0";
/// Bumped whenever the layout changes: a file of another version is never read.
pub(super) const VERSION: u64 = 2;
pub(super) const HEADER_BYTES: u64 = 8 + 8 + 32 + 32;
pub(super) const FOOTER_BYTES: u64 = 8 + 5 * 8;
/// The two numbers before a block's values.
pub(super) const BLOCK_HEAD_BYTES: usize = 16;

/// What a cache was made from: SHA-256 of everything that shapes the design rows, and of the
/// data file's identity. Both must match for the file to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Key {
    pub(super) settings: [u8; 32],
    pub(super) data: [u8; 32],
}

pub(super) fn header(key: &Key) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES as usize);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&key.settings);
    out.extend_from_slice(&key.data);
    out
}

/// Whether `bytes` is the header of a cache of this version made with `key`.
pub(super) fn header_matches(bytes: &[u8], key: &Key) -> bool {
    bytes == header(key).as_slice()
}

/// The counts a complete cache ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Footer {
    pub(super) blocks: u64,
    pub(super) rows: u64,
    /// Chunks of the data file the first pass read (blocks count only those with rows).
    pub(super) chunks: u64,
    /// Bytes of the header and the blocks: the footer's offset.
    pub(super) bytes: u64,
    pub(super) checksum: u64,
}

impl Footer {
    pub(super) fn to_bytes(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FOOTER_BYTES as usize);
        out.extend_from_slice(END);
        for n in [
            self.blocks,
            self.rows,
            self.chunks,
            self.bytes,
            self.checksum,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out
    }

    pub(super) fn parse(bytes: &[u8]) -> Option<Footer> {
        let (magic, rest) = bytes.split_first_chunk::<8>()?;
        if magic != END || rest.len() != 40 {
            return None;
        }
        let n = |i: usize| word(&rest[8 * i..]);
        Some(Footer {
            blocks: n(0),
            rows: n(1),
            chunks: n(2),
            bytes: n(3),
            checksum: n(4),
        })
    }
}

/// A block's two leading numbers: rows and columns.
pub(super) fn block_head(bytes: &[u8]) -> (u64, u64) {
    (word(bytes), word(&bytes[8..]))
}

/// Bytes of a block's values and checksum after its head.
pub(super) fn block_body_bytes(rows: usize, columns: usize) -> usize {
    8 * (rows * (columns + 2) + 1)
}

/// One chunk as a block, written to `out` a column at a time through `column` (kept by the
/// caller from block to block, so that no pass allocates a buffer per chunk); returns the
/// block's checksum.
pub(super) fn write_block(
    chunk: &DesignChunk,
    column: &mut Vec<u8>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<u64> {
    let (rows, columns) = (chunk.x.nrows(), chunk.x.ncols());
    let mut sum = Checksum::new();
    column.clear();
    column.reserve(8 * rows.max(2));
    let mut put = |bytes: &[u8], out: &mut dyn std::io::Write| {
        sum.update(bytes);
        out.write_all(bytes)
    };
    column.extend_from_slice(&(rows as u64).to_le_bytes());
    column.extend_from_slice(&(columns as u64).to_le_bytes());
    put(column, out)?;
    for j in 0..columns {
        column.clear();
        column.extend(chunk.x.col_as_slice(j).iter().flat_map(|v| v.to_le_bytes()));
        put(column, out)?;
    }
    column.clear();
    column.extend(chunk.y.iter().flat_map(|v| v.to_le_bytes()));
    put(column, out)?;
    column.clear();
    column.extend(
        chunk
            .source_rows
            .iter()
            .flat_map(|&r| (r as u64).to_le_bytes()),
    );
    put(column, out)?;
    let checksum = sum.finish();
    out.write_all(&checksum.to_le_bytes())?;
    Ok(checksum)
}

/// Whether this target can lend a cache's values where they lie: a little-endian word is a
/// native f64 and a 64-bit usize only on a little-endian 64-bit target. Elsewhere the cache is
/// off (`[data] cache` is ignored and every pass reads the data file) rather than kept correct
/// by a copying path that nothing here would test.
pub(crate) const NATIVE: bool = cfg!(all(target_endian = "little", target_pointer_width = "64"));

/// The checksum of a whole block (head, values and the stored checksum that ends it), or why
/// not: a checksum that is not the one the block was written with.
pub(super) fn checked_block(block: &[u8]) -> Result<u64, String> {
    let (values, stored) = block.split_at(block.len() - 8);
    let mut sum = Checksum::new();
    sum.update(values);
    let checksum = sum.finish();
    if checksum != word(stored) {
        return Err("a block's checksum does not match its values".into());
    }
    Ok(checksum)
}

/// The rows of a checked block whose values start at `bytes` (x column-major, y, source rows),
/// borrowed where they lie: every value of a cache sits at a multiple of 8 bytes from its start,
/// and a mapping starts on a page, so the words are aligned.
pub(super) fn block_rows(
    bytes: &[u8],
    rows: usize,
    columns: usize,
) -> Result<DesignRows<'_>, String> {
    if !NATIVE {
        return Err("this target cannot read a design cache in place".into());
    }
    let values = &bytes[..8 * rows * (columns + 2)];
    // Misaligned bytes land in the prefix, refused below.
    let (before, words, _) = crate::unchecked::as_f64s(values);
    let (_, sources, _) = crate::unchecked::as_usizes(&values[8 * rows * (columns + 1)..]);
    if !before.is_empty() || sources.len() != rows {
        return Err("its values are not aligned in memory".into());
    }
    let (x, rest) = words.split_at(rows * columns);
    Ok(DesignRows {
        x: MatRef::from_column_major_slice(x, rows, columns),
        y: &rest[..rows],
        source_rows: sources,
    })
}
