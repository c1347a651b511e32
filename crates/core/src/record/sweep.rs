//! A sweep's record: the same experiment once per value of one key (`[sweep]`), each point a
//! whole run record (sweep.json and one run directory per value).

/// One value of the swept key and the run it gave.
#[derive(Debug, Clone)]
pub struct SweepPoint {
    pub value: f64,
    /// The value as its run directory `<key>=<label>` names it (distinct for every point).
    pub label: String,
    pub record: super::ExperimentRecord,
}

#[derive(Debug, Clone)]
pub struct SweepRecord {
    /// The experiment's name.
    pub name: String,
    /// The swept key, e.g. `prior.precision`.
    pub key: String,
    pub points: Vec<SweepPoint>,
}

/// What running an experiment gives: one run, or one per value of a sweep.
#[derive(Debug, Clone)]
pub enum Outcome {
    Single(Box<super::ExperimentRecord>),
    Sweep(SweepRecord),
}

impl Outcome {
    /// Every run record, in order.
    pub fn records(&self) -> Vec<&super::ExperimentRecord> {
        match self {
            Outcome::Single(r) => vec![r],
            Outcome::Sweep(s) => s.points.iter().map(|p| &p.record).collect(),
        }
    }
}
