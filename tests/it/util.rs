//! What the integration tests share: the built binary and one run of it (cli), the docs'
//! pages and their checks (docs), small designs and plans for the methods (method), streamed
//! data sets (streaming), and the workbench driven on a test backend (tui).

pub mod cli;
pub mod docs;
pub mod method;
pub mod streaming;
pub mod tui;
