"""Where a model's meshing time goes, by boolean: reads the lines that
`SSKB_MESH_TRACE=1 sskb convert MODEL OUT.glb` writes to standard error.

    SSKB_MESH_TRACE=1 sskb convert /tmp/r1000.ssk r.glb --resolution 32 2> trace.txt
    python3 tests/data/mesh/trace.py trace.txt

prints, for each kind of operation (the unions that rebuild a folding
sweep, which name one piece twice, the other unions, the differences and
the intersections), how many there were and their summed time, then the
folding sweeps' unions by the triangles of their two operands. Times are
each operation's own wall time: on two threads they overlap, so the sums
are about the CPU time, not the wall time. Pure Python (the standard
library).
"""

import re
import statistics
import sys

LINE = re.compile(r"sskb-mesh: (.*): (\d+) and (\d+) triangles, (\d+) made, ([\d.]+) ms$")
FOLD = re.compile(r"union of piece (\d+) with piece (\d+)$")


def kind(what):
    m = FOLD.match(what)
    if m and m.group(1) == m.group(2):
        return "a folding sweep's union"
    if what.startswith("union"):
        return "other union"
    if " minus " in what:
        return "difference"
    return "intersection"


def main(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = LINE.match(line.strip())
            if m:
                rows.append((kind(m.group(1)), int(m.group(2)) + int(m.group(3)), float(m.group(5)) / 1e3))
    if not rows:
        sys.exit(f"{path}: no lines from SSKB_MESH_TRACE")
    print("| operation | count | time (s) |")
    print("| --- | ---: | ---: |")
    for k in sorted({r[0] for r in rows}):
        these = [r for r in rows if r[0] == k]
        print(f"| {k} | {len(these):,} | {sum(r[2] for r in these):.1f} |")
    folds = [r for r in rows if r[0] == "a folding sweep's union"]
    if folds:
        print()
        print("| operands' triangles | unions | time (s) | median (ms) | µs per triangle |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for lo, hi in [(0, 500), (500, 1000), (1000, 2000), (2000, 4000), (4000, 8000), (8000, None)]:
            b = [r for r in folds if r[1] >= lo and (hi is None or r[1] < hi)]
            if not b:
                continue
            span = f"{lo:,}–{hi - 1:,}" if hi else f"{lo:,} and more"
            t = sum(r[2] for r in b)
            med = 1e3 * statistics.median(r[2] for r in b)
            per = 1e6 * t / max(1, sum(r[1] for r in b))
            print(f"| {span} | {len(b):,} | {t:.2f} | {med:.1f} | {per:.1f} |")


if __name__ == "__main__":
    main(sys.argv[1])
