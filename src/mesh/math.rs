//! The little vector algebra meshing needs, in f64.

pub(crate) type V3 = [f64; 3];

pub(crate) fn v(p: crate::Vec3) -> V3 {
    [f64::from(p.x), f64::from(p.y), f64::from(p.z)]
}

pub(crate) fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(crate) fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn scale(a: V3, s: f64) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

pub(crate) fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(crate) fn norm(a: V3) -> f64 {
    dot(a, a).sqrt()
}

/// `a` scaled to length 1, or `None` when it is (nearly) zero.
pub(crate) fn unit(a: V3) -> Option<V3> {
    let n = norm(a);
    (n > 1e-12).then(|| scale(a, 1.0 / n))
}

/// A 3×3 matrix, rows.
pub(crate) type M3 = [V3; 3];

pub(crate) fn mul(m: &M3, a: V3) -> V3 {
    [dot(m[0], a), dot(m[1], a), dot(m[2], a)]
}

fn mat_mul(a: &M3, b: &M3) -> M3 {
    let col = |j: usize| [b[0][j], b[1][j], b[2][j]];
    let mut out = [[0.0; 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = dot(a[i], col(j));
        }
    }
    out
}

/// Euler angles in degrees, extrinsic X then Y then Z: R = Rz · Ry · Rx.
pub(crate) fn rotation(deg: V3) -> M3 {
    let [x, y, z] = deg.map(f64::to_radians);
    let (sx, cx) = x.sin_cos();
    let (sy, cy) = y.sin_cos();
    let (sz, cz) = z.sin_cos();
    let rx = [[1.0, 0.0, 0.0], [0.0, cx, -sx], [0.0, sx, cx]];
    let ry = [[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]];
    let rz = [[cz, -sz, 0.0], [sz, cz, 0.0], [0.0, 0.0, 1.0]];
    mat_mul(&rz, &mat_mul(&ry, &rx))
}

/// Rotates `p` about the unit `axis` by the angle whose cosine and sine
/// are given (Rodrigues).
pub(crate) fn rotate(p: V3, axis: V3, cos: f64, sin: f64) -> V3 {
    add(
        add(scale(p, cos), scale(cross(axis, p), sin)),
        scale(axis, dot(axis, p) * (1.0 - cos)),
    )
}

/// The minimal rotation taking unit `a` to unit `b`, applied to `p`;
/// `None` when they are opposite.
pub(crate) fn transport(p: V3, a: V3, b: V3) -> Option<V3> {
    let c = dot(a, b);
    if c < -1.0 + 1e-9 {
        return None;
    }
    let axis = cross(a, b);
    let s = norm(axis);
    if s < 1e-12 {
        return Some(p);
    }
    Some(rotate(p, scale(axis, 1.0 / s), c, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: V3, b: V3) -> bool {
        norm(sub(a, b)) < 1e-12
    }

    #[test]
    fn rotation_order_is_z_after_y_after_x() {
        // 90° about X takes Y to Z; then 90° about Z takes X to Y.
        let r = rotation([90.0, 0.0, 90.0]);
        assert!(close(mul(&r, [0.0, 1.0, 0.0]), [0.0, 0.0, 1.0]));
        assert!(close(mul(&r, [1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]));
        // Positive angles follow the right-hand rule.
        assert!(close(
            mul(&rotation([0.0, 90.0, 0.0]), [0.0, 0.0, 1.0]),
            [1.0, 0.0, 0.0]
        ));
    }

    #[test]
    fn transport_is_minimal() {
        let x = [1.0, 0.0, 0.0];
        let z = [0.0, 0.0, 1.0];
        assert!(close(transport(x, z, x).unwrap(), [0.0, 0.0, -1.0]));
        assert!(close(transport([0.0, 1.0, 0.0], z, x).unwrap(), [0.0, 1.0, 0.0]));
        assert!(transport(x, z, [0.0, 0.0, -1.0]).is_none());
    }
}
