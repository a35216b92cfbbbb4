//! glTF 2.0 out: `.glb`, or `.gltf` JSON with its buffer in a `.bin`
//! beside it. Metres, +Y up (a point (x, y, z) in millimetres becomes
//! (0.001·x, 0.001·z, −0.001·y)); flat per-face normals, so each triangle
//! has its own three vertices; u32 indices; `min`/`max` on positions;
//! generator `sskb`. Vertices that meet in `f32` are welded and the
//! triangles that collapse with them removed in pairs, so a closed mesh
//! stays closed; a triangle of no area keeps a neighbour's normal, so the
//! output passes the Khronos validator.

use gltf_json as json;
use json::validation::{Checked::Valid, USize64};
use json::Index;

use super::math::{cross, norm, sub, V3};
use super::Mesh;
use crate::error::{Error, ErrorKind, Result};

/// One node of the scene: a named mesh, with `extras` (JSON) if any.
#[derive(Clone, Debug)]
pub struct SceneNode {
    /// The node's (and its mesh's) name.
    pub name: String,
    /// Its mesh, in model units.
    pub mesh: Mesh,
    /// JSON for the node's `extras` (its properties), if any.
    pub extras: Option<String>,
}

/// A glTF document and its binary buffer.
#[derive(Clone, Debug)]
pub struct Gltf {
    root: json::Root,
    bin: Vec<u8>,
    /// Triangles written (those collapsed by welding removed).
    pub triangles: usize,
}

fn to_gltf(p: V3) -> [f32; 3] {
    [(p[0] * 0.001) as f32, (p[2] * 0.001) as f32, (-p[1] * 0.001) as f32]
}

/// The triangles of `mesh` in glTF space, three vertices each, with their
/// flat normals. Vertices that round to the same `f32` position are one
/// vertex, so a triangle that two of its corners collapse into is dropped
/// with its neighbour across that edge (an edge collapse: a closed mesh
/// stays closed). No other triangle is dropped: one of no area (its
/// corners in a line) takes the normal of a neighbour, so that every
/// normal is a unit vector.
fn faces(mesh: &Mesh) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    faces_of(mesh.positions.iter().map(|&p| to_gltf(p)), &mesh.triangles)
}

/// [`faces`] of triangles over positions already in glTF space.
fn faces_of(points: impl Iterator<Item = [f32; 3]>, triangles: &[[u32; 3]]) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let (at, index) = welded(points.collect());
    let tris: Vec<[u32; 3]> = triangles
        .iter()
        .map(|t| t.map(|i| index[i as usize]))
        .filter(|t| t[0] != t[1] && t[1] != t[2] && t[2] != t[0])
        .collect();
    let mut normals: Vec<Option<[f32; 3]>> = tris
        .iter()
        .map(|t| {
            let w = t.map(|i| at[i as usize].map(f64::from));
            let n = cross(sub(w[1], w[0]), sub(w[2], w[0]));
            let len = norm(n);
            let unit = n.map(|x| (x / len) as f32);
            let ok = len.is_finite() && len > 0.0 && (norm(unit.map(f64::from)) - 1.0).abs() < 1e-3;
            ok.then_some(unit)
        })
        .collect();
    if normals.iter().any(Option::is_none) {
        // A triangle of no area takes the normal of a neighbour across an
        // edge (repeatedly, for a run of them); one with none at all, +Y.
        let by_edge = across(&tris, &normals);
        for _ in 0..tris.len() {
            let mut changed = false;
            for k in 0..tris.len() {
                if normals[k].is_some() {
                    continue;
                }
                let t = tris[k];
                let from = [(t[1], t[0]), (t[2], t[1]), (t[0], t[2])].iter().find_map(|e| {
                    let j = by_edge.binary_search_by_key(e, |&(e, _)| e).ok()?;
                    normals[by_edge[j].1]
                });
                if from.is_some() {
                    normals[k] = from;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    let mut positions = Vec::with_capacity(tris.len() * 3);
    let mut out_normals = Vec::with_capacity(tris.len() * 3);
    for (t, n) in tris.iter().zip(normals) {
        positions.extend(t.map(|i| at[i as usize]));
        out_normals.extend([n.unwrap_or([0.0, 1.0, 0.0]); 3]);
    }
    (positions, out_normals)
}

/// Points that are the same `f32` position as one vertex: the distinct
/// positions in order of first appearance, and each point's vertex. By a
/// sort, not a hash: no input can make it slower than n log n.
fn welded(points: Vec<[f32; 3]>) -> (Vec<[f32; 3]>, Vec<u32>) {
    let mut order: Vec<u32> = (0..points.len() as u32).collect();
    let key = |i: u32| points[i as usize].map(f32::to_bits);
    // Stable: of equal positions the first comes first.
    order.sort_by_key(|&i| key(i));
    // Each point's first equal point.
    let mut first: Vec<u32> = (0..points.len() as u32).collect();
    for run in order.chunk_by(|&a, &b| key(a) == key(b)) {
        for &i in &run[1..] {
            first[i as usize] = run[0];
        }
    }
    let mut at = Vec::new();
    let mut index = vec![0u32; points.len()];
    for i in 0..points.len() {
        let f = first[i] as usize;
        index[i] = if f == i {
            at.push(points[i]);
            (at.len() - 1) as u32
        } else {
            index[f]
        };
    }
    (at, index)
}

/// For the edges across which a triangle of no normal looks for one
/// (each of its edges reversed), the last triangle that has that edge,
/// sorted by edge.
fn across(tris: &[[u32; 3]], normals: &[Option<[f32; 3]>]) -> Vec<((u32, u32), usize)> {
    let edges = |t: &[u32; 3]| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])];
    let mut wanted: Vec<(u32, u32)> = tris
        .iter()
        .zip(normals)
        .filter(|(_, n)| n.is_none())
        .flat_map(|(t, _)| edges(t).map(|(a, b)| (b, a)))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut found: Vec<((u32, u32), usize)> = Vec::new();
    for (k, t) in tris.iter().enumerate() {
        for e in edges(t) {
            if wanted.binary_search(&e).is_ok() {
                found.push((e, k));
            }
        }
    }
    // The last triangle of each edge.
    found.sort_by_key(|&(e, _)| e);
    let mut last: Vec<((u32, u32), usize)> = Vec::with_capacity(found.len());
    for (e, k) in found {
        match last.last_mut() {
            Some(l) if l.0 == e => l.1 = l.1.max(k),
            _ => last.push((e, k)),
        }
    }
    last
}

fn raw(s: &str) -> Result<Box<json::extras::RawValue>> {
    json::extras::RawValue::from_string(s.to_owned())
        .map_err(|e| Error::new(ErrorKind::Structure, format!("node extras are not JSON: {e}")))
}

/// Appends `data` to the buffer and gives its view.
fn view(
    root: &mut json::Root,
    bin: &mut Vec<u8>,
    data: &[u8],
    target: json::buffer::Target,
) -> Index<json::buffer::View> {
    let offset = bin.len();
    bin.extend_from_slice(data);
    root.push(json::buffer::View {
        buffer: Index::new(0),
        byte_length: USize64::from(data.len()),
        byte_offset: Some(USize64::from(offset)),
        byte_stride: None,
        extensions: None,
        extras: None,
        name: None,
        target: Some(Valid(target)),
    })
}

fn accessor(
    root: &mut json::Root,
    view: Index<json::buffer::View>,
    count: usize,
    component: json::accessor::ComponentType,
    kind: json::accessor::Type,
    bounds: Option<([f32; 3], [f32; 3])>,
) -> Index<json::Accessor> {
    root.push(json::Accessor {
        buffer_view: Some(view),
        byte_offset: Some(USize64(0)),
        count: USize64::from(count),
        component_type: Valid(json::accessor::GenericComponentType(component)),
        extensions: None,
        extras: None,
        type_: Valid(kind),
        min: bounds.map(|b| json::Value::from(b.0.to_vec())),
        max: bounds.map(|b| json::Value::from(b.1.to_vec())),
        name: None,
        normalized: false,
        sparse: None,
    })
}

impl Gltf {
    /// Builds the document: one node per entry (none for an empty mesh).
    ///
    /// # Errors
    /// `structure` when an `extras` string is not JSON.
    pub fn new(nodes: &[SceneNode]) -> Result<Gltf> {
        let faced = nodes.iter().map(|node| {
            let (positions, normals) = faces(&node.mesh);
            (node.name.as_str(), node.extras.as_deref(), positions, normals)
        });
        Gltf::assemble(faced)
    }

    /// One mesh from positions already in glTF space (metres, +Y up, as
    /// f32) and triangles over them, counter-clockwise seen from outside:
    /// what the Python module's `write_glb(vertices, faces, path)` writes.
    /// Welding, collapsed triangles and normals as for [`Gltf::new`].
    ///
    /// ```
    /// # #[cfg(feature = "mesh")] {
    /// let v = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    /// let f = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    /// let gltf = sskb::mesh::Gltf::from_triangles(&v, &f)?;
    /// assert_eq!(gltf.triangles, 4);
    /// # }
    /// # Ok::<(), sskb::Error>(())
    /// ```
    ///
    /// # Errors
    /// `structure` when a position is not finite or a triangle names a
    /// vertex that is not there.
    pub fn from_triangles(positions: &[[f32; 3]], triangles: &[[u32; 3]]) -> Result<Gltf> {
        if let Some(i) = positions.iter().position(|p| !p.iter().all(|c| c.is_finite())) {
            return Err(
                Error::new(ErrorKind::NonFinite, format!("vertex {i} is not finite")).path(format!("vertices[{i}]"))
            );
        }
        if let Some(k) = triangles
            .iter()
            .position(|t| t.iter().any(|&i| i as usize >= positions.len()))
        {
            return Err(Error::new(
                ErrorKind::Structure,
                format!(
                    "face {k} names vertex {} of {}",
                    triangles[k].iter().max().copied().unwrap_or(0),
                    positions.len()
                ),
            )
            .path(format!("faces[{k}]")));
        }
        let (p, n) = faces_of(positions.iter().copied(), triangles);
        Gltf::assemble(std::iter::once(("mesh", None, p, n)))
    }

    /// The document of nodes given as (name, extras, positions, normals).
    fn assemble<'a>(
        nodes: impl Iterator<Item = (&'a str, Option<&'a str>, Vec<[f32; 3]>, Vec<[f32; 3]>)>,
    ) -> Result<Gltf> {
        let mut root = json::Root {
            asset: json::Asset {
                generator: Some("sskb".into()),
                version: "2.0".into(),
                ..Default::default()
            },
            ..Default::default()
        };
        let mut bin = Vec::new();
        let mut scene_nodes = Vec::new();
        let mut triangles = 0;
        for (name, extras, positions, normals) in nodes {
            if positions.is_empty() {
                continue;
            }
            triangles += positions.len() / 3;
            let mut lo = [f32::INFINITY; 3];
            let mut hi = [f32::NEG_INFINITY; 3];
            for p in &positions {
                for c in 0..3 {
                    lo[c] = lo[c].min(p[c]);
                    hi[c] = hi[c].max(p[c]);
                }
            }
            let n = positions.len();
            let flat = |v: &[[f32; 3]]| v.iter().flatten().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
            let indices: Vec<u8> = (0..n as u32).flat_map(u32::to_le_bytes).collect();
            use json::buffer::Target::{ArrayBuffer, ElementArrayBuffer};
            let pv = view(&mut root, &mut bin, &flat(&positions), ArrayBuffer);
            let nv = view(&mut root, &mut bin, &flat(&normals), ArrayBuffer);
            let iv = view(&mut root, &mut bin, &indices, ElementArrayBuffer);
            use json::accessor::{ComponentType, Type};
            let pa = accessor(&mut root, pv, n, ComponentType::F32, Type::Vec3, Some((lo, hi)));
            let na = accessor(&mut root, nv, n, ComponentType::F32, Type::Vec3, None);
            let ia = accessor(&mut root, iv, n, ComponentType::U32, Type::Scalar, None);
            let primitive = json::mesh::Primitive {
                attributes: [
                    (Valid(json::mesh::Semantic::Positions), pa),
                    (Valid(json::mesh::Semantic::Normals), na),
                ]
                .into_iter()
                .collect(),
                extensions: None,
                extras: None,
                indices: Some(ia),
                material: None,
                mode: Valid(json::mesh::Mode::Triangles),
                targets: None,
            };
            let mesh = root.push(json::Mesh {
                extensions: None,
                extras: None,
                name: Some(name.to_owned()),
                primitives: vec![primitive],
                weights: None,
            });
            scene_nodes.push(root.push(json::Node {
                mesh: Some(mesh),
                name: Some(name.to_owned()),
                extras: extras.map(raw).transpose()?,
                ..Default::default()
            }));
        }
        if !bin.is_empty() {
            root.push(json::Buffer {
                byte_length: USize64::from(bin.len()),
                extensions: None,
                extras: None,
                name: None,
                uri: None,
            });
        }
        // No geometry, no scene: a scene must list at least one node.
        if !scene_nodes.is_empty() {
            let scene = root.push(json::Scene {
                extensions: None,
                extras: None,
                name: None,
                nodes: scene_nodes,
            });
            root.scene = Some(scene);
        }
        Ok(Gltf { root, bin, triangles })
    }

    fn json(&self) -> Result<Vec<u8>> {
        self.root
            .to_vec()
            .map_err(|e| Error::new(ErrorKind::Structure, format!("glTF JSON: {e}")))
    }

    /// The binary `.glb` form.
    ///
    /// # Errors
    /// Only if the JSON cannot be serialized.
    pub fn to_glb(&self) -> Result<Vec<u8>> {
        // The buffer, its padding and the headers; the JSON's length on top.
        let mut out = Vec::with_capacity(self.bin.len().saturating_add(64));
        self.write_glb(&mut out)?;
        Ok(out)
    }

    /// Writes the binary `.glb` form to `w`, without a copy of the buffer
    /// in memory.
    ///
    /// # Errors
    /// `io` when writing fails; `structure` if the JSON cannot be
    /// serialized.
    pub fn write_glb(&self, w: &mut impl std::io::Write) -> Result<()> {
        let mut json = self.json()?;
        while json.len() % 4 != 0 {
            json.push(b' ');
        }
        let bin_len = self.bin.len().next_multiple_of(4);
        let total = 12 + 8 + json.len() + if bin_len == 0 { 0 } else { 8 + bin_len };
        let mut head = Vec::with_capacity(28 + json.len());
        head.extend_from_slice(b"glTF");
        head.extend_from_slice(&2u32.to_le_bytes());
        head.extend_from_slice(&(total as u32).to_le_bytes());
        head.extend_from_slice(&(json.len() as u32).to_le_bytes());
        head.extend_from_slice(b"JSON");
        head.extend_from_slice(&json);
        if bin_len > 0 {
            head.extend_from_slice(&(bin_len as u32).to_le_bytes());
            head.extend_from_slice(b"BIN\0");
        }
        w.write_all(&head)?;
        if bin_len > 0 {
            w.write_all(&self.bin)?;
            w.write_all(&[0; 3][..bin_len - self.bin.len()])?;
        }
        Ok(())
    }

    /// The `.gltf` JSON whose buffer is the file `bin_name` beside it (the
    /// name percent-encoded into a relative URI); write [`Gltf::bin`] there.
    ///
    /// # Errors
    /// Only if the JSON cannot be serialized.
    pub fn to_gltf(&self, bin_name: &str) -> Result<Vec<u8>> {
        let mut root = self.root.clone();
        if let Some(b) = root.buffers.first_mut() {
            b.uri = Some(uri(bin_name));
        }
        root.to_vec()
            .map_err(|e| Error::new(ErrorKind::Structure, format!("glTF JSON: {e}")))
    }

    /// The binary buffer of the `.gltf` form.
    pub fn bin(&self) -> &[u8] {
        &self.bin
    }
}

/// A file name as a relative URI: unreserved characters kept, the rest
/// percent-encoded.
fn uri(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A small deterministic generator of coordinates from few values, so
    /// that many points repeat (and -0.0 and 0.0 differ in bits).
    fn points(n: usize, seed: u64) -> Vec<[f32; 3]> {
        let mut x = seed;
        let values = [0.0f32, -0.0, 1.0, 0.5, 1e-30, -2.0];
        (0..n)
            .map(|_| {
                [0, 1, 2].map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    values[(x >> 33) as usize % values.len()]
                })
            })
            .collect()
    }

    #[test]
    fn welding_numbers_positions_in_order_of_first_appearance() {
        for (n, seed) in [(0, 1), (1, 2), (7, 3), (500, 4), (5000, 5)] {
            let p = points(n, seed);
            let (at, index) = welded(p.clone());
            // By a hash map, as a reference.
            let mut seen: HashMap<[u32; 3], u32> = HashMap::new();
            let mut want_at = Vec::new();
            let want: Vec<u32> = p
                .iter()
                .map(|g| {
                    *seen.entry(g.map(f32::to_bits)).or_insert_with(|| {
                        want_at.push(*g);
                        (want_at.len() - 1) as u32
                    })
                })
                .collect();
            assert_eq!(index, want, "{n} points");
            assert_eq!(
                at.iter().map(|g| g.map(f32::to_bits)).collect::<Vec<_>>(),
                want_at.iter().map(|g| g.map(f32::to_bits)).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn a_triangle_of_no_normal_finds_the_last_neighbour_across_its_edges() {
        // A strip of four triangles over six vertices, the second of no
        // normal; edge (1, 2) is shared, as is (2, 3) twice (a fin).
        let tris = [[0, 1, 2], [2, 1, 3], [3, 4, 2], [2, 3, 5]];
        let normals = [Some([0.0, 0.0, 1.0]), None, Some([0.0, 1.0, 0.0]), None];
        let got = across(&tris, &normals);
        let mut want: HashMap<(u32, u32), usize> = HashMap::new();
        for (k, t) in tris.iter().enumerate() {
            for e in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                want.insert(e, k);
            }
        }
        for (t, n) in tris.iter().zip(&normals) {
            if n.is_some() {
                continue;
            }
            for e in [(t[1], t[0]), (t[2], t[1]), (t[0], t[2])] {
                let found = got.binary_search_by_key(&e, |&(e, _)| e).ok().map(|j| got[j].1);
                assert_eq!(found, want.get(&e).copied(), "edge {e:?}");
            }
        }
        assert!(got.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
