//! Which columns of a Parquet file to read. bayeslab's polars build turns numbers, booleans,
//! strings and lists of them into columns; an 8- or 16-bit integer (those types are not built
//! in), a decimal, date, time, timestamp, duration, float16, dictionary or struct column would
//! fail the whole read (or panic, for decimals). So the schema is read first and only the
//! selected columns are read: an unreadable column that is not selected does not matter (left
//! out with a note when the features are defaulted), and a selected one is an error naming it,
//! its type and the conversion that makes it readable.

use std::path::Path;

use polars::prelude::{ArrowDataType, ArrowSchema};

use bayeslab_core::error::{Error, Result};

/// Columns left out because their type cannot be read: (name, type).
pub(crate) type Unread = Vec<(String, String)>;

/// Whether polars can read a column of this Arrow type here.
fn readable(dtype: &ArrowDataType) -> bool {
    use ArrowDataType as A;
    match dtype {
        A::Null
        | A::Boolean
        | A::Int32
        | A::Int64
        | A::UInt32
        | A::UInt64
        | A::Float32
        | A::Float64
        | A::Utf8
        | A::LargeUtf8
        | A::Utf8View
        | A::Binary
        | A::LargeBinary
        | A::BinaryView
        | A::FixedSizeBinary(_) => true,
        A::List(f) | A::LargeList(f) => readable(&f.dtype),
        _ => false,
    }
}

/// The type as a user would recognise it from pyarrow or the Parquet tools.
fn type_name(dtype: &ArrowDataType) -> String {
    use ArrowDataType as A;
    match dtype {
        A::Decimal(p, s) => format!("decimal128({p}, {s})"),
        A::Decimal256(p, s) => format!("decimal256({p}, {s})"),
        A::Date32 | A::Date64 => "date".into(),
        A::Time32(_) | A::Time64(_) => "time".into(),
        A::Timestamp(..) => "timestamp".into(),
        A::Duration(_) => "duration".into(),
        A::Interval(_) => "interval".into(),
        A::Float16 => "float16".into(),
        A::Struct(_) => "struct".into(),
        A::Dictionary(..) => "dictionary (categorical)".into(),
        A::List(f) | A::LargeList(f) | A::FixedSizeList(f, _) => {
            format!("list of {}", type_name(&f.dtype))
        }
        other => format!("{other:?}").to_lowercase(),
    }
}

/// The error for a selected column whose type cannot be read, with the conversion that makes
/// it readable: a category (dictionary) column to strings, which a listed feature reads as
/// levels; any other to 64-bit numbers.
fn unreadable(path: &Path, role: &str, name: &str, dtype: &ArrowDataType) -> Error {
    let fix = match (role == "the target", dtype) {
        (_, ArrowDataType::Dictionary(..)) => format!(
            "convert it to strings (pandas: df[\"{name}\"] = df[\"{name}\"].astype(str); pyarrow: \
             pyarrow.compute.cast(column, pyarrow.string())) and write the file again: listed in [data] features, a text \
             column is read as categorical"
        ),
        (true, _) => "convert it to int64, booleans or strings (pandas: astype(\"int64\"); pyarrow: Table.cast) or \
                      choose another [data] target"
            .to_string(),
        (false, _) => format!(
            "convert it to int64 or float64 (pandas: df[\"{name}\"] = df[\"{name}\"].astype(\"float64\"); pyarrow: \
             Table.cast) and write the file again, or leave it out of [data] features"
        ),
    };
    Error::data(
        path,
        format!(
            "{role} column \"{name}\" has the Parquet type {}, which bayeslab cannot read; {fix}",
            type_name(dtype)
        ),
    )
}

/// The columns to read: `target` and `features` when features are listed (a name the file
/// lacks or an unreadable type is an error), else `target` (when given) and every readable
/// column, with the unreadable ones left out as (name, type).
pub(crate) fn select(
    path: &Path,
    schema: &ArrowSchema,
    target: Option<&str>,
    features: Option<&[String]>,
) -> Result<(Vec<String>, Unread)> {
    let wanted: Vec<(&str, &str)> = target
        .map(|t| (t, "the target"))
        .into_iter()
        .chain(
            features
                .into_iter()
                .flatten()
                .map(|f| (f.as_str(), "feature")),
        )
        .collect();
    for &(name, role) in &wanted {
        let Some(field) = schema.get(name) else {
            let names: Vec<String> = schema.iter().map(|(n, _)| n.to_string()).collect();
            return Err(crate::read::files::no_column(path, role, name, &names));
        };
        if !readable(&field.dtype) {
            return Err(unreadable(path, role, name, &field.dtype));
        }
    }
    if features.is_some() {
        return Ok((
            wanted.iter().map(|(n, _)| n.to_string()).collect(),
            Vec::new(),
        ));
    }
    let (read, unread): (Vec<_>, Vec<_>) = schema.iter().partition(|(_, f)| readable(&f.dtype));
    Ok((
        read.into_iter().map(|(n, _)| n.to_string()).collect(),
        unread
            .into_iter()
            .map(|(n, f)| (n.to_string(), type_name(&f.dtype)))
            .collect(),
    ))
}
