//! Resource limits for decoding input of unknown origin.

use crate::properties::{DEFAULT_MAX_YAML_DEPTH, MAX_YAML_DEPTH_CAP};

/// Limits that turn absurd counts and lengths into
/// [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded) as soon as
/// they are read, before any memory is spent on them.
///
/// They matter most when the input length is unknown (a socket, a pipe);
/// with a known length a count that cannot fit is reported as
/// `count_exceeds_remaining` first.
///
/// ```
/// let limits = sskb::Limits::new().max_property_bytes(1 << 20).max_points_per_piece(100_000);
/// let decoder = sskb::SskbDecoder::new().with_options(sskb::DecodeOptions::new().limits(limits));
/// # let _ = decoder;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub(crate) max_property_bytes: u32,
    pub(crate) max_points_per_piece: u32,
    pub(crate) max_affects: u32,
    pub(crate) max_yaml_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::new()
    }
}

impl Limits {
    /// The defaults: 16 MiB per property blob, 16 Mi points per piece (for
    /// piece-level frames; the event decoder streams points and does not
    /// hold them), 1 Mi affects ids per piece, YAML nesting depth 128.
    pub const fn new() -> Limits {
        Limits {
            max_property_bytes: 16 << 20,
            max_points_per_piece: 16 << 20,
            max_affects: 1 << 20,
            max_yaml_depth: DEFAULT_MAX_YAML_DEPTH,
        }
    }

    /// No limits at all except the YAML depth (for trusted input of known length).
    pub const fn unlimited() -> Limits {
        Limits {
            max_property_bytes: u32::MAX,
            max_points_per_piece: u32::MAX,
            max_affects: u32::MAX,
            max_yaml_depth: DEFAULT_MAX_YAML_DEPTH,
        }
    }

    /// Largest property blob, in bytes.
    #[must_use]
    pub const fn max_property_bytes(mut self, n: u32) -> Limits {
        self.max_property_bytes = n;
        self
    }

    /// Most points in one piece held in memory by piece-level decoding
    /// ([`SskbDecoder`](crate::SskbDecoder), [`decode_slice`](crate::decode_slice)).
    #[must_use]
    pub const fn max_points_per_piece(mut self, n: u32) -> Limits {
        self.max_points_per_piece = n;
        self
    }

    /// Most ids in one piece's `affects` list.
    #[must_use]
    pub const fn max_affects(mut self, n: u32) -> Limits {
        self.max_affects = n;
        self
    }

    /// Deepest nesting of YAML collections in a property blob (capped at
    /// [`MAX_YAML_DEPTH_CAP`]).
    #[must_use]
    pub const fn max_yaml_depth(mut self, n: usize) -> Limits {
        self.max_yaml_depth = if n > MAX_YAML_DEPTH_CAP { MAX_YAML_DEPTH_CAP } else { n };
        self
    }
}
