"""The meshes the importer is judged on (docs/import.md).

    python3 tests/data/import/make.py OUT_DIR [SSKB]

writes OUT_DIR/NAME.glb for every case: models written here as .ssk and
meshed by `SSKB convert NAME.ssk NAME.glb --resolution 48` (SSKB defaults
to target/release/sskb), and meshes written here directly (a lumpy
scan-like blob) as .glb. Pure Python (the standard
library); the same files every run.

Kinds: primitives in rotated poses; composites with holes, bores and thin
walls; bent tubes and springs; random models of tests/data/mesh/generate.py
(seeds fixed); scan-like meshes.
"""

import json
import math
import pathlib
import random
import struct
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]


def v(x, y, z):
    return "{x: %r, y: %r, z: %r}" % (float(x), float(y), float(z))


def piece(pid, points, size, shape="circle", rotation=None, sides=None, mode=None, affects=None, extra=""):
    s = "  - id: %d\n    points:\n" % pid
    for p in points:
        if isinstance(p, dict):
            s += "      - {x: %r, y: %r, z: %r" % tuple(float(c) for c in p["at"])
            for k in ("curve_in", "curve_out", "size"):
                if k in p:
                    s += ", %s: %s" % (k, v(*p[k]))
            s += "}\n"
        else:
            s += "      - %s\n" % v(*p)
    s += "    size: %s\n    shape: %s\n" % (v(*size), shape)
    if sides:
        s += "    sides: %d\n" % sides
    if rotation:
        s += "    rotation: %s\n" % v(*rotation)
    if mode:
        s += "    mode: %s\n" % mode
    if affects is not None:
        s += "    affects: [%s]\n" % ", ".join(str(a) for a in affects)
    return s + extra


def doc(*pieces):
    return 'version: "1.0"\npieces:\n' + "".join(pieces)


def helix(r, pitch, turns, n_per_turn=8):
    pts = []
    for i in range(turns * n_per_turn + 1):
        a = 2 * math.pi * i / n_per_turn
        z = pitch * i / n_per_turn
        p = (r * math.cos(a), r * math.sin(a), z)
        t = (-math.sin(a), math.cos(a), pitch / (2 * math.pi * r))
        h = 4.0 / 3.0 * math.tan(math.pi / (2 * n_per_turn)) * r
        pt = {"at": p}
        if i > 0:
            pt["curve_in"] = tuple(p[j] - h * t[j] for j in range(3))
        if i < turns * n_per_turn:
            pt["curve_out"] = tuple(p[j] + h * t[j] for j in range(3))
        pts.append(pt)
    return pts


def ring(r, centre=(0, 0, 0)):
    pts = []
    h = 4.0 / 3.0 * math.tan(math.pi / 8) * r
    for i in range(5):
        a = math.pi / 2 * i
        p = (centre[0] + r * math.cos(a), centre[1] + r * math.sin(a), centre[2])
        t = (-math.sin(a), math.cos(a), 0)
        pt = {"at": p}
        if i > 0:
            pt["curve_in"] = tuple(p[j] - h * t[j] for j in range(3))
        if i < 4:
            pt["curve_out"] = tuple(p[j] + h * t[j] for j in range(3))
        pts.append(pt)
    return pts


MODELS = {
    # Primitives in rotated poses.
    "sphere": doc(piece(0, [(3, -4, 5)], (20, 20, 20))),
    "ellipsoid_tilted": doc(piece(0, [(0, 0, 0)], (30, 14, 8), rotation=(25, -40, 60))),
    "cylinder_tilted": doc(piece(0, [(0, 0, 0), (40, 25, 60)], (10, 10, 0))),
    "capsule_tilted": doc(piece(0, [(0, 0, 0), (-30, 40, 20)], (8, 8, 8))),
    "cube_rotated": doc(piece(0, [(0, 0, 0), (15, 20, 25)], (25, 25, 0), "ngon", (30, 10, 20), 4)),
    "hex_prism_rotated": doc(piece(0, [(0, 0, 0), (0, 30, 40)], (15, 15, 0), "ngon", (0, 0, 10), 6)),
    "cone": doc(piece(0, [{"at": (0, 0, 0), "size": (15, 15, 0)}, {"at": (10, 10, 50), "size": (0.5, 0.5, 0)}], (15, 15, 0))),
    "torus_tilted": doc(piece(0, ring(30), (7, 7, 0), rotation=(0, 0, 0))),
    "elliptic_rod": doc(piece(0, [(0, 0, 0), (70, 0, 10)], (12, 5, 0), rotation=(0, 0, 30))),
    # Composites: holes, bores, thin walls.
    "plate_with_holes": doc(
        piece(0, [(0, 0, 0), (0, 0, 8)], (42.43, 42.43, 0), "ngon", (0, 0, 45), 4),
        piece(1, [(-12, -12, -1), (-12, -12, 9)], (5, 5, 0), mode="subtract"),
        piece(2, [(12, 12, -1), (12, 12, 9)], (5, 5, 0), mode="subtract"),
        piece(3, [(12, -12, -1), (12, -12, 9)], (5, 5, 0), mode="subtract"),
    ),
    "pipe": doc(
        piece(0, [(0, 0, 0), (0, 0, 80)], (15, 15, 0)),
        piece(1, [(0, 0, -1), (0, 0, 81)], (11, 11, 0), mode="subtract"),
    ),
    "hollow_box": doc(
        piece(0, [(0, 0, 0), (0, 0, 40)], (42.43, 42.43, 0), "ngon", (0, 0, 45), 4),
        piece(1, [(0, 0, 2), (0, 0, 38)], (39.6, 39.6, 0), "ngon", (0, 0, 45), 4, mode="subtract"),
    ),
    "dumbbell": doc(
        piece(0, [(-40, 0, 0)], (15, 15, 15)),
        piece(1, [(40, 0, 0)], (15, 15, 15)),
        piece(2, [(-40, 0, 0), (40, 0, 0)], (5, 5, 0)),
    ),
    "table": doc(
        piece(0, [(0, 0, 40), (0, 0, 44)], (56.57, 56.57, 0), "ngon", (0, 0, 45), 4),
        piece(1, [(-30, -30, 0), (-30, -30, 40)], (3, 3, 0)),
        piece(2, [(30, -30, 0), (30, -30, 40)], (3, 3, 0)),
        piece(3, [(-30, 30, 0), (-30, 30, 40)], (3, 3, 0)),
        piece(4, [(30, 30, 0), (30, 30, 40)], (3, 3, 0)),
    ),
    "cross": doc(
        piece(0, [(-40, 0, 0), (40, 0, 0)], (8.49, 8.49, 0), "ngon", (45, 0, 0), 4),
        piece(1, [(0, -40, 0), (0, 40, 0)], (8.49, 8.49, 0), "ngon", (0, 45, 0), 4),
        piece(2, [(0, 0, -40), (0, 0, 40)], (8.49, 8.49, 0), "ngon", (0, 0, 45), 4),
    ),
    "l_bracket": doc(
        piece(0, [(0, 0, 0), (60, 0, 0)], (14.14, 14.14, 0), "ngon", (45, 0, 0), 4),
        piece(1, [(0, 0, 0), (0, 0, 50)], (14.14, 14.14, 0), "ngon", (0, 0, 45), 4),
    ),
    # Parts cut flat: a tilted ellipsoid halved across its short axis (the
    # square prism's axis is the ellipsoid's local Z), a rod halved along
    # its axis (the prism's face through it), and a rod with a shallow
    # flat (the face 3.5 from the axis of a rod of radius 8).
    "dome_tilted": doc(
        piece(0, [(0, 0, 0)], (20, 14, 9), rotation=(25, -15, 40), mode="intersect", affects=[1]),
        piece(1, [(0, 0, 0), (2.7589, -14.2357, 26.2628)], (40, 40, 0), "ngon", (25, -15, 40), 4, mode="intersect", affects=[0]),
    ),
    "half_rod": doc(
        piece(0, [(0, 0, 0), (10, 30, 40)], (8, 8, 0), mode="intersect", affects=[1]),
        piece(1, [(11.767, 8.188, -9.0827), (21.767, 38.188, 30.9173)], (24, 24, 0), "ngon", None, 4, mode="intersect", affects=[0]),
    ),
    "d_shaft": doc(
        piece(0, [(0, 0, 0), (15.1409, -17.6388, 32.5519)], (8, 8, 0), rotation=(30, 20, 10), mode="intersect", affects=[1]),
        piece(1, [(3.3356, 3.6972, 0.4519), (18.4765, -13.9415, 33.0038)], (12, 12, 0), "ngon", (30, 20, 10), 4, mode="intersect", affects=[0]),
    ),
    # Bent tubes and springs.
    "bent_pipe": doc(
        piece(0, [{"at": (0, 0, 0), "curve_out": (0, 0, 40)}, {"at": (50, 0, 50), "curve_in": (10, 0, 50)}], (6, 6, 0))
    ),
    "u_tube": doc(
        piece(
            0,
            [(0, 0, 0), {"at": (0, 0, 40), "curve_out": (0, 0, 70)}, {"at": (40, 0, 40), "curve_in": (40, 0, 70)}, (40, 0, 0)],
            (5, 5, 0),
        )
    ),
    "spring": doc(piece(0, helix(20, 12, 4), (3, 3, 0))),
    "s_rod": doc(
        piece(0, [{"at": (0, 0, 0), "curve_out": (40, 0, 0)}, {"at": (40, 40, 10), "curve_in": (0, 40, 10)}], (5, 5, 4))
    ),
    "ring_on_post": doc(
        piece(0, ring(25, (0, 0, 60)), (4, 4, 0)),
        piece(1, [(25, 0, 0), (25, 0, 60)], (4, 4, 0)),
    ),
    # Bent bars of triangular section: a regular one turned 30°, and one
    # flattened 4 × 2 along its corner's axis.
    "triangle_bars": doc(
        piece(0, [{"at": (0, 0, 0), "curve_out": (10, 0, 0)}, {"at": (20, 15, 3), "curve_in": (20, 5, 2)}], (3, 3, 0), "ngon", (0, 0, 30), 3),
        piece(1, [{"at": (0, 30, 0), "curve_out": (10, 30, 0)}, {"at": (20, 45, 3), "curve_in": (20, 35, 2)}], (4, 2, 0), "ngon", None, 3),
    ),
}


def blob(seed, n=40):
    """A lumpy closed surface (a scan-like blob): a sphere's radius moved
    by a few smooth bumps. Vertices and triangles, metres Y up."""
    rng = random.Random(seed)
    bumps = [(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.1, 0.35)) for _ in range(6)]
    verts, faces = [], []
    for i in range(n + 1):
        th = math.pi * i / n
        for j in range(2 * n):
            ph = 2 * math.pi * j / (2 * n)
            d = (math.sin(th) * math.cos(ph), math.cos(th), math.sin(th) * math.sin(ph))
            r = 1.0
            for bx, by, bz, h in bumps:
                ln = math.sqrt(bx * bx + by * by + bz * bz) or 1
                dot = (d[0] * bx + d[1] * by + d[2] * bz) / ln
                r += h * math.exp(-6 * (1 - dot))
            s = 0.03 * r
            verts.append((s * d[0] * 1.3, s * d[1], s * d[2] * 0.8))
    idx = lambda i, j: i * 2 * n + (j % (2 * n))
    for i in range(n):
        for j in range(2 * n):
            a, b, c, d = idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1)
            if i > 0:
                faces.append((a, d, c))
            if i < n - 1:
                faces.append((a, c, b))
    return verts, faces


def write_glb(path, verts, faces):
    # Drop vertices no face uses (the poles' copies) by welding equal ones.
    key = {}
    out_v, remap = [], []
    for p in verts:
        k = tuple(round(c, 12) for c in p)
        if k not in key:
            key[k] = len(out_v)
            out_v.append(p)
        remap.append(key[k])
    tris = [tuple(remap[i] for i in f) for f in faces]
    tris = [t for t in tris if len(set(t)) == 3]
    pos = b"".join(struct.pack("<3f", *p) for p in out_v)
    ind = b"".join(struct.pack("<3I", *t) for t in tris)
    lo = [min(p[k] for p in out_v) for k in range(3)]
    hi = [max(p[k] for p in out_v) for k in range(3)]
    gltf = {
        "asset": {"version": "2.0", "generator": "tests/data/import/make.py"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": len(out_v), "type": "VEC3", "min": lo, "max": hi},
            {"bufferView": 1, "componentType": 5125, "count": 3 * len(tris), "type": "SCALAR"},
        ],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": len(pos)},
            {"buffer": 0, "byteOffset": len(pos), "byteLength": len(ind)},
        ],
        "buffers": [{"byteLength": len(pos) + len(ind)}],
    }
    j = json.dumps(gltf, separators=(",", ":")).encode()
    j += b" " * (-len(j) % 4)
    b = pos + ind
    b += b"\0" * (-len(b) % 4)
    total = 12 + 8 + len(j) + 8 + len(b)
    path.write_bytes(
        b"glTF" + struct.pack("<II", 2, total) + struct.pack("<I", len(j)) + b"JSON" + j + struct.pack("<I", len(b)) + b"BIN\0" + b
    )


def glb_volume(path):
    """The signed volume of a .glb's first primitive and its box's (m³)."""
    data = path.read_bytes()
    jlen = struct.unpack_from("<I", data, 12)[0]
    g = json.loads(data[20 : 20 + jlen])
    bin_ = data[20 + jlen + 8 :]
    prim = g["meshes"][0]["primitives"][0]

    def read(acc_i, fmt, width):
        acc = g["accessors"][acc_i]
        view = g["bufferViews"][acc["bufferView"]]
        off = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        size = struct.calcsize("<" + fmt)
        stride = view.get("byteStride", size * width)
        return [struct.unpack_from("<%d%s" % (width, fmt), bin_, off + i * stride) for i in range(acc["count"])]

    pos = read(prim["attributes"]["POSITION"], "f", 3)
    if "indices" in prim:
        kind = {5121: "B", 5123: "H", 5125: "I"}[g["accessors"][prim["indices"]]["componentType"]]
        idx = [i[0] for i in read(prim["indices"], kind, 1)]
    else:
        idx = list(range(len(pos)))
    vol = 0.0
    for t in range(0, len(idx) - 2, 3):
        a, b, c = pos[idx[t]], pos[idx[t + 1]], pos[idx[t + 2]]
        vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0
    lo = [min(p[k] for p in pos) for k in range(3)]
    hi = [max(p[k] for p in pos) for k in range(3)]
    return vol, (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])


def main():
    out = pathlib.Path(sys.argv[1])
    sskb = sys.argv[2] if len(sys.argv) > 2 else str(ROOT / "target" / "release" / "sskb")
    out.mkdir(parents=True, exist_ok=True)
    for name, text in MODELS.items():
        (out / (name + ".ssk")).write_text(text)
    # Random models of the mesh tests' generator (a few pieces each).
    gen = ROOT / "tests" / "data" / "mesh" / "generate.py"
    rnd = out / "random"
    subprocess.run([sys.executable, str(gen), str(rnd), "8", "29"], check=True)
    for f in sorted(rnd.glob("doc_*.ssk"))[:8]:
        (out / ("random_" + f.stem[4:] + ".ssk")).write_text(f.read_text())
    # (Not compare.py's imports, NAME.ours.ssk, from an earlier run.)
    for f in sorted(f for f in out.glob("*.ssk") if not f.name.endswith(".ours.ssk")):
        glb = f.with_suffix(".glb")
        subprocess.run([sskb, "convert", str(f), str(glb), "--resolution", "48"], check=True)
        # A random model that is only sheets has no volume to fill.
        vol, box = glb_volume(glb)
        if vol <= 1e-3 * box:
            glb.unlink()
            f.unlink()
    for seed in (1, 2, 3):
        write_glb(out / ("scan_blob_%d.glb" % seed), *blob(seed))


if __name__ == "__main__":
    main()
