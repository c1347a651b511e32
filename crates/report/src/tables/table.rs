//! The cells of a report table and how a cell is marked.

/// A table of text cells, some marked: the best value of a column, or a warning.
#[derive(Debug, Clone, Default)]
pub struct Table {
    pub headers: Vec<String>,
    /// Per column: right-aligned (numbers) or not.
    pub numeric: Vec<bool>,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub text: String,
    pub mark: Mark,
}

/// What a marked cell says: report.md makes best and warnings bold; report.html colours the
/// best value green, a tie with it pale green and a warning (k-hat above 0.7, chains not
/// mixed, a fit not converged, a worse verdict) red.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Plain,
    Best,
    /// Within noise of the best (the cell's text says `≈`).
    Tie,
    Warn,
}

impl Mark {
    pub fn best_if(yes: bool) -> Mark {
        if yes {
            Mark::Best
        } else {
            Mark::Plain
        }
    }

    pub fn warn_if(yes: bool) -> Mark {
        if yes {
            Mark::Warn
        } else {
            Mark::Plain
        }
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Self {
        Cell {
            text,
            mark: Mark::Plain,
        }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Self {
        Cell::from(text.to_string())
    }
}

pub fn num(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.4}"),
        Some(v) => v.to_string(),
        None => "–".into(),
    }
}
