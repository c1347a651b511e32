//! A streamed run as the workbench follows it: the pass reading the file now (its purpose,
//! run and rows, updated after every chunk) and every pass that has finished, in order.

use bayeslab_core::catalog::thousands;
use bayeslab_core::record::PassRecord;
use bayeslab_engine::run::PassProgress;

#[derive(Debug, Clone, Default)]
pub struct Passes {
    /// The pass reading now; `None` between passes and after the last.
    pub current: Option<PassProgress>,
    /// Its number among the passes with its purpose and run, from 1.
    pub number: usize,
    pub done: Vec<PassRecord>,
}

impl Passes {
    pub fn is_empty(&self) -> bool {
        self.current.is_none() && self.done.is_empty()
    }

    /// A fit reports its passes only when it ends (a Newton fit reads the file once per
    /// iteration), so a new pass of the same purpose and run shows as its rows starting over.
    pub fn progress(&mut self, pass: PassProgress) {
        let same = |c: &PassProgress| c.purpose == pass.purpose && c.run == pass.run;
        self.number = match &self.current {
            Some(c) if same(c) && pass.rows_read < c.rows_read => self.number + 1,
            Some(c) if same(c) => self.number,
            _ => {
                let done = |d: &&PassRecord| d.purpose == pass.purpose && d.run == pass.run;
                self.done.iter().filter(done).count() + 1
            }
        };
        self.current = Some(pass);
    }

    /// A finished pass ends the current one when it is the same (purpose and run).
    pub fn finish(&mut self, pass: PassRecord) {
        if self
            .current
            .as_ref()
            .is_some_and(|c| c.purpose == pass.purpose && c.run == pass.run)
        {
            self.current = None;
        }
        self.done.push(pass);
    }

    /// E.g. `fit logistic-map: pass 3, 120,000 / 400,000 rows`.
    pub fn label(&self, pass: &PassProgress) -> String {
        format!(
            "{} {}: pass {}, {} / {} rows",
            pass.purpose,
            pass.run.as_deref().unwrap_or("(every run)"),
            self.number,
            thousands(pass.rows_read),
            thousands(pass.rows_total)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bayeslab_core::record::PassPurpose;

    fn progress(read: usize) -> PassProgress {
        PassProgress {
            purpose: bayeslab_core::record::PassPurpose::Fit,
            run: Some("logistic-map".into()),
            rows_read: read,
            rows_total: 400_000,
        }
    }

    fn record(purpose: PassPurpose, run: Option<&str>) -> PassRecord {
        PassRecord {
            purpose,
            run: run.map(String::from),
            chunks: 1,
            rows: 400_000,
            seconds: 0.5,
            read_seconds: 0.25,
            read_from: bayeslab_core::record::ReadFrom::File,
            reader_cpu_seconds: None,
        }
    }

    #[test]
    fn passes_are_numbered_per_purpose_and_run() {
        let mut p = Passes::default();
        p.finish(record(bayeslab_core::record::PassPurpose::Statistics, None));
        p.finish(record(
            bayeslab_core::record::PassPurpose::Fit,
            Some("probit-map"),
        ));
        // A fit's passes are reported when it ends: until then a new pass shows as its rows
        // starting over.
        for rows in [64, 400_000, 64, 400_000, 120_000] {
            p.progress(progress(rows));
        }
        assert_eq!(
            p.label(p.current.as_ref().unwrap()),
            "fit logistic-map: pass 3, 120,000 / 400,000 rows"
        );
        p.finish(record(
            bayeslab_core::record::PassPurpose::Fit,
            Some("logistic-map"),
        ));
        assert!(p.current.is_none());
        assert_eq!(p.done.len(), 3);
        // A later pass of the same purpose and run counts those reported.
        p.progress(progress(64));
        assert_eq!(p.number, 2);
    }
}
