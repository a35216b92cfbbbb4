"""Writing from NumPy arrays: `sskb.Writer` against the Rust encoder alone
and against the reference's `ssklib.write_sskb`.

    cargo build --release --example encode_time
    python python/scripts/bench_writer.py [--pieces 1000] [--points 10000]

Runs in an environment with both packages (made on first use, see
_reference.py). Makes a model of PIECES x POINTS points (positions, a
quarter of the points with `curve_out`, a tenth with a `size`) as arrays
from a fixed seed and prints, best of three:
- `Writer`: the whole model from the arrays to a file, validated;
- the Rust encoder alone (`examples/encode_time`) on the same document,
  into memory;
- `ssklib.write_sskb` (and `sskb.write_sskb`) on the first 100,000 points
  as dicts, per point (the reference on ten million points would take
  hours and tens of GB of dicts);
and the ratios.
"""

import argparse
import pathlib
import subprocess
import tempfile
import time

import _reference

_reference.ensure(__file__)

import numpy as np  # noqa: E402
import ssklib  # noqa: E402

import sskb  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENCODE = ROOT / "target" / "release" / "examples" / "encode_time"


def model(pieces, points, seed=1):
    rng = np.random.default_rng(seed)
    for i in range(pieces):
        xyz = np.cumsum(rng.normal(size=(points, 3)), axis=0).astype(np.float32)
        curve = rng.normal(size=(points, 3)).astype(np.float32)
        size = rng.uniform(0.5, 2.0, size=(points, 3)).astype(np.float32)
        yield {
            "id": i, "positions": xyz, "size": (1.0, 1.0, 0.0), "shape": "circle",
            "curve_out": curve, "curve_out_present": rng.random(points) < 0.25,
            "point_size": size, "point_size_present": rng.random(points) < 0.1,
        }


def as_dict(p):
    """A piece from arrays in the dict form, for write_sskb."""
    points = []
    for j, (x, y, z) in enumerate(p["positions"].tolist()):
        q = {"x": x, "y": y, "z": z}
        if p["curve_out_present"][j]:
            c = p["curve_out"][j].tolist()
            q["curve_out"] = {"x": c[0], "y": c[1], "z": c[2]}
        if p["point_size_present"][j]:
            s = p["point_size"][j].tolist()
            q["size"] = {"x": s[0], "y": s[1], "z": s[2]}
        points.append(q)
    return {"id": p["id"], "points": points, "size": {"x": 1.0, "y": 1.0, "z": 0.0}, "shape": "circle"}


def best(f, runs=3):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pieces", type=int, default=1000)
    ap.add_argument("--points", type=int, default=10_000)
    args = ap.parse_args()
    pieces = list(model(args.pieces, args.points))
    n = args.pieces * args.points
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "model.sskb"

        def write():
            with sskb.Writer(out, len(pieces)) as w:
                for p in pieces:
                    w.piece(p)

        t_writer = best(write)
        run = subprocess.run([ENCODE, out, "3"], capture_output=True, text=True, check=True)
        t_encode = float(run.stdout.split()[0])
        size = out.stat().st_size
    subset = [as_dict(p) for p in model(max(1, 100_000 // args.points), args.points)]
    m = sum(len(p["points"]) for p in subset)
    doc = {"pieces": subset}
    t_ref = best(lambda: ssklib.write_sskb(doc), 1) / m
    t_ours_dicts = best(lambda: sskb.write_sskb(doc), 3) / m
    per_point = t_writer / n
    print(f"model: {args.pieces} pieces x {args.points} points = {n:,} points, {size / 1e6:.0f} MB")
    print(f"sskb.Writer from arrays : {t_writer:.3f} s  ({per_point * 1e9:.1f} ns/point)")
    print(f"Rust encoder alone      : {t_encode:.3f} s  ({t_encode / n * 1e9:.1f} ns/point)")
    print(f"ssklib.write_sskb dicts : {t_ref * 1e9:.0f} ns/point (on {m:,} points)")
    print(f"sskb.write_sskb dicts   : {t_ours_dicts * 1e9:.0f} ns/point (on {m:,} points)")
    print(f"Writer / Rust encoder   : {t_writer / t_encode:.2f}x the time")
    print(f"ssklib / Writer         : {t_ref / per_point:.0f}x faster per point")


if __name__ == "__main__":
    main()
