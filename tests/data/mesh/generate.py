"""Random valid documents that use every field a mesh depends on.

    python3 tests/data/mesh/generate.py OUT_DIR COUNT [SEED [SIZE_SCALE]]
    python3 tests/data/mesh/generate.py MODEL.ssk PIECES [SEED]

writes OUT_DIR/doc_NNN.ssk (thin_NNN.ssk with sections scaled by
SIZE_SCALE: thinner pieces, whose bends fold less often), or one model of PIECES pieces made of such
documents laid 12 mm apart along x, each overlapping its neighbours. Each document has 1 to 7 pieces in an
overlapping layout (everything within a box of about 30 mm), and across
the set every field is used:
- piece `rotation`, `size` (some with ONE zero component: sheets), circle
  and n-gon shapes (3 to 9 sides), every `mode`;
- `affects` on intersect and subtract pieces, and intersect without it;
- `from`: copies that inherit everything (identical geometry), and ones
  that override size, shape, mode or points;
- points with their own `size` and `rotation`, `curve_in`/`curve_out` on
  some points and not others, `transition_in`/`transition_out`
  (monotone, as the rules require), tight bends (controls far off the
  chord, points doubling back), straight segments, one-point pieces.
Pure Python (the standard library), so it runs anywhere; the numbers are
written with 3 decimals (exact in the text, close to what an f32 holds).
"""

import pathlib
import random
import re
import sys


def r(rng, lo, hi):
    return round(rng.uniform(lo, hi), 3)


def vec(rng, lo, hi, keys="xyz"):
    return {k: r(rng, lo, hi) for k in keys}


SCALE = 1.0


def size(rng, flat_chance=0.08):
    s = {"x": r(rng, 0.8 * SCALE, 6.0 * SCALE), "y": r(rng, 0.8 * SCALE, 6.0 * SCALE), "z": r(rng, 0.0, 4.0 * SCALE)}
    if rng.random() < 0.25:
        s["z"] = 0.0
    if rng.random() < flat_chance:
        # A sheet: one zero component among x and y (z may be zero too
        # for a path: flat caps).
        s[rng.choice("xy")] = 0.0
    return s


def rotation(rng):
    return {"x": r(rng, -180, 180), "y": r(rng, -90, 90), "z": r(rng, -180, 180)}


def flow(value):
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return repr(value) if isinstance(value, float) else str(value)


def control(rng, here, toward):
    """A curve control at `here`: anywhere near it (up to 5 mm, or 12 for
    one in four: tight bends and loops), or with thin sections (SCALE
    below 1) a third of the way toward the neighbouring point, a little
    off the chord (gentle curves)."""
    if SCALE < 1.0:
        return {k: round(here[j] + (toward[j] - here[j]) / 3 + r(rng, -1.5, 1.5), 3) for j, k in enumerate("xyz")}
    far = 12 if rng.random() < 0.25 else 5
    return {k: round(here[j] + r(rng, -far, far), 3) for j, k in enumerate("xyz")}


def points(rng, centre):
    n = rng.choice([1, 2, 2, 3, 3, 4])
    pts = []
    p = [centre[i] + r(rng, -6, 6) for i in range(3)]
    for i in range(n):
        pt = {"x": round(p[0], 3), "y": round(p[1], 3), "z": round(p[2], 3)}
        pts.append(pt)
        step = [r(rng, -12, 12) for _ in range(3)]
        if rng.random() < 0.2 and i > 0:
            # Doubling back: a tight bend at the next joint.
            prev = pts[i - 1]
            step = [0.6 * (prev[k] - pt[k]) + r(rng, -2, 2) for k in "xyz"]
        p = [p[k] + step[k] for k in range(3)]
    if n == 1:
        return pts
    xyz = [[pt["x"], pt["y"], pt["z"]] for pt in pts]
    for i, pt in enumerate(pts):
        here = xyz[i]
        if i + 1 < n and rng.random() < 0.45:
            pt["curve_out"] = control(rng, here, xyz[i + 1])
        if i > 0 and rng.random() < 0.45:
            pt["curve_in"] = control(rng, here, xyz[i - 1])
        if rng.random() < 0.3:
            pt["size"] = size(rng, flat_chance=0.03)
        if rng.random() < 0.2:
            pt["rotation"] = rotation(rng)
    # Transitions: for each segment, 0 <= a <= b <= 1 on x.
    for i in range(n - 1):
        if rng.random() < 0.35:
            a = r(rng, 0.0, 1.0)
            b = r(rng, a, 1.0)
            pts[i]["transition_out"] = {"x": a, "y": r(rng, -0.3, 1.3)}
            pts[i + 1]["transition_in"] = {"x": b, "y": r(rng, -0.3, 1.3)}
        elif rng.random() < 0.15:
            pts[i]["transition_out"] = {"x": r(rng, 0.0, 0.66), "y": r(rng, 0.0, 1.0)}
    return pts


def piece(rng, pid, centre, count):
    pc = {"id": pid}
    if pid > 0 and rng.random() < 0.25:
        base = rng.randrange(pid)
        pc["from"] = base
        # Identical copies half the time; else override a field or two.
        if rng.random() < 0.5:
            choice = rng.choice(["size", "mode", "shape", "points", "rotation"])
            if choice == "size":
                pc["size"] = size(rng)
            elif choice == "mode":
                pc["mode"] = rng.choice(["add", "subtract", "intersect"])
            elif choice == "shape":
                pc["shape"] = "ngon"
                pc["sides"] = rng.randint(3, 9)
            elif choice == "points":
                pc["points"] = points(rng, centre)
            else:
                pc["rotation"] = rotation(rng)
        pc["mode"] = pc.get("mode", rng.choice(["subtract", "intersect", "add"]))
        return pc
    pc["points"] = points(rng, centre)
    if rng.random() < 0.4:
        pc["rotation"] = rotation(rng)
    pc["size"] = size(rng)
    if rng.random() < 0.5:
        pc["shape"] = "circle"
    else:
        pc["shape"] = "ngon"
        pc["sides"] = rng.randint(3, 9)
    mode = rng.choices(["add", "subtract", "intersect", None], [3, 2, 2, 3])[0]
    if mode:
        pc["mode"] = mode
    return pc


def document(rng):
    count = rng.randint(1, 7)
    centre = [r(rng, -5, 5) for _ in range(3)]
    pieces = [piece(rng, i, centre, count) for i in range(count)]
    for pc in pieces:
        if pc.get("mode") in ("subtract", "intersect") and count > 1 and rng.random() < 0.5:
            others = [q["id"] for q in pieces if q["id"] != pc["id"]]
            pc["affects"] = sorted(rng.sample(others, rng.randint(1, len(others))))
    # Inherited affects must not name the piece itself: drop such lists.
    by_id = {p["id"]: p for p in pieces}

    def inherited(p, key):
        while key not in p and "from" in p:
            p = by_id[p["from"]]
        return p.get(key)

    for pc in pieces:
        aff = inherited(pc, "affects")
        if aff is not None and pc["id"] in aff:
            pc["affects"] = [i for i in aff if i != pc["id"]] or [q for q in by_id if q != pc["id"]][:1]
            if not pc["affects"]:
                del pc["affects"]
        # An n-gon inherited over a circle base needs `sides`.
        if inherited(pc, "shape") == "ngon" and inherited(pc, "sides") is None:
            pc["sides"] = 5
    lines = ['version: "1.0"', "pieces:"]
    for pc in pieces:
        lines.append(f"  - id: {pc['id']}")
        for k in ("from", "points", "rotation", "size", "shape", "sides", "mode", "affects"):
            if k not in pc:
                continue
            if k == "points":
                lines.append("    points:")
                lines += [f"      - {flow(pt)}" for pt in pc["points"]]
            else:
                lines.append(f"    {k}: {flow(pc[k])}")
    return "\n".join(lines) + "\n"


def big(rng, pieces):
    """One model of about `pieces` pieces: random documents placed 12 mm
    apart along x (each spans about 30 mm, so neighbours overlap), their
    ids, `from` and `affects` renumbered."""
    lines = ['version: "1.0"', "pieces:"]
    base = 0
    tile = 0
    while base < pieces:
        doc = document(rng).splitlines()[2:]
        n = sum(1 for line in doc if line.startswith("  - id: "))
        if base + n > pieces:
            continue
        dx = 12.0 * tile
        for line in doc:
            if line.startswith("  - id: "):
                line = f"  - id: {int(line[8:]) + base}"
            elif line.startswith("    from: "):
                line = f"    from: {int(line[10:]) + base}"
            elif line.startswith("    affects: "):
                ids = [int(x) + base for x in line[14:-1].split(", ")]
                line = f"    affects: [{', '.join(map(str, ids))}]"
            elif line.startswith("      - "):
                line = shift_x(line, dx)
            lines.append(line)
        base += n
        tile += 1
    return "\n".join(lines) + "\n"


def shift_x(line, dx):
    """Moves a point line's position and curve controls by dx along x."""
    def moved(m):
        return f"{m.group(1)}{round(float(m.group(2)) + dx, 3)}"
    return re.sub(r"(- \{x: |curve_out: \{x: |curve_in: \{x: )(-?[0-9.]+)", moved, line)


def main():
    global SCALE
    out = pathlib.Path(sys.argv[1])
    count = int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    SCALE = float(sys.argv[4]) if len(sys.argv) > 4 else 1.0
    prefix = "doc" if SCALE == 1.0 else "thin"
    rng = random.Random(seed)
    if out.suffix == ".ssk":
        # One big model of COUNT pieces.
        out.write_text(big(rng, count))
        return
    out.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (out / f"{prefix}_{i:03}.ssk").write_text(document(rng))


if __name__ == "__main__":
    main()
