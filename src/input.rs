//! The buffers the state machine reads from: the codec's `BytesMut`, a
//! `Bytes`, a plain slice (and the blocking readers' window, in `read`).

use bytes::{Buf, Bytes, BytesMut};

/// A buffer the machine reads from: the codec's `BytesMut`, a `Bytes`, or a
/// plain slice.
pub(crate) trait Input {
    /// The bytes not yet consumed.
    fn chunk(&self) -> &[u8];
    /// Drops `n` consumed bytes.
    fn advance(&mut self, n: usize);
    /// Takes the next `n` bytes as `Bytes` (zero copy where the buffer allows).
    fn take_bytes(&mut self, n: usize) -> Bytes;
}

impl Input for BytesMut {
    #[inline]
    fn chunk(&self) -> &[u8] {
        self
    }
    #[inline]
    fn advance(&mut self, n: usize) {
        Buf::advance(self, n);
    }
    fn take_bytes(&mut self, n: usize) -> Bytes {
        self.split_to(n).freeze()
    }
}

impl Input for Bytes {
    #[inline]
    fn chunk(&self) -> &[u8] {
        self
    }
    #[inline]
    fn advance(&mut self, n: usize) {
        Buf::advance(self, n);
    }
    fn take_bytes(&mut self, n: usize) -> Bytes {
        self.split_to(n)
    }
}

/// A borrowed slice; blobs are copied out of it.
pub(crate) struct SliceInput<'a>(pub &'a [u8]);

impl Input for SliceInput<'_> {
    #[inline]
    fn chunk(&self) -> &[u8] {
        self.0
    }
    #[inline]
    fn advance(&mut self, n: usize) {
        self.0 = &self.0[n.min(self.0.len())..];
    }
    fn take_bytes(&mut self, n: usize) -> Bytes {
        let n = n.min(self.0.len());
        let b = Bytes::copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        b
    }
}
