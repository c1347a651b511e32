//! The page-level path against the values written: files from polars (version 1 pages, an
//! optional column) and from the `parquet` crate's own writer (version 2 pages, many per chunk,
//! required and optional columns), each codec; and the chunks it must hand back to the crate.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use super::*;
use parquet::basic::Encoding as Coding;
use parquet::data_type::DoubleType;
use parquet::file::metadata::ParquetMetaDataReader;
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use polars::prelude::*;

/// Values with NaN, infinities, signed zeros and subnormals: every bit pattern must survive.
fn values(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| match i % 101 {
            3 => f64::NAN,
            4 => f64::NEG_INFINITY,
            5 => -0.0,
            6 => f64::MIN_POSITIVE / 8.0,
            _ => (i as f64 * 0.37).sin() * 1e3,
        })
        .collect()
}

/// Chunk `column` of row group `group` of `path`, as the loader describes it.
fn chunk(path: &Path, group: usize, column: usize) -> (Chunk, usize) {
    let metadata = ParquetMetaDataReader::new()
        .parse_and_finish(&File::open(path).unwrap())
        .unwrap();
    let meta = metadata.row_group(group).column(column);
    let (start, length) = meta.byte_range();
    let schema = metadata.file_metadata().schema_descr();
    let chunk = Chunk {
        start,
        length: length as usize,
        codec: meta.compression(),
        max_definition: schema.column(column).max_def_level(),
    };
    (chunk, metadata.row_group(group).num_rows() as usize)
}

/// The page-level path's reading of a chunk: its values, or `None` where it hands back.
fn read(path: &Path, group: usize, column: usize) -> Option<Vec<f64>> {
    let (chunk, rows) = chunk(path, group, column);
    let file = File::open(path).unwrap();
    let mut out = vec![0.0; rows];
    Pages::default().decode(&chunk, &mut out, |buffer, at| {
        std::os::unix::fs::FileExt::read_exact_at(&file, buffer, at)
    })?;
    Some(out)
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// A file of two columns of doubles, `x` required and `y` optional (no nulls), written by the
/// `parquet` crate in pages of at most `page` bytes with `properties` otherwise.
fn write_crate(
    path: &Path,
    n: usize,
    properties: parquet::file::properties::WriterPropertiesBuilder,
) {
    let schema = parse_message_type("message m { required double x; optional double y; }").unwrap();
    let properties = properties
        .set_dictionary_enabled(false)
        .set_data_page_size_limit(2000)
        .set_write_batch_size(100)
        .build();
    let file = File::create(path).unwrap();
    let mut writer =
        SerializedFileWriter::new(file, Arc::new(schema), Arc::new(properties)).unwrap();
    let v = values(n);
    for half in v.chunks(n.div_ceil(2)) {
        let mut group = writer.next_row_group().unwrap();
        for levels in [None, Some(vec![1i16; half.len()])] {
            let mut column = group.next_column().unwrap().unwrap();
            let typed = column.typed::<DoubleType>();
            typed.write_batch(half, levels.as_deref(), None).unwrap();
            column.close().unwrap();
        }
        group.close().unwrap();
    }
    writer.close().unwrap();
}

#[test]
fn pages_of_either_version_in_every_codec_decode_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let codecs = [
        parquet::basic::Compression::UNCOMPRESSED,
        parquet::basic::Compression::SNAPPY,
        parquet::basic::Compression::ZSTD(Default::default()),
    ];
    let n = 3001;
    let want = values(n);
    for (case, codec) in codecs.into_iter().enumerate() {
        for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
            let path = dir.path().join(format!("c{case}-{version:?}.parquet"));
            let builder = WriterProperties::builder()
                .set_compression(codec)
                .set_writer_version(version);
            write_crate(&path, n, builder);
            for column in [0, 1] {
                let got = [read(&path, 0, column), read(&path, 1, column)];
                let got: Vec<f64> = got
                    .into_iter()
                    .flat_map(|g| g.expect("read here"))
                    .collect();
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "codec {case}, {version:?}, column {column}"
                );
            }
        }
    }
}

#[test]
fn a_polars_file_without_nulls_is_read_here_and_one_with_nulls_is_handed_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.parquet");
    let n = 5000;
    let b = values(n);
    let a: Vec<Option<f64>> = (0..n).map(|i| (i % 7 != 3).then_some(i as f64)).collect();
    let mut df = df!("a" => a, "b" => b.clone()).unwrap();
    for codec in [ParquetCompression::Zstd(None), ParquetCompression::Snappy] {
        ParquetWriter::new(File::create(&path).unwrap())
            .with_compression(codec)
            .finish(&mut df)
            .unwrap();
        assert_eq!(read(&path, 0, 0), None, "a null in every seventh row");
        assert_eq!(read(&path, 0, 1).map(|v| bits(&v)), Some(bits(&b)));
    }
}

#[test]
fn dictionaries_other_encodings_and_codecs_are_handed_back() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "dictionary",
            WriterProperties::builder().set_dictionary_enabled(true),
        ),
        (
            "byte stream split",
            WriterProperties::builder().set_encoding(Coding::BYTE_STREAM_SPLIT),
        ),
        (
            "lz4 raw",
            WriterProperties::builder().set_compression(parquet::basic::Compression::LZ4_RAW),
        ),
    ];
    for (name, builder) in cases {
        let path = dir.path().join(format!("{name}.parquet"));
        let schema = parse_message_type("message m { required double x; }").unwrap();
        let properties = Arc::new(builder.build());
        let file = File::create(&path).unwrap();
        let mut writer = SerializedFileWriter::new(file, Arc::new(schema), properties).unwrap();
        let mut group = writer.next_row_group().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        // Few distinct values, so that a dictionary is kept.
        let v: Vec<f64> = (0..1000).map(|i| f64::from(i % 5)).collect();
        column
            .typed::<DoubleType>()
            .write_batch(&v, None, None)
            .unwrap();
        column.close().unwrap();
        group.close().unwrap();
        writer.close().unwrap();
        assert_eq!(read(&path, 0, 0), None, "{name}");
        // The loader reads it all the same, by the crate's reader.
        let placeable = crate::place::columns::Placeable::of(&path, &["x".to_string()])
            .expect("a column of doubles in a codec the crate decodes");
        let mut x = faer::Mat::<f64>::with_capacity(1000, 1);
        let out = bayeslab_core::numeric::linalg::SharedColumns::of(&mut x, 1);
        // SAFETY: room for one column of 1000 rows, written here alone.
        unsafe { placeable.decode(&path, out, (0, 0), &mut |_| {}) }.unwrap();
        // SAFETY: the decode above wrote every one of those 1000 rows.
        unsafe { x.set_dims(1000, 1) };
        assert_eq!(x.col_as_slice(0), &v[..], "{name}");
    }
}

#[test]
fn definition_levels_count_only_runs_of_present_values() {
    // One run of 300 present values: header 300 << 1 as a varint, then the level 1.
    assert_eq!(all_present(&[0xd8, 0x04, 1]), Some(300));
    // Two runs add up.
    assert_eq!(all_present(&[0x08, 1, 0x06, 1]), Some(7));
    // A run of nulls, or a bit-packed run (a mix), is not this path's.
    assert_eq!(all_present(&[0x08, 0]), None);
    assert_eq!(all_present(&[0x03, 0xff]), None);
    // A varint that never ends.
    assert_eq!(all_present(&[0x80, 0x80]), None);
    assert_eq!(all_present(&[]), Some(0));
}

#[test]
fn a_damaged_chunk_is_handed_back_or_read_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (case, codec) in [
        parquet::basic::Compression::UNCOMPRESSED,
        parquet::basic::Compression::SNAPPY,
        parquet::basic::Compression::ZSTD(Default::default()),
    ]
    .into_iter()
    .enumerate()
    {
        let path = dir.path().join(format!("d{case}.parquet"));
        let builder = WriterProperties::builder()
            .set_compression(codec)
            .set_writer_version(WriterVersion::PARQUET_2_0);
        write_crate(&path, 600, builder);
        let (chunk, rows) = chunk(&path, 0, 1);
        let file = std::fs::read(&path).unwrap();
        let start = chunk.start as usize;
        let stored = &file[start..start + chunk.length];
        // Every byte of the chunk flipped in turn, and the chunk cut short at every length.
        let flipped = (0..stored.len()).map(|i| {
            let mut bytes = stored.to_vec();
            bytes[i] ^= 0xa5;
            bytes
        });
        let cut = (0..stored.len()).map(|n| stored[..n].to_vec());
        let mut read = 0;
        for bytes in std::iter::once(stored.to_vec()).chain(flipped).chain(cut) {
            let mut out = vec![0.0; rows];
            let damaged = Chunk {
                length: bytes.len(),
                ..chunk.clone()
            };
            let decoded = Pages::default().decode(&damaged, &mut out, |buffer, _| {
                buffer.copy_from_slice(&bytes);
                Ok(())
            });
            read += usize::from(decoded.is_some());
        }
        // The intact chunk is read, and so is one with a flipped byte among stored values.
        assert!(read > 1, "codec {case}: {read} of the chunks read");
    }
}
