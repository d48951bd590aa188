//! What the drivers' tests share: a protocol reader fed in pieces (and, tried
//! here on both readers, that the pieces change nothing), and what it read.

/// What a protocol reader's `push` reads from `bytes` handed over in pieces:
/// each cut is the length of the next piece, the rest comes last.
pub(crate) fn chunked<T>(bytes: &[u8], cuts: &[usize], mut push: impl FnMut(&[u8], &mut Vec<T>)) -> Vec<T> {
    let mut out = Vec::new();
    let mut rest = bytes;
    for &cut in cuts {
        let (head, tail) = rest.split_at(cut.min(rest.len()));
        push(head, &mut out);
        rest = tail;
    }
    push(rest, &mut out);
    out
}

/// What `pick` keeps of the messages a reader read, dropped input left out.
pub(crate) fn picked<M, E, T>(read: Vec<Result<M, E>>, pick: impl FnMut(M) -> Option<T>) -> Vec<T> {
    read.into_iter().filter_map(Result::ok).filter_map(pick).collect()
}

#[cfg(test)]
mod tests {
    use super::chunked;
    use crate::dgt::DgtReader;
    use crate::pegboard::LineReader;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Both protocol readers, the peg board's lines and the DGT board's
        /// messages, on the same bytes.
        #[test]
        fn arbitrary_bytes_in_arbitrary_chunks_never_panic_and_chunking_is_irrelevant(
            bytes in proptest::collection::vec(any::<u8>(), 0..2000),
            cuts in proptest::collection::vec(0usize..300, 0..20),
        ) {
            let lines = |cuts: &[usize]| {
                let mut reader = LineReader::new();
                chunked(&bytes, cuts, |piece, out| reader.push(piece, out))
            };
            prop_assert_eq!(lines(&cuts), lines(&[]));
            let messages = |cuts: &[usize]| {
                let mut reader = DgtReader::new();
                chunked(&bytes, cuts, |piece, out| reader.push(piece, out))
            };
            prop_assert_eq!(messages(&cuts), messages(&[]));
        }
    }
}
