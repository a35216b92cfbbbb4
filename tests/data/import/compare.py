"""Our import against the reference's, judged by the reference's scorer.

By hand, never in CI (it needs the reference, ssk 1.5.0, with trimesh):

    python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install ssk==1.5.0 trimesh
    python3 tests/data/import/make.py /tmp/iset
    /tmp/refvenv/bin/python tests/data/import/compare.py /tmp/iset [SSKB] > tests/data/import/results.json

With REUSE_REF=results.json in the environment, the reference's own
imports are taken from that file instead of being made again (they do not
change; only ours are made and scored again).

For each NAME.glb in the directory: the reference's `import_gltf_to_ssk`
and `sskb convert NAME.glb NAME.ours.ssk`, both documents scored by
`ssklib.gltf_to_ssk.score_document_against_mesh` (default weights) on the
mesh as the reference loads it; the score of NAME.ssk, the model the
mesh was made from, where there is one (the most a recovery can expect
from this scorer); the exact bounding box's score (coverage
100%, overfill 1 − V/V_box, one piece of two points); the overlap
(intersection over union) from coverage c and overfill o:
c / (1 + c·o / (1 − o)). One JSON object: rows and medians.
"""

import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

import numpy as np
import yaml
from ssklib import gltf_to_ssk as g

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]


def overlap(cov, over):
    c, o = cov / 100.0, over / 100.0
    if c <= 0:
        return 0.0
    if o >= 1:
        return 0.0
    return 100.0 * c / (1 + c * o / (1 - o))


def volume(v, f):
    t = v[f]
    return abs(np.einsum("ij,ij->i", t[:, 0], np.cross(t[:, 1], t[:, 2])).sum() / 6.0)


def scored(document, sv, sf):
    """The reference's score of `document` against the mesh, and overlap."""
    q = g.score_document_against_mesh(document, sv, sf)
    return {
        "score": q.score,
        "coverage": q.coverage_percent,
        "overfill": q.overfill_percent,
        "overlap": overlap(q.coverage_percent, q.overfill_percent),
    }


def main():
    d = pathlib.Path(sys.argv[1])
    sskb = sys.argv[2] if len(sys.argv) > 2 else str(ROOT / "target" / "release" / "sskb")
    rows = []
    reuse = {}
    if os.environ.get("REUSE_REF"):
        reuse = {r["name"]: r for r in json.loads(pathlib.Path(os.environ["REUSE_REF"]).read_text())["rows"]}
    for path in sorted(d.glob("*.glb")):
        mesh = g._load_mesh(path)
        sv, sf = g._weld_and_remove_degenerates(g._gltf_to_ssk(np.asarray(mesh.vertices, dtype=np.float64)), np.asarray(mesh.faces))
        row = {"name": path.stem, "triangles": int(len(sf))}
        t = time.time()
        out = path.with_suffix(".ours.ssk")
        p = subprocess.run([sskb, "convert", str(path), str(out)], capture_output=True, text=True)
        row["ours_seconds"] = round(time.time() - t, 3)
        if p.returncode != 0:
            row["ours_error"] = p.stderr.strip()
        else:
            ours = yaml.safe_load(out.read_text())
            row["ours"] = {
                **scored(ours, sv, sf),
                "pieces": len(ours["pieces"]),
                "line": p.stderr.strip().splitlines()[-1],
                "document": out.read_text(),
            }
        t = time.time()
        if path.stem in reuse and "ref" in reuse[path.stem]:
            row["ref_seconds"] = reuse[path.stem]["ref_seconds"]
            row["ref"] = reuse[path.stem]["ref"]
        else:
            try:
                ref = g.import_gltf_to_ssk(str(path))
                row["ref_seconds"] = round(time.time() - t, 3)
                row["ref"] = {
                    **scored(ref.document, sv, sf),
                    "pieces": len(ref.document["pieces"]),
                }
            except Exception as e:  # noqa: BLE001
                row["ref_error"] = str(e)
        # The model the mesh was made from (when it was), scored the same
        # way: the most a recovery can expect from this scorer, whose own
        # meshing of the model (at resolution 16) may differ from ours.
        made = path.with_suffix(".ssk")
        if made.exists():
            row["source"] = scored(yaml.safe_load(made.read_text()), sv, sf)
        lo, hi = sv.min(axis=0), sv.max(axis=0)
        vb = float(np.prod(hi - lo))
        over = 100.0 * (1 - volume(sv, sf) / vb) if vb > 0 else 100.0
        row["bbox"] = {"score": g._quality_score(100.0, over, 1, 2, expected_piece_count=None, infill_weight=1.18, outfill_weight=1.05, complexity_weight=1.0), "overfill": over}
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    med = lambda who, k: statistics.median(r[who][k] for r in rows if who in r)
    summary = {
        "meshes": len(rows),
        "median_score": {"ours": med("ours", "score"), "ref": med("ref", "score"), "bbox": med("bbox", "score")},
        "median_overlap": {"ours": med("ours", "overlap"), "ref": med("ref", "overlap")},
    }
    print(json.dumps({"summary": summary, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
