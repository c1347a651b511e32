//! A sequence thinned as it grows, so that a chain's trace and kept draws fit in a fixed
//! number of slots however long the run.

/// A sequence offered value by value (indices 0, 1, 2, ...) that holds only the values at
/// indices 0, s, 2s, ... for a stride s that doubles — dropping every other held value —
/// whenever more than `cap` would be held. The held values stay evenly spaced over
/// everything seen, in at most `cap` slots.
#[derive(Debug, Clone, PartialEq)]
pub struct Decimated<T> {
    cap: usize,
    stride: usize,
    seen: usize,
    values: Vec<T>,
}

impl<T> Decimated<T> {
    pub fn new(cap: usize) -> Self {
        Decimated {
            cap: cap.max(2),
            stride: 1,
            seen: 0,
            values: Vec::new(),
        }
    }

    pub fn push(&mut self, value: T) {
        if self.seen.is_multiple_of(self.stride) {
            self.values.push(value);
            if self.values.len() > self.cap {
                let mut position = 0;
                self.values.retain(|_| {
                    position += 1;
                    position % 2 == 1
                });
                self.stride *= 2;
            }
        }
        self.seen += 1;
    }

    /// How many values were offered.
    pub fn seen(&self) -> usize {
        self.seen
    }

    pub fn stride(&self) -> usize {
        self.stride
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// (index, value) of every held value.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &T)> {
        let stride = self.stride;
        self.values
            .iter()
            .enumerate()
            .map(move |(i, v)| (i * stride, v))
    }
}
