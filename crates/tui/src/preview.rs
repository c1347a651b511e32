//! A selected experiment's dataset, shown on the Dataset screen before anything runs: the
//! describer thread loads the data exactly as a run would (the same loader, missing-value
//! handling and split, so the numbers are the record's) and sends the record's dataset
//! section back, or the loader's message naming the file and the fix. Only the latest
//! selection is loaded: requests queued behind it are skipped.

use std::path::PathBuf;
use std::sync::mpsc::{self, Sender};

use bayeslab_core::record::DatasetInfo;
use bayeslab_data::StreamedData;
use bayeslab_engine::config::DataPlan;
use bayeslab_engine::run::Source;

use super::event::Event;

#[derive(Debug, Clone)]
pub enum PreviewState {
    Loading,
    Ready(Box<DatasetInfo>),
    /// The file does not validate, or its data cannot be loaded: the message.
    Failed(String),
    /// The experiment has no `[data]` (an approximation-lab file).
    NoData,
}

/// The dataset of the experiment file at `path`.
#[derive(Debug, Clone)]
pub struct Preview {
    pub path: PathBuf,
    pub state: PreviewState,
}

/// Load `data` as a run does and return the record's dataset section.
pub fn describe(data: &DataPlan) -> Result<DatasetInfo, String> {
    let info = match data.streaming {
        Some(_) => StreamedData::open(data).map(|d| Source::Streamed(&d).info(Some(data))),
        None => bayeslab_data::load(data).map(|d| Source::Memory(&d).info(Some(data))),
    };
    info.map(|mut i| {
        i.standardized = data.standardize;
        i
    })
    .map_err(|e| e.to_string())
}

/// The background thread that loads selected experiments' datasets.
pub struct Describer {
    requests: Sender<(PathBuf, DataPlan)>,
}

impl Describer {
    pub fn spawn(events: Sender<Event>) -> Describer {
        let (requests, rx) = mpsc::channel::<(PathBuf, DataPlan)>();
        std::thread::spawn(move || {
            while let Ok(mut request) = rx.recv() {
                // The user has moved on: only the last selection is worth loading.
                while let Ok(later) = rx.try_recv() {
                    request = later;
                }
                let (path, data) = request;
                let dataset = describe(&data).map(Box::new);
                if events.send(Event::Described { path, dataset }).is_err() {
                    return;
                }
            }
        });
        Describer { requests }
    }

    pub fn request(&self, path: PathBuf, data: DataPlan) {
        let _ = self.requests.send((path, data));
    }
}
