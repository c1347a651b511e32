//! Turning a target column into class indices: 0/1 for a binary target ([`binary`]), one
//! index per distinct value otherwise ([`classes`]), and the set of classes a pass has seen.

mod binary;
mod classes;
mod set;
mod values;

pub use classes::{by_name, classes, counted};
pub use set::LabelSet;
pub use values::label_names;

#[cfg(test)]
mod tests;
