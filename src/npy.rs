//! NumPy's `.npy` format, so that numpy and bayeslab read exactly the same numbers.
//!
//! Layout (numpy.lib.format, version 1.0): the magic bytes `\x93NUMPY`, the version bytes
//! `1 0`, the header length as a little-endian u16, then an ASCII Python dict such as
//! `{'descr': '<f8', 'fortran_order': False, 'shape': (1000, 50), }` padded with spaces and
//! ended by `\n` so that the data start at a multiple of 64 bytes, then the values in C
//! (row-major) order, or column-major when `fortran_order` is True. Versions 2.0 and 3.0 only
//! widen the header length to a u32 (3.0 also allows UTF-8 in the dict); all three are read.
//! Little-endian float64 (`<f8`) and int64 (`<i8`) arrays are read; float64 is written.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use faer::Mat;

use crate::error::{Error, Result};

pub const MAGIC: &[u8; 6] = b"\x93NUMPY";
/// numpy pads the header so that the data are aligned to this many bytes.
const ALIGN: usize = 64;
/// Bytes read per block when transposing a C-order file into a column-major matrix: small
/// enough that the block stays in cache while each of its columns is copied out.
const BLOCK_BYTES: usize = 256 << 10;

/// The element type of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    /// `<f8`: little-endian IEEE float64.
    F8,
    /// `<i8`: little-endian int64 (read and converted to f64, e.g. a label vector).
    I8,
}

/// A parsed `.npy` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub dtype: Dtype,
    pub fortran_order: bool,
    pub shape: Vec<usize>,
    /// Byte offset of the first value.
    pub data_offset: usize,
}

impl Header {
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The version 1.0 header of a C-order float64 array of `shape`.
pub fn header(shape: &[usize]) -> Vec<u8> {
    let dims = match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut dict = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {dims}, }}");
    // magic (6) + version (2) + length (2) + dict + '\n' must be a multiple of ALIGN.
    let unpadded = MAGIC.len() + 4 + dict.len() + 1;
    dict.push_str(&" ".repeat((ALIGN - unpadded % ALIGN) % ALIGN));
    dict.push('\n');
    let mut out = Vec::with_capacity(10 + dict.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    let len = u16::try_from(dict.len()).expect("a 2-D shape's header is far below 64 KiB");
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

/// Parse the header at the start of `bytes` (at least the whole header). The error says what
/// is wrong; [`read_header`] adds the file name and the fix.
pub fn parse_header(bytes: &[u8]) -> std::result::Result<Header, String> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err("it does not start with the .npy magic bytes \\x93NUMPY".into());
    }
    let (len, start) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() < 12 => return Err("the header is cut short".into()),
        2 | 3 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(format!("unknown .npy format version {v}.{}", bytes[7])),
    };
    let dict = bytes
        .get(start..start + len)
        .ok_or("the header is cut short")?;
    let dict = std::str::from_utf8(dict).map_err(|_| "the header is not text")?;
    let descr = value_after(dict, "descr")?;
    let descr = descr
        .trim()
        .trim_matches(|c| c == '\'' || c == '"')
        .to_string();
    let dtype = match descr.as_str() {
        "<f8" => Dtype::F8,
        "<i8" => Dtype::I8,
        other => {
            return Err(format!(
                "the element type is '{other}', but only float64 ('<f8') and int64 ('<i8') are read"
            ))
        }
    };
    let fortran_order = match value_after(dict, "fortran_order")?.trim() {
        "True" => true,
        "False" => false,
        other => return Err(format!("fortran_order is '{other}', not True or False")),
    };
    let shape_text = value_after(dict, "shape")?;
    let inner = shape_text
        .trim()
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .ok_or_else(|| format!("the shape '{shape_text}' is not a tuple"))?;
    let shape = inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<usize>()
                .map_err(|_| format!("the shape '{shape_text}' holds '{s}', not a size"))
        })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(Header {
        dtype,
        fortran_order,
        shape,
        data_offset: start + len,
    })
}

/// The text of the value of `key` in a Python dict literal, up to the next top-level comma.
fn value_after<'a>(dict: &'a str, key: &str) -> std::result::Result<&'a str, String> {
    let at = ["'", "\""]
        .iter()
        .find_map(|q| dict.find(&format!("{q}{key}{q}")))
        .ok_or_else(|| format!("the header has no '{key}' entry"))?;
    let rest = &dict[at + key.len() + 2..];
    let rest = rest
        .trim_start()
        .strip_prefix(':')
        .ok_or_else(|| format!("the header's '{key}' has no value"))?;
    let mut depth = 0i32;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' | '}' if depth == 0 => return Ok(&rest[..i]),
            _ => {}
        }
    }
    Err(format!("the header's '{key}' value is not terminated"))
}

fn bad(path: &Path, what: impl std::fmt::Display) -> Error {
    Error::data(
        path,
        format!(
            "not a readable .npy array: {what}; write it with numpy.save(path, array.astype('<f8')) \
             or `bayeslab synth --npy`"
        ),
    )
}

/// Read and check the header of the file at `path`, including that the file holds exactly the
/// values the shape promises.
pub fn read_header(path: &Path) -> Result<Header> {
    let mut file = File::open(path).map_err(|e| {
        Error::data(
            path,
            format!("cannot open the .npy file: {e}; check the path (bayeslab synth --npy writes FILE.X.npy and FILE.y.npy)"),
        )
    })?;
    let mut head = vec![0u8; 12];
    let got = read_up_to(&mut file, &mut head).map_err(|e| bad(path, e))?;
    head.truncate(got);
    if head.len() >= 10 && head[..6] == MAGIC[..] {
        let (len, start) = if head[6] == 1 {
            (usize::from(u16::from_le_bytes([head[8], head[9]])), 10)
        } else if head.len() == 12 {
            (
                u32::from_le_bytes([head[8], head[9], head[10], head[11]]) as usize,
                12,
            )
        } else {
            (0, 10)
        };
        let mut rest = vec![0u8; (start + len).saturating_sub(head.len()).min(1 << 20)];
        let got = read_up_to(&mut file, &mut rest).map_err(|e| bad(path, e))?;
        head.extend_from_slice(&rest[..got]);
    }
    let h = parse_header(&head).map_err(|e| bad(path, e))?;
    let size = file.metadata().map_err(|e| bad(path, e))?.len() as usize;
    let expected = h.data_offset + 8 * h.len();
    if size != expected {
        return Err(bad(
            path,
            format!(
                "the shape {:?} needs {expected} bytes but the file has {size} (truncated or not float64)",
                h.shape
            ),
        ));
    }
    Ok(h)
}

fn read_up_to(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got)
}

/// Decode one little-endian 8-byte value.
fn value(dtype: Dtype, b: &[u8]) -> f64 {
    let b: [u8; 8] = b.try_into().expect("8-byte chunks");
    match dtype {
        Dtype::F8 => f64::from_le_bytes(b),
        Dtype::I8 => i64::from_le_bytes(b) as f64,
    }
}

/// Read a 2-D array into a column-major matrix, a block of rows at a time, so that the peak
/// memory is the matrix plus one block.
pub fn read_matrix(path: &Path) -> Result<Mat<f64>> {
    let h = read_header(path)?;
    let &[n, d] = h.shape.as_slice() else {
        return Err(bad(
            path,
            format!("the array has shape {:?}, but a design matrix needs two dimensions (rows, columns)", h.shape),
        ));
    };
    let mut reader = open_data(path, &h)?;
    let mut x = Mat::<f64>::zeros(n, d);
    if h.fortran_order {
        let mut buf = vec![0u8; 8 * n];
        for j in 0..d {
            reader.read_exact(&mut buf).map_err(|e| bad(path, e))?;
            for (v, b) in x.col_as_slice_mut(j).iter_mut().zip(buf.chunks_exact(8)) {
                *v = value(h.dtype, b);
            }
        }
    } else if d > 0 {
        let block = (BLOCK_BYTES / (8 * d)).max(1);
        let mut buf = vec![0u8; 8 * d * block.min(n)];
        let mut values = vec![0f64; d * block.min(n)];
        let mut start = 0;
        while start < n {
            let rows = block.min(n - start);
            let bytes = &mut buf[..8 * d * rows];
            reader.read_exact(bytes).map_err(|e| bad(path, e))?;
            // Decode the block in one pass, then copy each column out of it while it is in cache.
            for (v, b) in values.iter_mut().zip(bytes.chunks_exact(8)) {
                *v = value(h.dtype, b);
            }
            for j in 0..d {
                let col = &mut x.col_as_slice_mut(j)[start..start + rows];
                for (c, row) in col.iter_mut().zip(values.chunks_exact(d)) {
                    *c = row[j];
                }
            }
            start += rows;
        }
    }
    Ok(x)
}

/// Read a 1-D array (or an N x 1 column).
pub fn read_vector(path: &Path) -> Result<Vec<f64>> {
    let h = read_header(path)?;
    if !(h.shape.len() == 1 || (h.shape.len() == 2 && h.shape[1] == 1)) {
        return Err(bad(
            path,
            format!(
                "the array has shape {:?}, but a label vector needs shape (rows,)",
                h.shape
            ),
        ));
    }
    let mut reader = open_data(path, &h)?;
    let mut bytes = vec![0u8; 8 * h.len()];
    reader.read_exact(&mut bytes).map_err(|e| bad(path, e))?;
    Ok(bytes.chunks_exact(8).map(|b| value(h.dtype, b)).collect())
}

/// The file positioned at its first value. Reads are whole blocks, so no buffering is needed.
fn open_data(path: &Path, h: &Header) -> Result<File> {
    let mut file = File::open(path).map_err(|e| bad(path, e))?;
    file.seek(SeekFrom::Start(h.data_offset as u64))
        .map_err(|e| bad(path, e))?;
    Ok(file)
}

/// Streams a C-order float64 array of a known shape to a file: the header first, then the
/// values in order; [`Writer::finish`] checks that exactly the promised number arrived.
pub struct Writer {
    path: PathBuf,
    out: BufWriter<File>,
    expected: usize,
    written: usize,
}

impl Writer {
    pub fn create(path: &Path, shape: &[usize]) -> Result<Self> {
        let file = File::create(path).map_err(|e| output(path, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.write_all(&header(shape)).map_err(|e| output(path, e))?;
        Ok(Writer {
            path: path.to_path_buf(),
            out,
            expected: shape.iter().product(),
            written: 0,
        })
    }

    pub fn write(&mut self, values: &[f64]) -> Result<()> {
        let mut bytes = Vec::with_capacity(8 * values.len());
        for v in values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        self.out
            .write_all(&bytes)
            .map_err(|e| output(&self.path, e))?;
        self.written += values.len();
        Ok(())
    }

    /// Flush and sync to disk.
    pub fn finish(self) -> Result<()> {
        assert_eq!(
            self.written,
            self.expected,
            "{}: wrote a different number of values than the header's shape",
            self.path.display()
        );
        let file = self
            .out
            .into_inner()
            .map_err(|e| output(&self.path, e.into_error()))?;
        file.sync_all().map_err(|e| output(&self.path, e))
    }
}

fn output(path: &Path, source: std::io::Error) -> Error {
    Error::Output {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_aligned_and_parses_back() {
        for shape in [vec![3, 2], vec![10_000_000, 50], vec![7]] {
            let h = header(&shape);
            assert_eq!(h.len() % ALIGN, 0, "{shape:?}");
            assert_eq!(*h.last().unwrap(), b'\n');
            let p = parse_header(&h).unwrap();
            assert_eq!(p.shape, shape);
            assert_eq!(p.dtype, Dtype::F8);
            assert!(!p.fortran_order);
            assert_eq!(p.data_offset, h.len());
        }
        let h = header(&[3, 2]);
        let dict = std::str::from_utf8(&h[10..]).unwrap();
        let fixed = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }";
        assert_eq!(h.len(), 128);
        assert!(dict.starts_with(fixed));
        assert!(dict[fixed.len()..dict.len() - 1].bytes().all(|b| b == b' '));
        assert!(String::from_utf8_lossy(&header(&[7])).contains("'shape': (7,), }"));
    }

    fn raw(descr: &str, fortran: bool, shape: &str, values: &[u8]) -> Vec<u8> {
        let mut h = MAGIC.to_vec();
        h.extend_from_slice(&[1, 0]);
        let dict = format!(
            "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}\n",
            if fortran { "True" } else { "False" }
        );
        h.extend_from_slice(&(dict.len() as u16).to_le_bytes());
        h.extend_from_slice(dict.as_bytes());
        h.extend_from_slice(values);
        h
    }

    #[test]
    fn what_the_writer_writes_the_reader_reads_in_every_block_layout() {
        let dir = tempfile::tempdir().unwrap();
        let (n, d) = (10_000, 7); // three 256 KiB blocks, the last one partial
        let values: Vec<f64> = (0..n * d)
            .map(|k| (k as f64 * 0.37).sin() * 1e3 + 1e-300 * k as f64)
            .collect();
        let path = dir.path().join("x.npy");
        let mut w = Writer::create(&path, &[n, d]).unwrap();
        // Uneven pieces, as the generator's chunks can be.
        for piece in values.chunks(333) {
            w.write(piece).unwrap();
        }
        w.finish().unwrap();
        let x = read_matrix(&path).unwrap();
        assert_eq!((x.nrows(), x.ncols()), (n, d));
        for i in 0..n {
            for j in 0..d {
                assert_eq!(x[(i, j)].to_bits(), values[i * d + j].to_bits());
            }
        }
        let h = read_header(&path).unwrap();
        assert_eq!(h.data_offset % ALIGN, 0);
        assert_eq!(
            std::fs::metadata(&path).unwrap().len() as usize,
            h.data_offset + 8 * n * d
        );

        let vpath = dir.path().join("y.npy");
        let mut w = Writer::create(&vpath, &[5]).unwrap();
        w.write(&[0.0, 1.0, 1.0, 0.0, 1.0]).unwrap();
        w.finish().unwrap();
        assert_eq!(read_vector(&vpath).unwrap(), [0.0, 1.0, 1.0, 0.0, 1.0]);
    }

    #[test]
    fn reads_fortran_order_and_int64_as_numpy_writes_them() {
        let dir = tempfile::tempdir().unwrap();
        // [[1, 2, 3], [4, 5, 6]] stored column by column.
        let vals: Vec<u8> = [1i64, 4, 2, 5, 3, 6]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let path = dir.path().join("f.npy");
        std::fs::write(&path, raw("<i8", true, "(2, 3)", &vals)).unwrap();
        let x = read_matrix(&path).unwrap();
        assert_eq!(x[(0, 2)], 3.0);
        assert_eq!(x[(1, 0)], 4.0);
        assert_eq!(x[(1, 2)], 6.0);
    }

    #[test]
    fn bad_files_name_the_problem_and_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let check = |name: &str, bytes: Vec<u8>, wants: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let e = read_matrix(&path).unwrap_err();
            let text = e.to_string();
            assert_eq!(e.exit_code(), 2);
            assert!(text.contains(name) && text.contains(wants), "{text}");
            assert!(text.contains("numpy.save"), "{text}");
        };
        check("short.npy", raw("<f8", false, "(2, 3)", &[0; 40]), "needs");
        check("f4.npy", raw("<f4", false, "(2, 3)", &[0; 24]), "'<f4'");
        check(
            "cube.npy",
            raw("<f8", false, "(1, 1, 1)", &[0; 8]),
            "two dimensions",
        );
        check("text.npy", b"x1,x2\n1,2\n".to_vec(), "magic");
        check("empty.npy", Vec::new(), "magic");
        let missing = read_matrix(&dir.path().join("missing.npy")).unwrap_err();
        assert!(missing.to_string().contains("cannot open"), "{missing}");
    }

    #[test]
    fn parses_numpy_variants_and_rejects_the_rest() {
        // numpy writes this for np.save(f, np.arange(6, dtype=np.int64).reshape(2, 3), fortran order)
        let mut h = MAGIC.to_vec();
        h.extend_from_slice(&[1, 0]);
        let dict = b"{'descr': '<i8', 'fortran_order': True, 'shape': (2, 3), }\n";
        h.extend_from_slice(&(dict.len() as u16).to_le_bytes());
        h.extend_from_slice(dict);
        let p = parse_header(&h).unwrap();
        assert_eq!(
            (p.dtype, p.fortran_order, p.shape),
            (Dtype::I8, true, vec![2, 3])
        );

        let mut v2 = MAGIC.to_vec();
        v2.extend_from_slice(&[2, 0]);
        v2.extend_from_slice(&(dict.len() as u32).to_le_bytes());
        v2.extend_from_slice(dict);
        assert_eq!(parse_header(&v2).unwrap().data_offset, 12 + dict.len());

        let f4 = raw("<f4", false, "(2,)", &[]);
        assert!(parse_header(&f4).unwrap_err().contains("'<f4'"));
        assert!(parse_header(b"col1,col2\n1,2\n")
            .unwrap_err()
            .contains("magic"));
        let cut = &header(&[5, 5])[..30];
        assert!(parse_header(cut).unwrap_err().contains("cut short"));
    }
}
