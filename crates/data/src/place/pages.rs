//! The common case of a Parquet column chunk read page by page straight into the design (issue
//! 32): a chunk of plain-encoded doubles with no nulls, uncompressed or in Zstandard or Snappy.
//! The `parquet` crate's reader does the same work in more steps: it starts a fresh Zstandard
//! decoder for every page and streams it through a small buffer, then copies the values out of
//! the page, and the loader copies them again into the design. Here a thread keeps one
//! decompressor and one page buffer, and the values go from the page into the design with one
//! copy, the bits unchanged. Anything else in a chunk (a dictionary, another encoding or codec,
//! a null, a page that does not add up) returns `None`, and the crate's reader decodes the chunk.

use parquet::basic::Compression;
use polars_parquet_format::thrift::protocol::TCompactInputProtocol;
use polars_parquet_format::thrift::varint::VarIntReader;
use polars_parquet_format::{Encoding, PageHeader, PageType};

/// A thread's buffers: the chunk as stored, one page decompressed, and its decompressor.
#[derive(Default)]
pub(crate) struct Pages {
    chunk: Vec<u8>,
    page: Vec<u8>,
    zstd: Option<zstd::bulk::Decompressor<'static>>,
}

/// One column chunk: its bytes in the file, codec, and the definition level of a present value
/// (0 for a required column, 1 for an optional one).
#[derive(Clone, Debug)]
pub(crate) struct Chunk {
    pub(crate) start: u64,
    pub(crate) length: usize,
    pub(crate) codec: Compression,
    pub(crate) max_definition: i16,
}

impl Pages {
    /// Decode `chunk` of `rows` rows into `out`, read by `read(buffer, at)` (fills `buffer` from
    /// byte `at` of the file); `None`, with `out` written in part, when the chunk is not one this
    /// path decodes or does not add up to `rows` values.
    pub(crate) fn decode(
        &mut self,
        chunk: &Chunk,
        out: &mut [f64],
        read: impl FnOnce(&mut [u8], u64) -> std::io::Result<()>,
    ) -> Option<()> {
        let codec = match chunk.codec {
            Compression::UNCOMPRESSED => None,
            Compression::ZSTD(_) => Some(Codec::Zstd),
            Compression::SNAPPY => Some(Codec::Snappy),
            _ => return None,
        };
        if chunk.max_definition > 1 {
            return None;
        }
        let Pages {
            chunk: whole,
            page: buffer,
            zstd,
        } = self;
        grow(whole, chunk.length);
        read(&mut whole[..chunk.length], chunk.start).ok()?;
        let (mut rest, mut at) = (&whole[..chunk.length], 0);
        while at < out.len() {
            let header = page_header(&mut rest)?;
            let size = usize::try_from(header.compressed_page_size).ok()?;
            let body = rest.get(..size)?;
            rest = &rest[size..];
            let Some(page) = Page::of(&header, chunk.max_definition)? else {
                continue;
            };
            let target = out.get_mut(at..at + page.values)?;
            let stored = body.get(page.plain_levels..)?;
            let inflated = size_of_rest(&header, page.plain_levels)?;
            // A page of n doubles holds 8n bytes, its levels' length and the levels, at most
            // two bytes each (runs of one): a larger size (a damaged header) is not this path's,
            // nor an allocation to make.
            (inflated <= 10 * page.values + 4).then_some(())?;
            let bytes = match codec.filter(|_| page.compressed) {
                Some(codec) => inflate(codec, stored, (buffer, inflated), zstd)?,
                None => stored,
            };
            copy(target, values(bytes, page.coded_levels, page.values)?);
            at += page.values;
        }
        Some(())
    }
}

/// `stored`, compressed by `codec`, into `buffer`: its `size` bytes.
fn inflate<'b>(
    codec: Codec,
    stored: &[u8],
    (buffer, size): (&'b mut Vec<u8>, usize),
    zstd: &mut Option<zstd::bulk::Decompressor<'static>>,
) -> Option<&'b [u8]> {
    grow(buffer, size);
    let page = &mut buffer[..size];
    let written = match codec {
        Codec::Zstd => {
            let zstd = match zstd {
                Some(z) => z,
                None => zstd.insert(zstd::bulk::Decompressor::new().ok()?),
            };
            zstd.decompress_to_buffer(stored, page).ok()?
        }
        Codec::Snappy => snap::raw::Decoder::new().decompress(stored, page).ok()?,
    };
    (written == size).then_some(&buffer[..size])
}

/// The codecs decoded here (besides none).
#[derive(Clone, Copy)]
enum Codec {
    Zstd,
    Snappy,
}

/// What a data page holds, as far as this path reads it.
struct Page {
    /// Its values (rows: the column is not repeated).
    values: usize,
    /// Bytes of definition levels stored ahead of the compressed part (version 2 pages).
    plain_levels: usize,
    /// Whether the levels head the decompressed part, after their length (version 1 pages of
    /// an optional column).
    coded_levels: bool,
    /// Whether the values are compressed.
    compressed: bool,
}

impl Page {
    /// `Some(None)` for a page to skip (an index page), `None` for one this path does not read.
    fn of(header: &PageHeader, max_definition: i16) -> Option<Option<Page>> {
        let count = |n: i32| usize::try_from(n).ok();
        match header.type_ {
            PageType::INDEX_PAGE => Some(None),
            PageType::DATA_PAGE => {
                let h = header.data_page_header.as_ref()?;
                (h.encoding == Encoding::PLAIN).then_some(())?;
                Some(Some(Page {
                    values: count(h.num_values)?,
                    plain_levels: 0,
                    coded_levels: max_definition == 1,
                    compressed: true,
                }))
            }
            PageType::DATA_PAGE_V2 => {
                let h = header.data_page_header_v2.as_ref()?;
                (h.encoding == Encoding::PLAIN && h.num_nulls == 0).then_some(())?;
                let levels = count(h.definition_levels_byte_length)?
                    + count(h.repetition_levels_byte_length)?;
                Some(Some(Page {
                    values: count(h.num_values)?,
                    plain_levels: levels,
                    coded_levels: false,
                    compressed: h.is_compressed.unwrap_or(true),
                }))
            }
            _ => None,
        }
    }
}

/// The bytes a page's compressed part holds once decompressed.
fn size_of_rest(header: &PageHeader, plain_levels: usize) -> Option<usize> {
    usize::try_from(header.uncompressed_page_size)
        .ok()?
        .checked_sub(plain_levels)
}

/// The next page header of `rest`, which moves past it.
fn page_header(rest: &mut &[u8]) -> Option<PageHeader> {
    let limit = rest.len();
    let mut protocol = TCompactInputProtocol::new(rest, limit);
    PageHeader::read_from_in_protocol(&mut protocol).ok()
}

/// The values of a page's decompressed part: after its definition levels when `coded`, which
/// must say that all `n` are present (runs of the level 1, run-length encoded).
fn values(bytes: &[u8], coded: bool, n: usize) -> Option<&[u8]> {
    let bytes = if coded {
        let length = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
        let levels = bytes.get(4..4 + length)?;
        (all_present(levels)? == n).then_some(())?;
        &bytes[4 + length..]
    } else {
        bytes
    };
    (bytes.len() == n * 8).then_some(bytes)
}

/// How many values `levels` (a hybrid run-length / bit-packed stream of 1-bit levels) says are
/// present, when it is made of runs of present values only; `None` otherwise.
fn all_present(mut levels: &[u8]) -> Option<usize> {
    let mut present = 0usize;
    while !levels.is_empty() {
        let header: u64 = levels.read_varint().ok()?;
        // A bit-packed run (low bit set) is how a writer stores a mix of nulls and values.
        if header & 1 == 1 || *levels.first()? != 1 {
            return None;
        }
        levels = &levels[1..];
        present = present.checked_add(usize::try_from(header >> 1).ok()?)?;
    }
    Some(present)
}

/// Little-endian doubles into `out` (as many as `bytes` holds), bit for bit.
fn copy(out: &mut [f64], bytes: &[u8]) {
    for (o, b) in out.iter_mut().zip(bytes.chunks_exact(8)) {
        let mut le = [0; 8];
        le.copy_from_slice(b);
        *o = f64::from_le_bytes(le);
    }
}

/// `buffer` at least `n` bytes long, zeroed only where it grows.
fn grow(buffer: &mut Vec<u8>, n: usize) {
    if buffer.len() < n {
        buffer.resize(n, 0);
    }
}

#[cfg(all(test, unix))]
#[path = "pages_tests.rs"]
mod tests;
