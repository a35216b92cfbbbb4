//! A path piece's centre line: cubic Bézier segments, their tangents, the
//! transition curves that remap position to progress, and frames carried
//! by parallel transport (docs/spec/GEOMETRY.md §5).

use super::math::{add, cross, dot, mul, norm, rotation, scale, sub, transport, unit, v, M3, V3};
use crate::{Point, Vec3};

/// One segment: control points P0..P3, and whether it is linear (neither
/// `curve_out` nor `curve_in` given).
///
/// A linear segment is evaluated as the straight line P0 → P3 with its
/// rings spaced evenly (the reference's rule); any control given makes it
/// the cubic, even a control equal to its end point.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    pub p: [V3; 4],
    pub straight: bool,
}

/// Where the derivative vanishes, the offsets from `t` tried in turn (each
/// clamped to [0, 1]) for the nearest non-zero one, as the reference does.
const TANGENT_FALLBACK: [f64; 6] = [0.01, -0.01, 0.05, -0.05, 0.1, -0.1];

/// Below this length a derivative is zero.
const ZERO_DERIVATIVE: f64 = 1e-12;

impl Segment {
    pub fn between(a: &Point, b: &Point) -> Segment {
        let p0 = v(a.position);
        let p3 = v(b.position);
        let p1 = a.curve_out.map_or(p0, v);
        let p2 = b.curve_in.map_or(p3, v);
        Segment {
            p: [p0, p1, p2, p3],
            straight: a.curve_out.is_none() && b.curve_in.is_none(),
        }
    }

    pub fn at(&self, t: f64) -> V3 {
        let [p0, p1, p2, p3] = self.p;
        if self.straight {
            return add(scale(p0, 1.0 - t), scale(p3, t));
        }
        let s = 1.0 - t;
        add(
            add(scale(p0, s * s * s), scale(p1, 3.0 * s * s * t)),
            add(scale(p2, 3.0 * s * t * t), scale(p3, t * t * t)),
        )
    }

    fn derivative(&self, t: f64) -> V3 {
        let [p0, p1, p2, p3] = self.p;
        if self.straight {
            return sub(p3, p0);
        }
        let s = 1.0 - t;
        add(
            add(scale(sub(p1, p0), 3.0 * s * s), scale(sub(p2, p1), 6.0 * s * t)),
            scale(sub(p3, p2), 3.0 * t * t),
        )
    }

    /// The unit tangent at `t`; where the derivative vanishes, the first
    /// non-zero one at `t` ± 0.01, ± 0.05, ± 0.1. `None` where none is.
    pub fn tangent(&self, t: f64) -> Option<V3> {
        let nonzero = |d: V3| (norm(d) >= ZERO_DERIVATIVE).then_some(d);
        let d = nonzero(self.derivative(t)).or_else(|| {
            TANGENT_FALLBACK
                .iter()
                .find_map(|dt| nonzero(self.derivative((t + dt).clamp(0.0, 1.0))))
        })?;
        unit(d)
    }

    /// Whether the segment has no non-zero derivative (sampled at 0, ¼, ½,
    /// ¾ and 1, as the reference does): it contributes nothing.
    pub fn is_degenerate(&self) -> bool {
        [0.0, 0.25, 0.5, 0.75, 1.0]
            .iter()
            .all(|&t| norm(self.derivative(t)) <= ZERO_DERIVATIVE)
    }
}

/// The transition curve of a segment: progress `v` at position `u`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Transition {
    t1: [f64; 2],
    t2: [f64; 2],
    identity: bool,
}

impl Transition {
    pub fn between(a: &Point, b: &Point) -> Transition {
        let t1 = a
            .transition_out
            .map_or([1.0 / 3.0, 1.0 / 3.0], |t| [f64::from(t.x), f64::from(t.y)]);
        let t2 = b
            .transition_in
            .map_or([2.0 / 3.0, 2.0 / 3.0], |t| [f64::from(t.x), f64::from(t.y)]);
        Transition {
            t1,
            t2,
            identity: a.transition_out.is_none() && b.transition_in.is_none(),
        }
    }

    fn bezier(&self, t: f64, axis: usize) -> f64 {
        let s = 1.0 - t;
        3.0 * s * s * t * self.t1[axis] + 3.0 * s * t * t * self.t2[axis] + t * t * t
    }

    /// Solves x(t) = u (monotone: 0 ≤ T1.x ≤ T2.x ≤ 1) and gives y(t).
    pub fn progress(&self, u: f64) -> f64 {
        if self.identity {
            return u;
        }
        // The ends exactly, as the reference gives them: a size that is 0
        // at an end point stays 0 there (a flat cap), not the rounding of
        // the search's last step.
        if u <= 0.0 {
            return 0.0;
        }
        if u >= 1.0 {
            return 1.0;
        }
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if self.bezier(mid, 0) < u {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        self.bezier(0.5 * (lo + hi), 1)
    }
}

/// A right-handed orthonormal frame: `x`, `y` span the cross-section and
/// `z` is the tangent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PathFrame {
    pub x: V3,
    pub y: V3,
    pub z: V3,
}

impl PathFrame {
    /// The frame at the start of a path (and wherever transport fails):
    /// z the tangent, x the rotated local X projected off it (else the
    /// rotated local Y), y = z × x.
    pub fn initial(tangent: V3, rot: &M3) -> PathFrame {
        let project = |a: V3| unit(sub(a, scale(tangent, dot(a, tangent))));
        let x = project(mul(rot, [1.0, 0.0, 0.0]))
            .or_else(|| project(mul(rot, [0.0, 1.0, 0.0])))
            .unwrap_or([1.0, 0.0, 0.0]);
        PathFrame {
            x,
            y: cross(tangent, x),
            z: tangent,
        }
    }

    /// The frame carried to a new tangent by the minimal rotation; `None`
    /// when the tangents are opposite.
    pub fn carried(&self, tangent: V3) -> Option<PathFrame> {
        let x = transport(self.x, self.z, tangent)?;
        let x = unit(sub(x, scale(tangent, dot(x, tangent))))?;
        Some(PathFrame {
            x,
            y: cross(tangent, x),
            z: tangent,
        })
    }

    /// The rotated world axes: the frame of a point-defined piece.
    pub fn rotated(rot: &M3) -> PathFrame {
        PathFrame {
            x: mul(rot, [1.0, 0.0, 0.0]),
            y: mul(rot, [0.0, 1.0, 0.0]),
            z: mul(rot, [0.0, 0.0, 1.0]),
        }
    }
}

/// Rotation interpolated per component across the shortest signed angle
/// (in (−180°, 180°]: a half turn goes the positive way).
pub(crate) fn lerp_rotation(a: Vec3, b: Vec3, t: f64) -> M3 {
    let (a, b) = (v(a), v(b));
    let mut out = [0.0; 3];
    for i in 0..3 {
        let d = (b[i] - a[i]).rem_euclid(360.0);
        let d = if d > 180.0 { d - 360.0 } else { d };
        out[i] = a[i] + d * t;
    }
    rotation(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_are_monotone_and_default_to_identity() {
        let mut a = Point::at(Vec3::new(0.0, 0.0, 0.0));
        let b = Point::at(Vec3::new(0.0, 0.0, 1.0));
        assert_eq!(Transition::between(&a, &b).progress(0.3), 0.3);
        a.transition_out = Some(crate::Vec2 { x: 0.9, y: 0.0 });
        let t = Transition::between(&a, &b);
        let mut last = -1.0;
        for k in 0..=100 {
            let v = t.progress(f64::from(k) / 100.0);
            assert!(v >= last - 1e-12, "not monotone at {k}");
            last = v;
        }
        // The ends exactly: a size of 0 at an end point stays 0 there.
        assert_eq!((t.progress(0.0), t.progress(1.0)), (0.0, 1.0));
        assert_eq!((t.progress(-0.5), t.progress(1.5)), (0.0, 1.0));
    }

    #[test]
    fn frames_stay_orthonormal_along_a_curve() {
        let mut a = Point::at(Vec3::new(0.0, 0.0, 0.0));
        let mut b = Point::at(Vec3::new(100.0, 0.0, 100.0));
        a.curve_out = Some(Vec3::new(0.0, 0.0, 80.0));
        b.curve_in = Some(Vec3::new(20.0, 50.0, 100.0));
        let s = Segment::between(&a, &b);
        let mut f = PathFrame::initial(s.tangent(0.0).unwrap(), &rotation([0.0, 0.0, 30.0]));
        for k in 1..=200 {
            f = f.carried(s.tangent(f64::from(k) / 200.0).unwrap()).unwrap();
            for (p, q) in [(f.x, f.y), (f.y, f.z), (f.x, f.z)] {
                assert!(dot(p, q).abs() < 1e-9);
            }
            for w in [f.x, f.y, f.z] {
                assert!((norm(w) - 1.0).abs() < 1e-9);
            }
            assert!(dot(cross(f.x, f.y), f.z) > 0.999_999);
        }
    }
}
