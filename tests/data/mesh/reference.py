"""The reference's meshes of the random documents here, stored once.

    cargo build --release --example mesh_grid
    for i in $(seq -w 1 30); do
      target/release/examples/mesh_grid tests/data/mesh/random_$i.sskb \
        $((100 + 10#$i)) $((2 + 10#$i % 4)) $((2 + 10#$i % 3))
    done
    /path/to/venv-with-ssk-1.5.0/bin/python tests/data/mesh/reference.py

For each `random_NN.sskb` beside this script: `ssk convert` at resolutions
8 and 32, the .glb read back (positions and indices of every primitive,
coincident vertices merged), and its triangles, volume, bounds (model axes,
millimetres) and whether every edge has exactly two faces, written to
`reference.json`. `tests/mesh.rs` compares our meshes with these figures;
CI never runs the reference.
"""

import json
import pathlib
import struct
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
SSK = pathlib.Path(sys.executable).with_name("ssk")

COMPONENT = {5121: "B", 5123: "H", 5125: "I", 5126: "f"}
WIDTH = {"SCALAR": 1, "VEC3": 3}


def accessor(doc, bin_, i):
    a = doc["accessors"][i]
    view = doc["bufferViews"][a["bufferView"]]
    fmt = COMPONENT[a["componentType"]]
    n = a["count"] * WIDTH[a["type"]]
    start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    values = struct.unpack_from(f"<{n}{fmt}", bin_, start)
    w = WIDTH[a["type"]]
    return [values[k:k + w] for k in range(0, n, w)] if w > 1 else list(values)


def measure(glb):
    length = struct.unpack_from("<I", glb, 12)[0]
    doc = json.loads(glb[20:20 + length])
    bin_ = glb[20 + length + 8:]
    merged, triangles = {}, []
    for mesh in doc.get("meshes", []):
        for prim in mesh["primitives"]:
            pos = accessor(doc, bin_, prim["attributes"]["POSITION"])
            idx = accessor(doc, bin_, prim["indices"]) if "indices" in prim else list(range(len(pos)))
            ids = [merged.setdefault(tuple(p), len(merged)) for p in pos]
            triangles += [(ids[idx[k]], ids[idx[k + 1]], ids[idx[k + 2]]) for k in range(0, len(idx), 3)]
    points = [None] * len(merged)
    for p, i in merged.items():
        # glTF metres, Y up, back to millimetres, Z up.
        points[i] = (1000.0 * p[0], -1000.0 * p[2], 1000.0 * p[1])
    volume = 0.0
    edges = {}
    for a, b, c in triangles:
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = points[a], points[b], points[c]
        volume += (ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)) / 6.0
        for e in ((a, b), (b, c), (c, a)):
            key = (min(e), max(e))
            edges[key] = edges.get(key, 0) + 1
    lo = [min(p[c] for p in points) for c in range(3)] if points else None
    hi = [max(p[c] for p in points) for c in range(3)] if points else None
    return {
        "triangles": len(triangles),
        "volume_mm3": round(volume, 3),
        "watertight": bool(edges) and all(n == 2 for n in edges.values()),
        "bounds_mm": [[round(x, 4) for x in lo], [round(x, 4) for x in hi]] if points else None,
    }


def main():
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(HERE.glob("random_*.sskb")):
            out[path.stem] = {}
            for n in (8, 32):
                glb = pathlib.Path(tmp) / f"{path.stem}_{n}.glb"
                r = subprocess.run([str(SSK), "convert", str(path), str(glb), "--resolution", str(n)],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    out[path.stem][str(n)] = {"error": (r.stderr or r.stdout).strip().splitlines()[-1]}
                else:
                    out[path.stem][str(n)] = measure(glb.read_bytes())
                print(path.stem, n, out[path.stem][str(n)], file=sys.stderr)
    (HERE / "reference.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
