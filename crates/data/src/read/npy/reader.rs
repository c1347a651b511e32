//! Reading a `.npy` file into a matrix or a vector, checking on the way that the file holds
//! exactly what its header promises.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use faer::Mat;

use super::header::{parse_header, Dtype, Header, MAGIC};
use bayeslab_core::error::{Error, Result};

/// Bytes read per block when transposing a C-order file into a column-major matrix: small
/// enough that the block stays in cache while each of its columns is copied out.
const BLOCK_BYTES: usize = 256 << 10;

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
    #[cfg(unix)]
    if !h.fortran_order && d > 0 {
        return rows_in_parallel(path, &h, n, d);
    }
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
    // A block at a time, decoded while it is in cache: no second copy of the file in memory.
    let mut values = Vec::with_capacity(h.len());
    let mut block = vec![0u8; BLOCK_BYTES.min(8 * h.len())];
    while values.len() < h.len() {
        let bytes = &mut block[..BLOCK_BYTES.min(8 * (h.len() - values.len()))];
        reader.read_exact(bytes).map_err(|e| bad(path, e))?;
        values.extend(bytes.chunks_exact(8).map(|b| value(h.dtype, b)));
    }
    Ok(values)
}

/// The file positioned at its first value. Reads are whole blocks, so no buffering is needed.
fn open_data(path: &Path, h: &Header) -> Result<File> {
    let mut file = File::open(path).map_err(|e| bad(path, e))?;
    file.seek(SeekFrom::Start(h.data_offset as u64))
        .map_err(|e| bad(path, e))?;
    Ok(file)
}

/// A C-order (row-major) file into a column-major matrix, blocks of rows read and transposed on
/// every thread at once (each block read at its own offset): the values of [`read_matrix`]'s
/// sequential read, whatever the threads. The matrix is not zeroed first: every element is
/// written once, through raw pointers, before the matrix is handed out. Its memory is asked
/// for in 2 MiB pages ([`bayeslab_core::numeric::linalg::huge_pages`]): with 4 KiB pages, their first-
/// touch faults were most of the read (issue 32: 0.26 s -> 0.10 s for 400 MB, either shape).
#[cfg(unix)]
fn rows_in_parallel(path: &Path, h: &Header, n: usize, d: usize) -> Result<Mat<f64>> {
    use rayon::prelude::*;
    use std::os::unix::fs::FileExt;

    let file = File::open(path).map_err(|e| bad(path, e))?;
    let block = (BLOCK_BYTES / (8 * d)).max(1);
    let mut x = Mat::<f64>::with_capacity(n, d);
    bayeslab_core::numeric::linalg::huge_pages(&mut x, d);
    // SAFETY: f64 has no invalid values and no drop; the blocks below write every (i, j) with
    // i < n and j < d exactly once before the matrix is read, and an error drops it unread.
    unsafe { x.set_dims(n, d) };
    let out = bayeslab_core::numeric::linalg::SharedColumns::of(&mut x, d);
    (0..n.div_ceil(block)).into_par_iter().try_for_each_init(
        Vec::new,
        |bytes: &mut Vec<u8>, b| {
            let (start, rows) = (b * block, block.min(n - b * block));
            bytes.resize(8 * d * rows, 0);
            let offset = (h.data_offset + 8 * d * start) as u64;
            file.read_exact_at(bytes, offset)
                .map_err(|e| bad(path, e))?;
            for j in 0..d {
                // SAFETY: column j's rows start..start + rows, inside the matrix, written by
                // this block alone.
                let col = unsafe { out.column(j).add(start) };
                for (i, v) in bytes.chunks_exact(8 * d).enumerate() {
                    let b = &v[8 * j..8 * j + 8];
                    // SAFETY: i < rows, so the element is inside column j's rows above.
                    unsafe { col.add(i).write(value(h.dtype, b)) };
                }
            }
            Ok::<(), Error>(())
        },
    )?;
    Ok(x)
}
