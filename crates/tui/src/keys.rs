//! Key bindings: one table, [`BINDINGS`], that the `?` overlay lists and [`App::key`](crate::app::App::key)
//! dispatches from, so that the help cannot drift from what the keys do.

mod binding;
mod dispatch;
mod table;
#[cfg(test)]
mod tests;

pub use binding::{Action, Binding, Context, Key};
pub use table::BINDINGS;
