//! Where the picture is seen from: a view's direction in the model's axes
//! (millimetres, Z up, shown as glTF shows it: Y up on screen for the
//! model's Z), the camera's frame, and the projection that frames the
//! model's bounds.

use std::fmt;
use std::str::FromStr;

use crate::mesh::math::{cross, dot, sub, unit, V3};

/// A direction to look from, by name or by angles.
///
/// Angles are in degrees: the azimuth turns from the front (0, looking
/// along +Y from −Y) toward the right (90, looking along −X from +X), the
/// elevation lifts the eye above the XY plane (90 looks straight down).
/// On screen the model's Z is up, and X is to the right from the front;
/// seen from the top, X is to the right and Y up, as on a plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum View {
    /// From the front, right and above: azimuth 45°, elevation 35.26°
    /// (the cube's diagonal).
    Iso,
    /// From −Y.
    Front,
    /// From +Y.
    Back,
    /// From −X.
    Left,
    /// From +X.
    Right,
    /// From +Z, X to the right and Y up.
    Top,
    /// From −Z, X to the right and −Y up.
    Bottom,
    /// From an azimuth and an elevation, in degrees.
    Angles {
        /// Degrees from the front toward the right.
        azimuth: f64,
        /// Degrees above the XY plane, −90 to 90.
        elevation: f64,
    },
}

impl View {
    /// The azimuth and elevation in degrees.
    pub fn angles(self) -> (f64, f64) {
        match self {
            View::Iso => (45.0, (1.0 / 2f64.sqrt()).atan().to_degrees()),
            View::Front => (0.0, 0.0),
            View::Back => (180.0, 0.0),
            View::Left => (-90.0, 0.0),
            View::Right => (90.0, 0.0),
            View::Top => (0.0, 90.0),
            View::Bottom => (0.0, -90.0),
            View::Angles { azimuth, elevation } => (azimuth, elevation),
        }
    }

    /// A name usable in a file name: `iso`, `front`, ..., or `az30el20`.
    pub fn name(self) -> String {
        match self {
            View::Iso => "iso".into(),
            View::Front => "front".into(),
            View::Back => "back".into(),
            View::Left => "left".into(),
            View::Right => "right".into(),
            View::Top => "top".into(),
            View::Bottom => "bottom".into(),
            View::Angles { azimuth, elevation } => format!("az{azimuth}el{elevation}"),
        }
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            View::Angles { azimuth, elevation } => write!(f, "{azimuth},{elevation}"),
            v => f.write_str(&v.name()),
        }
    }
}

impl FromStr for View {
    type Err = String;

    /// `iso`, `front`, `back`, `left`, `right`, `top`, `bottom`, or
    /// `AZ,EL` in degrees (elevation −90 to 90).
    fn from_str(s: &str) -> Result<View, String> {
        Ok(match s {
            "iso" => View::Iso,
            "front" => View::Front,
            "back" => View::Back,
            "left" => View::Left,
            "right" => View::Right,
            "top" => View::Top,
            "bottom" => View::Bottom,
            _ => {
                let bad =
                    || format!("`{s}` is not a view (iso, front, back, left, right, top, bottom, or AZ,EL in degrees)");
                let (a, e) = s.split_once(',').ok_or_else(bad)?;
                let azimuth: f64 = a.trim().parse().map_err(|_| bad())?;
                let elevation: f64 = e.trim().parse().map_err(|_| bad())?;
                if !azimuth.is_finite() || !(-90.0..=90.0).contains(&elevation) {
                    return Err(format!(
                        "`{s}`: the azimuth must be a finite number and the elevation from -90 to 90 degrees"
                    ));
                }
                View::Angles { azimuth, elevation }
            }
        })
    }
}

/// The camera: an orthonormal frame in model space, and for a perspective
/// the eye's position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Camera {
    /// Screen right.
    pub right: V3,
    /// Screen up.
    pub up: V3,
    /// From the model toward the eye.
    pub back: V3,
    /// The eye, for a perspective; `None`: orthographic.
    pub eye: Option<V3>,
}

/// Vertical field of view of the perspective, degrees.
const FIELD_OF_VIEW: f64 = 30.0;

impl Camera {
    /// Looking at a model whose bounds' centre is `center` and whose
    /// bounding sphere has `radius`.
    pub fn new(view: View, perspective: bool, center: V3, radius: f64) -> Camera {
        let (az, el) = view.angles();
        let (az, el) = (az.to_radians(), el.to_radians());
        // The eye's direction, and screen right: horizontal, turning with
        // the azimuth (also the limit looking straight up or down).
        let back = [az.sin() * el.cos(), -az.cos() * el.cos(), el.sin()];
        let right = [az.cos(), az.sin(), 0.0];
        let back = unit(back).unwrap_or([0.0, -1.0, 0.0]);
        let up = unit(cross(back, right)).unwrap_or([0.0, 0.0, 1.0]);
        // Far enough that the whole sphere is in the field of view.
        let distance = radius.max(1e-9) / (FIELD_OF_VIEW.to_radians() / 2.0).sin() * 1.05;
        let eye = perspective.then(|| [0, 1, 2].map(|c| center[c] + back[c] * distance));
        Camera { right, up, back, eye }
    }

    /// A point in screen-plane units (x right, y up) and its depth key:
    /// smaller is nearer; linear across the screen for either projection.
    #[inline]
    pub fn project(&self, p: V3, center: V3) -> [f64; 3] {
        match self.eye {
            None => {
                let d = sub(p, center);
                [dot(d, self.right), dot(d, self.up), -dot(d, self.back)]
            }
            Some(eye) => {
                let d = sub(p, eye);
                // Distance in front of the eye (positive: every vertex is
                // inside the bounding sphere, which is in front).
                let depth = (-dot(d, self.back)).max(1e-9);
                [dot(d, self.right) / depth, dot(d, self.up) / depth, -1.0 / depth]
            }
        }
    }

    /// The unit direction from `p` toward the eye.
    pub fn toward_eye(&self, p: V3) -> V3 {
        match self.eye {
            None => self.back,
            Some(eye) => unit(sub(eye, p)).unwrap_or(self.back),
        }
    }

    /// The light's direction (toward the light): fixed to the camera, from
    /// above, a little to the left, and in front.
    pub fn light(&self) -> V3 {
        let l = [0, 1, 2].map(|c| -0.35 * self.right[c] + 0.55 * self.up[c] + 0.76 * self.back[c]);
        unit(l).unwrap_or(self.back)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_parse_and_name() {
        assert_eq!("top".parse::<View>(), Ok(View::Top));
        assert_eq!(
            "30, -20".parse::<View>(),
            Ok(View::Angles {
                azimuth: 30.0,
                elevation: -20.0
            })
        );
        assert!("30,91".parse::<View>().is_err());
        assert!("up".parse::<View>().is_err());
        assert!("nan,0".parse::<View>().is_err());
        assert_eq!("30,20".parse::<View>().unwrap().name(), "az30el20");
    }

    fn close(a: V3, b: V3) -> bool {
        (0..3).all(|c| (a[c] - b[c]).abs() < 1e-12)
    }

    #[test]
    fn named_views_look_along_the_axes() {
        let c = |v| Camera::new(v, false, [0.0; 3], 1.0);
        // Front: x right, z up, eye at -y.
        let f = c(View::Front);
        assert!(close(f.right, [1.0, 0.0, 0.0]) && close(f.up, [0.0, 0.0, 1.0]) && close(f.back, [0.0, -1.0, 0.0]));
        // Right: eye at +x, +y to the right.
        let r = c(View::Right);
        assert!(close(r.right, [0.0, 1.0, 0.0]) && close(r.up, [0.0, 0.0, 1.0]) && close(r.back, [1.0, 0.0, 0.0]));
        // Top: a plan, x right and y up.
        let t = c(View::Top);
        assert!(close(t.right, [1.0, 0.0, 0.0]) && close(t.up, [0.0, 1.0, 0.0]) && close(t.back, [0.0, 0.0, 1.0]));
        // Bottom: x right, -y up (seen from below, not mirrored).
        let b = c(View::Bottom);
        assert!(close(b.right, [1.0, 0.0, 0.0]) && close(b.up, [0.0, -1.0, 0.0]));
        // Every frame is right-handed: right × up = back.
        for v in [View::Iso, View::Back, View::Left, View::Top, View::Bottom] {
            let k = c(v);
            assert!(close(cross(k.right, k.up), k.back), "{v}");
        }
    }
}
