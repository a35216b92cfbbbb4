"""sskb against the reference's ssklib, from Python.

    python python/scripts/bench.py [--big FILE.sskb]

Runs in an environment with both (made on first use, see _reference.py).
Prints, for a 10 MB single piece (194,180 points with curve controls and
sizes; `--varied` for one where no value repeats from point to point): `ssklib.parse_sskb`, `sskb.parse_sskb`, and
`sskb.iter_pieces(..., arrays=True)`, best of several runs, and the ratios.
With `--big`, the peak RSS of iterating that file piece by piece in a fresh
process (`cargo run --release --example generate -- big.sskb 300 small`
makes a 300 MB one).
"""

import argparse
import math
import subprocess
import sys
import time

import _reference

_reference.ensure(__file__)

import ssklib  # noqa: E402

import sskb  # noqa: E402

POINTS = 194_180


def single_piece(varied=False):
    """A helix: every position and curve control differs from point to
    point; the size changes every 100 points and the controls' `z` is
    constant, unless `varied`: then no value repeats from one point to the
    next."""
    points = []
    for i in range(POINTS):
        a = i * 0.01
        c, s = math.cos(a), math.sin(a)
        dz = 1e-4 * (i % 1000) if varied else 0.0
        size = (
            {"x": 10.0 + (i % 997) * 1e-3, "y": 10.0 + (i % 991) * 1e-3, "z": (i % 983) * 1e-3}
            if varied
            else {"x": 10.0 + (i // 100) % 7, "y": 10.0, "z": 0.0}
        )
        points.append({
            "x": 500.0 * c, "y": 500.0 * s, "z": 0.2 * i,
            "curve_in": {"x": 5.0 * s, "y": -5.0 * c, "z": -0.1 - dz},
            "curve_out": {"x": -5.0 * s, "y": 5.0 * c, "z": 0.1 + dz},
            "size": size,
        })
    doc = {"pieces": [{"id": 0, "points": points, "size": {"x": 10.0, "y": 10.0, "z": 0.0}, "shape": "circle"}]}
    return sskb.write_sskb(doc)


def best(f, runs):
    """The best time of `runs` calls; each result is freed after its
    clock stops (freeing 194,180 point dicts is not parsing)."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - t)
        del result
    return min(times)


# Peak RSS from /proc (VmHWM): ru_maxrss would include the parent's
# memory, carried across fork and exec.
RSS = """
import sys, sskb
n = 0
for piece in sskb.iter_pieces(sys.argv[1]):
    n += 1
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")][0].split()[1]
print(n, hwm)
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--big", help="an .sskb file to iterate for peak RSS")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--varied", action="store_true", help="no value repeats from point to point")
    args = ap.parse_args()

    data = single_piece(args.varied)
    print(f"single piece: {len(data):,} bytes, {POINTS:,} points")
    assert ssklib.parse_sskb(data) == sskb.parse_sskb(data)
    ref = best(lambda: ssklib.parse_sskb(data), args.runs)
    ours = best(lambda: sskb.parse_sskb(data), args.runs * 3)

    def arrays():
        pieces = list(sskb.iter_pieces(__import__("io").BytesIO(data), arrays=True))
        assert pieces[0]["positions"].shape == (POINTS, 3)
        return pieces

    arr = best(arrays, args.runs * 3)
    print("| what | time | × faster than ssklib |")
    print("| --- | ---: | ---: |")
    print(f"| `ssklib.parse_sskb` | {ref * 1e3:,.0f} ms | 1× |")
    print(f"| `sskb.parse_sskb` | {ours * 1e3:,.1f} ms | {ref / ours:,.0f}× |")
    print(f"| `sskb.iter_pieces(..., arrays=True)` | {arr * 1e3:,.1f} ms | {ref / arr:,.0f}× |")
    if args.big:
        out = subprocess.run([sys.executable, "-c", RSS, args.big], capture_output=True, text=True, check=True)
        pieces, kib = out.stdout.split()
        print(f"iterating {args.big}: {int(pieces):,} pieces, peak RSS {int(kib) / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
