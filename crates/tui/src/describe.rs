//! Describing the selected experiment: the transitions that ask the describer thread
//! ([`super::preview`]) for the selected file's dataset and keep its answer.

use std::path::PathBuf;

use super::app::{App, Command};
use super::preview::{Preview, PreviewState};
use bayeslab_core::record::DatasetInfo;

impl App {
    /// Start loading the selected experiment's dataset (the loop hands the command to the
    /// describer); a file that does not validate shows its message at once.
    pub fn describe_selected(&mut self) -> Option<Command> {
        let entry = self.catalog.current()?;
        let path = entry.path.clone();
        let (state, command) = match &entry.plan {
            Err(e) => (PreviewState::Failed(e.clone()), None),
            Ok(plan) => match &plan.data {
                None => (PreviewState::NoData, None),
                Some(data) => (
                    PreviewState::Loading,
                    Some(Command::Describe {
                        path: path.clone(),
                        data: Box::new(data.clone()),
                    }),
                ),
            },
        };
        self.preview = Some(Preview { path, state });
        command
    }

    /// The describer's answer, kept when it is for the file still selected.
    pub(super) fn described(&mut self, path: PathBuf, dataset: Result<Box<DatasetInfo>, String>) {
        if let Some(p) = self.preview.as_mut().filter(|p| p.path == path) {
            p.state = match dataset {
                Ok(d) => PreviewState::Ready(d),
                Err(e) => PreviewState::Failed(e),
            };
        }
    }
}
