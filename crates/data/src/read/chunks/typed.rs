//! The column types of a CSV's later chunks, fixed from its first chunk so that polars parses
//! them without inferring each chunk's types from every one of its cells (issue 32: inference
//! took about half of the in-memory read of a 1,000,000 × 50 file).
//!
//! A chunk parsed with these types must read what inference would have read, value for value;
//! when it might not, the chunk is parsed again with inference, so that its values and errors
//! are exactly those of a read without this. Types are fixed only when every feature column of
//! the first chunk is a number column that polars itself inferred as numbers (not text that
//! reads as numbers, nor levels): those are parsed as Float64, which equals an integer column
//! parsed whole and cast (both are correctly rounded), and a cell that is not a number fails
//! the parse and sends the chunk back to inference. The target keeps the first chunk's type;
//! a text target is kept only for a chunk holding a cell that inference could only read as text
//! (a word that is neither a number nor `true`/`false`), since a chunk of numeric labels would be
//! inferred as numbers and refused as a change of kind.

use std::io::Cursor;
use std::sync::Arc;

use polars::prelude::*;

use crate::read::table::number::{read_cell, TextCell};

/// The schema every later chunk is parsed with, and the target's name when it is text.
#[derive(Clone)]
pub(crate) struct Typed {
    schema: SchemaRef,
    text_target: Option<String>,
}

impl Typed {
    /// The types of `names` (every column of the file, in order) from the first chunk's frame
    /// `first`, when `features` are all read as numbers from columns polars inferred as
    /// numbers; `None` otherwise (every chunk then infers its own types).
    pub(crate) fn from_first(
        first: &DataFrame,
        names: &[String],
        target: &str,
        features: &[String],
    ) -> Option<Typed> {
        let numeric = |name: &str| {
            first
                .column(name)
                .is_ok_and(|c| c.dtype().is_primitive_numeric())
        };
        if !features.iter().all(|f| numeric(f)) {
            return None;
        }
        let target_type = first.column(target).ok()?.dtype().clone();
        Typed::with_target(target_type, names, target, features)
    }

    /// The types of `names` when the features are read as numbers and the target as
    /// `target_type`: what another file's first chunk fixed (a test file is parsed with the
    /// training file's types from its first chunk on). `None` for a target type that
    /// [`Typed::from_first`] would not fix.
    pub(crate) fn with_target(
        target_type: DataType,
        names: &[String],
        target: &str,
        features: &[String],
    ) -> Option<Typed> {
        let text_target = match target_type {
            DataType::String => Some(target.to_string()),
            DataType::Boolean | DataType::Int64 | DataType::Float64 => None,
            _ => return None,
        };
        let schema = names
            .iter()
            .map(|name| {
                let dtype = if name == target {
                    target_type.clone()
                } else if features.contains(name) {
                    DataType::Float64
                } else {
                    DataType::String
                };
                Field::new(name.as_str().into(), dtype)
            })
            .collect::<Schema>();
        Some(Typed {
            schema: Arc::new(schema),
            text_target,
        })
    }

    /// The target's type every chunk is parsed with.
    pub(crate) fn target_type(&self, target: &str) -> Option<DataType> {
        self.schema.get(target).cloned()
    }

    /// The chunk `bytes` parsed with these types by `options` (reading `columns` of fields
    /// separated by `separator`), or `None` when it failed or might differ from an inferring
    /// parse (then the caller infers). A chunk of plain numbers is read without polars' parser
    /// ([`super::numeric`]), to the same frame.
    pub(super) fn parse(
        &self,
        options: CsvReadOptions,
        columns: Option<&[String]>,
        separator: u8,
        bytes: &[u8],
    ) -> Option<DataFrame> {
        if self.text_target.is_none() {
            if let Some(df) = super::numeric::parse(&self.schema, columns, separator, bytes) {
                return Some(df);
            }
        }
        let df = options
            .with_schema(Some(self.schema.clone()))
            .into_reader_with_file_handle(Cursor::new(bytes))
            .finish()
            .ok()?;
        match &self.text_target {
            Some(target) => holds_a_word(df.column(target).ok()?).then_some(df),
            None => Some(df),
        }
    }
}

/// Whether a text column holds a cell that inference reads only as text: not missing, not a
/// number, not a boolean.
fn holds_a_word(column: &Column) -> bool {
    let Ok(cells) = column.str() else {
        return false;
    };
    cells.iter().flatten().any(|s| {
        let t = s.trim();
        matches!(read_cell(t), TextCell::Text)
            && !t.eq_ignore_ascii_case("true")
            && !t.eq_ignore_ascii_case("false")
    })
}
