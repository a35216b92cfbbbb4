//! glTF 2.0 in (`.glb`, `.gltf` with its buffers): every triangle primitive
//! of the default scene, node transforms applied, metres Y up turned into
//! millimetres Z up as the reference turns them: `(x, −z, y) · 1000`.
//!
//! The JSON is read by `gltf-json`; the container, the buffers and the
//! accessors by this file, every offset and count checked against the
//! bytes in hand before anything is allocated for them.

use std::borrow::Cow;

use gltf_json::accessor::{ComponentType, Type};
use gltf_json::mesh::{Mode, Semantic};
use gltf_json::validation::Checked;
use gltf_json::{Index, Root};

use super::{bad, Soup};
use crate::error::{ErrorKind, Result};
use crate::Error;

const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;
/// Deeper node trees than this are refused (a cycle is refused anyway).
const MAX_DEPTH: usize = 1024;

/// Whether the bytes are a binary glTF container.
pub(super) fn is_glb(bytes: &[u8]) -> bool {
    bytes.starts_with(GLB_MAGIC)
}

/// Reads a `.glb` or a `.gltf`; `external` loads a buffer's `uri` that is
/// not a `data:` URI (a file beside the `.gltf`).
pub(super) fn read(bytes: &[u8], external: &mut dyn FnMut(&str) -> Result<Vec<u8>>, soup: &mut Soup) -> Result<()> {
    let (json, bin) = if is_glb(bytes) { glb(bytes)? } else { (bytes, None) };
    let root: Root = serde_json::from_slice(json).map_err(|e| bad(format!("the glTF JSON cannot be read: {e}")))?;
    for ext in root.extensions_required.iter().chain(&root.extensions_used) {
        if matches!(
            ext.as_str(),
            "KHR_draco_mesh_compression" | "EXT_meshopt_compression" | "KHR_meshopt_compression"
        ) {
            return Err(bad(format!(
                "the file uses the compressed-mesh extension {ext}, which cannot be read here; \
                 export it without mesh compression"
            )));
        }
        if ext == "KHR_mesh_quantization" {
            return Err(bad(
                "the file uses KHR_mesh_quantization (integer positions), which cannot be read here; \
                 export it with float positions",
            ));
        }
    }
    // Buffers: each one's bytes, at most its declared length.
    // The binary chunk's bytes are borrowed, not copied.
    let mut buffers: Vec<Cow<'_, [u8]>> = Vec::with_capacity(root.buffers.len().min(1024));
    for (i, b) in root.buffers.iter().enumerate() {
        let data = match b.uri.as_deref() {
            None if i == 0 => bin
                .map(Cow::Borrowed)
                .ok_or_else(|| bad("buffer 0 has no uri and the file has no binary chunk").path("buffers[0]"))?,
            None => return Err(bad("a buffer other than the first has no uri").path(format!("buffers[{i}]"))),
            Some(uri) if uri.starts_with("data:") => {
                Cow::Owned(data_uri(uri).map_err(|e| e.path(format!("buffers[{i}].uri")))?)
            }
            Some(uri) => Cow::Owned(external(uri).map_err(|e| e.path(format!("buffers[{i}].uri")))?),
        };
        let declared = usize::try_from(b.byte_length.0).unwrap_or(usize::MAX);
        if data.len() < declared {
            return Err(Error::new(
                ErrorKind::Truncated,
                format!("buffer {i} declares {declared} bytes but has {}", data.len()),
            )
            .path(format!("buffers[{i}]")));
        }
        buffers.push(data);
    }
    let reader = Reader {
        root: &root,
        buffers: &buffers,
    };
    // The default scene, else the first, else every node no other names
    // as a child.
    let scene = root.scene.map(|s| s.value()).or((!root.scenes.is_empty()).then_some(0));
    let tops: Vec<usize> = match scene {
        Some(s) => {
            let scene = root
                .scenes
                .get(s)
                .ok_or_else(|| bad(format!("the default scene {s} does not exist")))?;
            scene.nodes.iter().map(|n| n.value()).collect()
        }
        None => {
            let mut child = vec![false; root.nodes.len()];
            for n in &root.nodes {
                for c in n.children.iter().flatten() {
                    if let Some(x) = child.get_mut(c.value()) {
                        *x = true;
                    }
                }
            }
            (0..root.nodes.len()).filter(|&i| !child[i]).collect()
        }
    };
    // Depth-first over the node tree, each node's world matrix carried
    // down; a node met twice on one branch is a cycle.
    let mut stack: Vec<(usize, [f64; 16], usize)> = tops.into_iter().rev().map(|n| (n, IDENTITY, 0)).collect();
    // glTF's nodes form a forest: a node met twice is a cycle or a node
    // with two parents, both refused, so the walk visits each node once.
    let mut seen = vec![false; root.nodes.len()];
    while let Some((n, parent, depth)) = stack.pop() {
        let node = root
            .nodes
            .get(n)
            .ok_or_else(|| bad(format!("node {n} does not exist")))?;
        if depth > MAX_DEPTH {
            return Err(bad(format!("the node tree is deeper than {MAX_DEPTH}")).path(format!("nodes[{n}]")));
        }
        if std::mem::replace(&mut seen[n], true) {
            return Err(
                bad("a node is reached twice: the node tree has a cycle, or a node two parents")
                    .path(format!("nodes[{n}]")),
            );
        }
        let world = mul(&parent, &local(node).map_err(|e| e.path(format!("nodes[{n}]")))?);
        if let Some(m) = node.mesh {
            reader
                .mesh(m, &world, soup)
                .map_err(|e| within(e, &format!("nodes[{n}].mesh")))?;
        }
        for c in node.children.iter().flatten().rev() {
            stack.push((c.value(), world, depth + 1));
        }
    }
    Ok(())
}

/// The error with its JSON path set to `at`, unless it names a more
/// precise place already (an accessor, a buffer).
fn within(e: Error, at: &str) -> Error {
    if e.field_path().is_some() {
        e
    } else {
        e.path(at)
    }
}

/// The JSON chunk and the binary chunk of a `.glb`.
fn glb(bytes: &[u8]) -> Result<(&[u8], Option<&[u8]>)> {
    let word = |at: usize| -> Option<u32> {
        bytes
            .get(at..at + 4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    };
    let short = |at: usize, what: &str| {
        Error::new(ErrorKind::Truncated, format!("the .glb ends inside its {what}")).at(at as u64)
    };
    let version = word(4).ok_or_else(|| short(4, "header"))?;
    if version != 2 {
        return Err(bad(format!("glTF container version {version}; only version 2 is read")).at(4));
    }
    let length = word(8).ok_or_else(|| short(8, "header"))? as usize;
    if length > bytes.len() {
        return Err(Error::new(
            ErrorKind::Truncated,
            format!("the .glb header says {length} bytes but the file has {}", bytes.len()),
        )
        .at(8));
    }
    let bytes = &bytes[..length];
    let mut at = 12usize;
    let (mut json, mut bin) = (None, None);
    while at < bytes.len() {
        let len = word(at).ok_or_else(|| short(at, "chunk header"))? as usize;
        let kind = word(at + 4).ok_or_else(|| short(at + 4, "chunk header"))?;
        let start = at + 8;
        let end = start.checked_add(len).filter(|&e| e <= bytes.len()).ok_or_else(|| {
            Error::new(
                ErrorKind::Truncated,
                format!(
                    "a chunk of {len} bytes at {at} runs past the end of the .glb ({} bytes)",
                    bytes.len()
                ),
            )
            .at(at as u64)
        })?;
        match kind {
            CHUNK_JSON if json.is_none() => json = Some(&bytes[start..end]),
            CHUNK_BIN if bin.is_none() => bin = Some(&bytes[start..end]),
            _ => {}
        }
        at = end;
    }
    let json = json.ok_or_else(|| bad("the .glb has no JSON chunk").at(12))?;
    Ok((json, bin))
}

/// The bytes of a base64 `data:` URI.
fn data_uri(uri: &str) -> Result<Vec<u8>> {
    let (head, body) = uri.split_once(',').ok_or_else(|| bad("a data: URI without a comma"))?;
    if !head.ends_with(";base64") {
        return Err(bad("a data: URI that is not base64"));
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in body.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ => return Err(bad(format!("a data: URI with '{}' at {} of its base64", c as char, i))),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

const IDENTITY: [f64; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// A node's own matrix (column-major, as glTF stores it).
fn local(node: &gltf_json::scene::Node) -> Result<[f64; 16]> {
    let m = if let Some(m) = node.matrix {
        m.map(f64::from)
    } else {
        let t = node.translation.unwrap_or([0.0; 3]).map(f64::from);
        let s = node.scale.unwrap_or([1.0; 3]).map(f64::from);
        let [x, y, z, w] = node.rotation.map_or([0.0, 0.0, 0.0, 1.0], |q| q.0).map(f64::from);
        let n = (x * x + y * y + z * z + w * w).sqrt();
        if !(n > 0.0 && n.is_finite()) {
            return Err(bad("a rotation quaternion of length 0 or not finite"));
        }
        let (x, y, z, w) = (x / n, y / n, z / n, w / n);
        let r = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + z * w),
                2.0 * (x * z - y * w),
            ],
            [
                2.0 * (x * y - z * w),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + x * w),
            ],
            [
                2.0 * (x * z + y * w),
                2.0 * (y * z - x * w),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
        // Columns: R's columns scaled, then the translation.
        [
            r[0][0] * s[0],
            r[0][1] * s[0],
            r[0][2] * s[0],
            0.0,
            r[1][0] * s[1],
            r[1][1] * s[1],
            r[1][2] * s[1],
            0.0,
            r[2][0] * s[2],
            r[2][1] * s[2],
            r[2][2] * s[2],
            0.0,
            t[0],
            t[1],
            t[2],
            1.0,
        ]
    };
    if m.iter().any(|x| !x.is_finite()) {
        return Err(Error::new(
            ErrorKind::NonFinite,
            "a node transform with a value that is not finite",
        ));
    }
    Ok(m)
}

/// `a · b`, column-major 4×4.
fn mul(a: &[f64; 16], b: &[f64; 16]) -> [f64; 16] {
    let mut m = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            m[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    m
}

struct Reader<'a> {
    root: &'a Root,
    buffers: &'a [Cow<'a, [u8]>],
}

/// An accessor's elements in place: where they start, their stride, how
/// many, and the buffer they are in.
struct Elements<'a> {
    data: &'a [u8],
    start: usize,
    stride: usize,
    count: usize,
    component: ComponentType,
}

impl Reader<'_> {
    fn mesh(&self, m: Index<gltf_json::Mesh>, world: &[f64; 16], soup: &mut Soup) -> Result<()> {
        let mi = m.value();
        let mesh = self
            .root
            .meshes
            .get(mi)
            .ok_or_else(|| bad(format!("mesh {mi} does not exist")))?;
        for (pi, p) in mesh.primitives.iter().enumerate() {
            let at = format!("meshes[{mi}].primitives[{pi}]");
            self.primitive(p, world, soup).map_err(|e| within(e, &at))?;
        }
        Ok(())
    }

    fn primitive(&self, p: &gltf_json::mesh::Primitive, world: &[f64; 16], soup: &mut Soup) -> Result<()> {
        let mode = match p.mode {
            Checked::Valid(m) => m,
            Checked::Invalid => return Err(bad("a primitive mode outside 0–6")),
        };
        if matches!(mode, Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip) {
            soup.note(format!("{mode:?} primitives carry no volume and were ignored"));
            return Ok(());
        }
        let pos = p
            .attributes
            .iter()
            .find(|(k, _)| matches!(k, Checked::Valid(Semantic::Positions)))
            .map(|(_, v)| *v)
            .ok_or_else(|| bad("a triangle primitive without POSITION"))?;
        let e = self.elements(pos, Type::Vec3)?;
        if e.component != ComponentType::F32 {
            return Err(bad("POSITION is not float; quantized positions cannot be read here"));
        }
        // Vertices: transformed, then Y-up metres to Z-up millimetres.
        let base = soup.positions.len();
        let det = world[0] * (world[5] * world[10] - world[9] * world[6])
            - world[4] * (world[1] * world[10] - world[9] * world[2])
            + world[8] * (world[1] * world[6] - world[5] * world[2]);
        soup.positions.reserve(e.count);
        for i in 0..e.count {
            let at = e.start + i * e.stride;
            let f = |k: usize| {
                let b = &e.data[at + 4 * k..at + 4 * k + 4];
                f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            };
            let (x, y, z) = (f(0), f(1), f(2));
            if !(x.is_finite() && y.is_finite() && z.is_finite()) {
                return Err(Error::new(
                    ErrorKind::NonFinite,
                    format!("vertex {i} has a position that is not finite"),
                ));
            }
            let w = |r: usize| world[r] * x + world[4 + r] * y + world[8 + r] * z + world[12 + r];
            let (gx, gy, gz) = (w(0), w(1), w(2));
            soup.positions.push([gx * 1000.0, -gz * 1000.0, gy * 1000.0]);
        }
        let n = e.count;
        let index = |i: usize| -> Result<u32> {
            if i >= n {
                return Err(bad(format!(
                    "index {i} is out of range: the primitive has {n} vertices"
                )));
            }
            u32::try_from(base + i).map_err(|_| bad("more than 2³² vertices"))
        };
        let indices: Vec<u32> = match p.indices {
            Some(ix) => {
                let e = self.elements(ix, Type::Scalar)?;
                let mut v = Vec::with_capacity(e.count);
                for i in 0..e.count {
                    let at = e.start + i * e.stride;
                    v.push(match e.component {
                        ComponentType::U8 => u32::from(e.data[at]),
                        ComponentType::U16 => u32::from(u16::from_le_bytes([e.data[at], e.data[at + 1]])),
                        ComponentType::U32 => {
                            u32::from_le_bytes([e.data[at], e.data[at + 1], e.data[at + 2], e.data[at + 3]])
                        }
                        _ => return Err(bad("indices that are not unsigned integers")),
                    });
                }
                v
            }
            None => (0..u32::try_from(n).map_err(|_| bad("more than 2³² vertices"))?).collect(),
        };
        let flip = det < 0.0;
        let mut push = |a: u32, b: u32, c: u32| -> Result<()> {
            let t = [index(a as usize)?, index(b as usize)?, index(c as usize)?];
            soup.triangles.push(if flip { [t[0], t[2], t[1]] } else { t });
            Ok(())
        };
        match mode {
            Mode::TriangleStrip => {
                for i in 0..indices.len().saturating_sub(2) {
                    let (a, b, c) = (indices[i], indices[i + 1], indices[i + 2]);
                    if i % 2 == 0 {
                        push(a, b, c)?;
                    } else {
                        push(b, a, c)?;
                    }
                }
            }
            Mode::TriangleFan => {
                for i in 1..indices.len().saturating_sub(1) {
                    push(indices[0], indices[i], indices[i + 1])?;
                }
            }
            _ => {
                if indices.len() % 3 != 0 {
                    return Err(bad(format!("{} indices, not a multiple of 3", indices.len())));
                }
                for t in indices.chunks_exact(3) {
                    push(t[0], t[1], t[2])?;
                }
            }
        }
        Ok(())
    }

    /// Where accessor `a`'s elements lie, every byte of them checked to
    /// be in its buffer view and buffer.
    fn elements(&self, a: Index<gltf_json::Accessor>, want: Type) -> Result<Elements<'_>> {
        let ai = a.value();
        let at = |e: Error| e.path(format!("accessors[{ai}]"));
        let acc = self
            .root
            .accessors
            .get(ai)
            .ok_or_else(|| bad(format!("accessor {ai} does not exist")))?;
        if acc.sparse.is_some() {
            return Err(at(bad("sparse accessors cannot be read here")));
        }
        match acc.type_ {
            Checked::Valid(t) if t == want => {}
            _ => return Err(at(bad(format!("the accessor is not {want:?}")))),
        }
        let component = match acc.component_type {
            Checked::Valid(c) => c.0,
            Checked::Invalid => return Err(at(bad("an unknown componentType"))),
        };
        let size = match component {
            ComponentType::I8 | ComponentType::U8 => 1,
            ComponentType::I16 | ComponentType::U16 => 2,
            ComponentType::U32 | ComponentType::F32 => 4,
        } * if want == Type::Vec3 { 3 } else { 1 };
        let count = usize::try_from(acc.count.0).map_err(|_| at(bad("a count beyond this machine")))?;
        let Some(vi) = acc.buffer_view else {
            return Err(at(bad("an accessor without a bufferView (all zeros) has no geometry")));
        };
        let vi = vi.value();
        let view = self
            .root
            .buffer_views
            .get(vi)
            .ok_or_else(|| at(bad(format!("bufferView {vi} does not exist"))))?;
        let bi = view.buffer.value();
        let data = self
            .buffers
            .get(bi)
            .ok_or_else(|| at(bad(format!("buffer {bi} does not exist"))))?;
        let big = |what: &str| -> Error {
            at(Error::new(
                ErrorKind::CountExceedsRemaining,
                format!("{what} runs past the end of buffer {bi} ({} bytes)", data.len()),
            ))
        };
        let voff = usize::try_from(view.byte_offset.map_or(0, |o| o.0)).map_err(|_| big("bufferView offset"))?;
        let vlen = usize::try_from(view.byte_length.0).map_err(|_| big("bufferView length"))?;
        let vend = voff
            .checked_add(vlen)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| big(&format!("bufferView {vi}")))?;
        let stride = view.byte_stride.map_or(size, |s| s.0);
        if stride < size {
            return Err(at(bad(format!(
                "byteStride {stride} is less than the element's {size} bytes"
            ))));
        }
        let aoff = usize::try_from(acc.byte_offset.map_or(0, |o| o.0)).map_err(|_| big("accessor offset"))?;
        let start = voff.checked_add(aoff).ok_or_else(|| big("accessor offset"))?;
        if count > 0 {
            // The last element must end inside the view: count is checked
            // against the bytes before anything is allocated for it.
            let end = count
                .checked_sub(1)
                .and_then(|c| c.checked_mul(stride))
                .and_then(|x| x.checked_add(start))
                .and_then(|x| x.checked_add(size))
                .filter(|&e| e <= vend)
                .ok_or_else(|| {
                    at(Error::new(
                        ErrorKind::CountExceedsRemaining,
                        format!("{count} elements of {size} bytes every {stride} do not fit in bufferView {vi} ({vlen} bytes)"),
                    ))
                })?;
            debug_assert!(end <= data.len());
        }
        Ok(Elements {
            data,
            start,
            stride,
            count,
            component,
        })
    }
}
