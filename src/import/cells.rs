//! A set of a grid's cells, a bit each: a candidate's cells take the
//! same few kilobytes whether it fills a corner or the whole grid (a list
//! of cell numbers took four bytes a cell, and a search holds a thousand
//! candidates or more), and the cells a candidate would add to a model
//! are counted a word of 64 cells at a time.

/// Cells of a grid, by number: the words from the first that holds one to
/// the last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Cells {
    /// The word (of 64 cells) `words[0]` is.
    start: usize,
    words: Vec<u64>,
    count: usize,
}

impl Cells {
    /// The cells whose flags are set.
    pub fn of_flags(flags: &[bool]) -> Cells {
        let Some(first) = flags.iter().position(|&f| f) else {
            return Cells::default();
        };
        let last = flags.iter().rposition(|&f| f).unwrap_or(first);
        let start = first / 64;
        let words: Vec<u64> = flags[start * 64..=last].chunks(64).map(word).collect();
        let count = words.iter().map(|w| w.count_ones() as usize).sum();
        Cells { start, words, count }
    }

    /// How many cells.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The cells' numbers, in order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(move |(w, &bits)| {
            let base = (self.start + w) * 64;
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    base + b
                })
            })
        })
    }

    /// Of these cells, how many are in `a`, and how many in both `a` and
    /// `b` (sets of the same grid as whole words, [`Cells::words_of`]).
    pub fn meet(&self, a: &[u64], b: &[u64]) -> (usize, usize) {
        let (mut in_a, mut in_both) = (0u32, 0u32);
        let a = a.get(self.start..).unwrap_or_default();
        let b = b.get(self.start..).unwrap_or_default();
        for ((&c, &x), &y) in self.words.iter().zip(a).zip(b) {
            let m = c & x;
            in_a += m.count_ones();
            in_both += (m & y).count_ones();
        }
        (in_a as usize, in_both as usize)
    }

    /// Flags of a grid of `n` cells as whole words (64 cells a word).
    pub fn words_of(flags: &[bool]) -> Vec<u64> {
        flags.chunks(64).map(word).collect()
    }
}

/// Up to 64 flags as a word, the first the lowest bit.
fn word(flags: &[bool]) -> u64 {
    flags.iter().rev().fold(0u64, |w, &f| (w << 1) | u64::from(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_the_flags_set_and_count_their_meetings() {
        let mut flags = vec![false; 300];
        for i in [70, 71, 127, 128, 200, 299] {
            flags[i] = true;
        }
        let c = Cells::of_flags(&flags);
        assert_eq!(c.len(), 6);
        assert_eq!(c.iter().collect::<Vec<_>>(), vec![70, 71, 127, 128, 200, 299]);
        let a: Vec<bool> = (0..300).map(|i| i % 2 == 0).collect();
        let b: Vec<bool> = (0..300).map(|i| i >= 128).collect();
        // Even: 70, 128, 200; even and ≥ 128: 128, 200.
        assert_eq!(c.meet(&Cells::words_of(&a), &Cells::words_of(&b)), (3, 2));
        assert!(Cells::of_flags(&[false; 10]).is_empty());
        assert_eq!(Cells::of_flags(&[false; 10]).iter().count(), 0);
        assert_eq!(Cells::of_flags(&[true]).iter().collect::<Vec<_>>(), vec![0]);
    }
}
