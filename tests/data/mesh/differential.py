"""Our meshes against the reference's, by hand (never in CI).

    cargo build --release --example mesh_pieces
    python3 tests/data/mesh/generate.py /tmp/docs 200 7
    /path/to/venv-with-ssk-1.5.0/bin/python tests/data/mesh/differential.py \
        --resolutions 8 32 [--store OUT.json] -- /tmp/docs/*.ssk

For each document and resolution: `ssk convert` and `sskb convert` (from
target/release), both .glb files read back (coincident vertices merged),
and their volumes and bounds compared: they agree when the volumes are
within 3% (or both below 1e-3 mm³) and every bound within 1.5% of the
bounding box's diagonal. A disagreement is explained when a piece's own
sweep folds through itself (`examples/mesh_pieces` says `folds true`):
there the reference's output counts the overlap twice (its mesh is not a
solid) and ours is the swept volume. Prints one line per document and
resolution, then the counts. With --store, writes the reference's figures
(per document and resolution) to OUT.json for `tests/mesh_reference.rs`.
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))
from reference import measure  # noqa: E402

SSK = pathlib.Path(sys.executable).with_name("ssk")
SSKB = ROOT / "target" / "release" / "sskb"
PIECES = ROOT / "target" / "release" / "examples" / "mesh_pieces"


def agree(a, b):
    # The reference refuses to write an empty model; we write a glTF with
    # no mesh (and warn).
    if "empty geometry" in a.get("error", "") and b.get("triangles") == 0:
        return True
    if "error" in a or "error" in b:
        return False
    if a["bounds_mm"] is None or b["bounds_mm"] is None:
        return a["bounds_mm"] is None and b["bounds_mm"] is None
    lo, hi = a["bounds_mm"]
    diag = sum((h - l) ** 2 for l, h in zip(lo, hi)) ** 0.5
    va, vb = a["volume_mm3"], b["volume_mm3"]
    vol_ok = abs(va - vb) <= 0.03 * max(abs(va), abs(vb)) or max(abs(va), abs(vb)) < 1e-3
    bounds_ok = all(
        abs(x - y) <= 0.015 * diag + 1e-4
        for pa, pb in zip(a["bounds_mm"], b["bounds_mm"])
        for x, y in zip(pa, pb)
    )
    return vol_ok and bounds_ok


def folding(path, n):
    r = subprocess.run([str(PIECES), str(path), str(n)], capture_output=True, text=True)
    return [line.split()[0] for line in r.stdout.splitlines() if line.endswith("folds true")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--resolutions", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--store")
    ap.add_argument("docs", nargs="+")
    args = ap.parse_args()
    stored = {}
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for doc in map(pathlib.Path, args.docs):
            for n in args.resolutions:
                ref = run(SSK, doc, n, tmp)
                ours = run(SSKB, doc, n, tmp)
                stored.setdefault(doc.stem, {})[str(n)] = ref
                if agree(ref, ours):
                    verdict = "agree"
                else:
                    folds = folding(doc, n)
                    if folds and "error" not in ours:
                        verdict = "explained: piece(s) " + ",".join(folds) + " fold through themselves"
                    elif "error" not in ref and ref["volume_mm3"] < 0:
                        verdict = "explained: the reference's volume is negative"
                    else:
                        verdict = "DIFFER"
                counts[verdict.split(":")[0]] = counts.get(verdict.split(":")[0], 0) + 1
                print(f"{doc.stem} @{n}: {verdict}\n    ref  {ref}\n    ours {ours}", flush=True)
    print(" ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    if args.store:
        pathlib.Path(args.store).write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")


def run(tool, doc, n, tmp):
    """`TOOL convert DOC OUT.glb --resolution N`, the .glb measured."""
    out = pathlib.Path(tmp) / f"{pathlib.Path(tool).name}.glb"
    if out.exists():
        out.unlink()
    r = subprocess.run([str(tool), "convert", str(doc), str(out), "--resolution", str(n)],
                       capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        return {"error": (r.stderr.strip().splitlines() or ["?"])[-1]}
    return measure(out.read_bytes())


if __name__ == "__main__":
    main()
