//! The checksum of a cache block's bytes, and the little-endian word every number of a cache is.

/// The little-endian u64 in the first 8 bytes.
pub(super) fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(w)
}

/// A checksum of a block's bytes, to catch a file changed or cut after it was written: four
/// independent lanes of xor, multiply by an odd constant and rotate (each a bijection of a
/// word, so any changed word changes its lane), fast enough to run on every cached pass where
/// SHA-256 would cost more than the pass itself. Not a defence against an adversary: the
/// cache sits in the run's own scratch directory.
#[derive(Clone)]
pub(super) struct Checksum {
    lanes: [u64; 4],
    /// Bytes of an unfinished word, carried to the next update.
    tail: Vec<u8>,
    length: u64,
}

impl Checksum {
    pub(super) fn new() -> Checksum {
        Checksum {
            lanes: [
                0x243F_6A88_85A3_08D3,
                0x1319_8A2E_0370_7344,
                0xA409_3822_299F_31D0,
                0x082E_FA98_EC4E_6C89,
            ],
            tail: Vec::new(),
            length: 0,
        }
    }

    pub(super) fn update(&mut self, mut bytes: &[u8]) {
        self.length += bytes.len() as u64;
        if !self.tail.is_empty() {
            let take = (32 - self.tail.len()).min(bytes.len());
            self.tail.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.tail.len() < 32 {
                return;
            }
            let group = std::mem::take(&mut self.tail);
            self.mix(&group);
        }
        let whole = bytes.len() / 32 * 32;
        for group in bytes[..whole].chunks_exact(32) {
            self.mix(group);
        }
        self.tail.extend_from_slice(&bytes[whole..]);
    }

    fn mix(&mut self, group: &[u8]) {
        for (lane, w) in self.lanes.iter_mut().zip(group.chunks_exact(8)) {
            *lane = (*lane ^ word(w))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29);
        }
    }

    pub(super) fn finish(mut self) -> u64 {
        let mut last = std::mem::take(&mut self.tail);
        last.resize(32, 0);
        self.mix(&last);
        let mut h = self.length;
        for lane in self.lanes {
            h = (h ^ lane)
                .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
                .rotate_left(31);
        }
        h
    }
}
