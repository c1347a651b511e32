//! The `.npy` header: the magic bytes, the version, and the Python dict that names the dtype,
//! the order and the shape, padded so that the data are aligned.

pub const MAGIC: &[u8; 6] = b"\x93NUMPY";
/// numpy pads the header so that the data are aligned to this many bytes.
pub(super) const ALIGN: usize = 64;

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
