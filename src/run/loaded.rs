//! Data loaded and prepared once for any number of runs (a sweep's points share it): the rows
//! in memory or a streamed file after its statistics pass, and the SHA-256 of every file read,
//! taken when it was read, for each run's provenance.

use std::collections::BTreeMap;

use super::source::Source;
use crate::config::DataPlan;
use crate::data::{Dataset, StreamedData};
use crate::error::Result;

pub struct Loaded {
    rows: Rows,
    /// Data file path -> lowercase hex SHA-256.
    pub digests: BTreeMap<String, String>,
}

enum Rows {
    Memory(Box<Dataset>),
    Streamed(Box<StreamedData>),
}

impl Loaded {
    pub fn load(data: &DataPlan) -> Result<Loaded> {
        let rows = match data.streaming {
            Some(_) => Rows::Streamed(Box::new(StreamedData::open(data)?)),
            None => Rows::Memory(Box::new(crate::data::load(data)?)),
        };
        let mut loaded = Loaded {
            rows,
            digests: BTreeMap::new(),
        };
        let files = loaded.source().files().to_vec();
        for f in files {
            let digest = super::provenance::sha256_file(&f)?;
            loaded.digests.insert(f.display().to_string(), digest);
        }
        Ok(loaded)
    }

    pub fn source(&self) -> Source<'_> {
        match &self.rows {
            Rows::Memory(d) => Source::Memory(d),
            Rows::Streamed(d) => Source::Streamed(d),
        }
    }
}
