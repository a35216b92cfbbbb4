//! The page's files, served from the binary: the viewer and the gallery
//! (`page/`), and three.js (`vendor/three/`, unchanged from its npm
//! package but for one import specifier).

use std::sync::OnceLock;

pub const VIEWER_HTML: &str = include_str!("page/viewer.html");
pub const GALLERY_HTML: &str = include_str!("page/gallery.html");

const JS: &str = "text/javascript; charset=utf-8";

/// `OrbitControls.js` imports the bare specifier `'three'`, which a page
/// resolves only through an import map (an inline script the content
/// security policy forbids); it is pointed at the served module instead.
fn orbit_controls() -> &'static str {
    static REWRITTEN: OnceLock<String> = OnceLock::new();
    REWRITTEN.get_or_init(|| {
        include_str!("../../../../vendor/three/OrbitControls.js")
            .replace("from 'three';", "from './three.module.min.js';")
    })
}

/// An asset's content type and body, by name.
pub fn get(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "viewer.js" => (JS, include_str!("page/viewer.js")),
        "gallery.js" => (JS, include_str!("page/gallery.js")),
        "view.css" => ("text/css; charset=utf-8", include_str!("page/view.css")),
        "three.module.min.js" => (JS, include_str!("../../../../vendor/three/three.module.min.js")),
        "three.core.min.js" => (JS, include_str!("../../../../vendor/three/three.core.min.js")),
        "OrbitControls.js" => (JS, orbit_controls()),
        "three-LICENSE.txt" => (
            "text/plain; charset=utf-8",
            include_str!("../../../../vendor/three/LICENSE"),
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_import_is_served() {
        let orbit = super::orbit_controls();
        assert!(!orbit.contains("from 'three'"));
        assert!(orbit.contains("from './three.module.min.js'"));
        let (_, module) = super::get("three.module.min.js").unwrap();
        assert!(module.contains("from\"./three.core.min.js\""));
        assert!(super::get("three.core.min.js").is_some());
        let (_, viewer) = super::get("viewer.js").unwrap();
        for line in viewer.lines().filter(|l| l.starts_with("import ")) {
            let name = line.rsplit("'./").next().unwrap().trim_end_matches("';");
            assert!(super::get(name).is_some(), "{line}");
        }
        assert!(super::get("../Cargo.toml").is_none());
    }
}
