//! NumPy's `.npy` format, so that numpy and bayeslab read exactly the same numbers.
//!
//! Layout (numpy.lib.format, version 1.0): the magic bytes `\x93NUMPY`, the version bytes
//! `1 0`, the header length as a little-endian u16, then an ASCII Python dict such as
//! `{'descr': '<f8', 'fortran_order': False, 'shape': (1000, 50), }` padded with spaces and
//! ended by `\n` so that the data start at a multiple of 64 bytes, then the values in C
//! (row-major) order, or column-major when `fortran_order` is True. Versions 2.0 and 3.0 only
//! widen the header length to a u32 (3.0 also allows UTF-8 in the dict); all three are read.
//! Little-endian float64 (`<f8`) and int64 (`<i8`) arrays are read; float64 is written.

mod header;
#[allow(unsafe_code)]
mod reader;
#[cfg(test)]
mod tests;
mod writer;

pub use header::{header, parse_header, Dtype, Header, MAGIC};
pub use reader::{read_header, read_matrix, read_vector};
pub use writer::Writer;
