"""Shared helpers: the conformance corpus (the project's copy in
``tests/data/conformance``), a strict comparison of decoded values, and
random documents. Plain Python, so the scripts under ``scripts/`` use it
too."""

import copy
import hashlib
import io
import json
import math
import pathlib
import random

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "conformance"


def cases():
    with open(CORPUS / "cases.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def binary_cases():
    return [c for c in cases() if c["file"].endswith(".sskb")]


def text_cases():
    return [c for c in cases() if c["file"].endswith(".ssk")]


def expected(case):
    """The expected document of a case, or None."""
    if not case["json"]:
        return None
    with open(CORPUS / case["json"], encoding="utf-8") as f:
        return json.load(f)


def same_kind(want, got):
    """A count found to exceed the bytes left is the reference's
    `truncated` outcome."""
    if want == "truncated":
        return got in ("truncated", "count_exceeds_remaining")
    return want == got


def strict_eq(a, b, path="doc"):
    """Equal values of the same types (an int is not a float here), dict
    keys in any order; raises AssertionError naming the first difference."""
    if isinstance(a, bool) or isinstance(b, bool):
        assert type(a) is type(b) and a == b, f"{path}: {a!r} != {b!r}"
    elif isinstance(a, dict):
        assert isinstance(b, dict), f"{path}: {type(b).__name__}, not dict"
        assert set(a) == set(b), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            strict_eq(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list), f"{path}: {type(b).__name__}, not list"
        assert len(a) == len(b), f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            strict_eq(x, y, f"{path}[{i}]")
    else:
        assert type(a) is type(b), f"{path}: {type(a).__name__} {a!r} != {type(b).__name__} {b!r}"
        assert a == b, f"{path}: {a!r} != {b!r}"


class Trickle(io.RawIOBase):
    """A binary stream that gives at most `chunk` bytes a read, like a pipe
    or a socket."""

    def __init__(self, data, chunk):
        self.data = memoryview(data)
        self.chunk = chunk

    def readable(self):
        return True

    def read(self, n=-1):
        if n is None or n < 0:
            n = len(self.data)
        n = min(n, self.chunk, len(self.data))
        out = bytes(self.data[:n])
        self.data = self.data[n:]
        return out


def random_point(rng):
    p = {"x": rng.uniform(-1e3, 1e3), "y": rng.uniform(-1e3, 1e3), "z": rng.uniform(-1e3, 1e3)}
    for k in ("curve_in", "curve_out", "rotation"):
        if rng.random() < 0.4:
            p[k] = {"x": rng.uniform(-9, 9), "y": rng.uniform(-9, 9), "z": rng.uniform(-9, 9)}
    if rng.random() < 0.4:
        p["size"] = {"x": rng.uniform(0, 9), "y": rng.uniform(0, 9), "z": rng.uniform(0, 9)}
    for k in ("transition_in", "transition_out"):
        if rng.random() < 0.2:
            p[k] = {"x": rng.uniform(0, 1), "y": rng.uniform(-1, 1)}
    return p


def random_document(rng):
    pieces = []
    for i in range(rng.randint(1, 12)):
        piece = {"id": i}
        if i and rng.random() < 0.3:
            piece["from"] = rng.randrange(i)
            if rng.random() < 0.5:
                piece["points"] = [random_point(rng) for _ in range(rng.randint(1, 5))]
            if rng.random() < 0.5:
                piece["mode"] = rng.choice(["add", "subtract", "intersect"])
        else:
            piece["points"] = [random_point(rng) for _ in range(rng.randint(1, 40))]
            piece["size"] = {"x": rng.uniform(0, 9), "y": rng.uniform(0, 9), "z": 0.0}
            piece["shape"] = rng.choice(["circle", "ngon"])
            if piece["shape"] == "ngon":
                piece["sides"] = rng.randint(3, 12)
            if rng.random() < 0.3:
                piece["mode"] = rng.choice(["subtract", "intersect"])
        if rng.random() < 0.3:
            piece["properties"] = {"name": f"p{i}", "n": rng.randint(-5, 5), "tags": ["a", "b"], "w": 0.5}
        pieces.append(piece)
    doc = {"pieces": pieces}
    if rng.random() < 0.5:
        doc["properties"] = {"title": "random", "nested": {"k": [1, 2.5, None, True]}}
    return doc


# The documents of the recorded API answers (tests/data/api/reference.json,
# python/scripts/record_reference.py): made again from the seed by the
# test, and checked against the digests stored with the answers.


def broken(doc, rng):
    """Variants of `doc` broken in each way the reference checks."""
    out = []
    pieces = doc["pieces"]

    def variant(change):
        d = copy.deepcopy(doc)
        change(d)
        out.append(d)

    variant(lambda d: d["pieces"][0].__setitem__("id", 7))
    variant(lambda d: d["pieces"].append(copy.deepcopy(d["pieces"][0])))
    variant(lambda d: d["pieces"][0].pop("id"))
    variant(lambda d: d["pieces"][0].__setitem__("id", True))
    variant(lambda d: d.__setitem__("pieces", {"0": d["pieces"]}))
    variant(lambda d: d["pieces"].__setitem__(0, [d["pieces"][0]]))
    variant(lambda d: d["pieces"][-1].__setitem__("from", len(pieces) - 1))
    if len(pieces) > 1:
        variant(lambda d: d["pieces"][0].__setitem__("from", 1))
        variant(lambda d: d["pieces"][1].__setitem__("from", 99))
        variant(lambda d: d["pieces"][1].__setitem__("from", "0"))
    variant(lambda d: d["pieces"][0].__setitem__("size", {"x": -1.0, "y": 1.0, "z": 1.0}))
    variant(lambda d: d["pieces"][0].update({"shape": "ngon", "sides": 2}))
    variant(lambda d: d["pieces"][0].update({"shape": "ngon"}) or d["pieces"][0].pop("sides", None))
    variant(lambda d: d["pieces"][0].__setitem__("shape", "square"))
    variant(lambda d: d["pieces"][0].__setitem__("mode", "xor"))
    variant(lambda d: d["pieces"][0].update({"mode": "subtract", "affects": [0]}))
    variant(lambda d: d["pieces"][0].update({"mode": "subtract", "affects": [42]}))
    variant(lambda d: d["pieces"][0].update({"mode": "subtract", "affects": [1, 1]}))
    variant(lambda d: d["pieces"][0]["points"][0].__setitem__("x", float("nan")))
    variant(lambda d: d["pieces"][0]["points"][0].__setitem__("y", "1"))
    variant(lambda d: d["pieces"][0]["points"][0].__setitem__("transition_out", {"x": 1.5, "y": 0.0}))
    variant(lambda d: d["pieces"][0]["points"][0].__setitem__("size", {"x": 0.0, "y": -2.0, "z": 0.0}))
    variant(lambda d: d["pieces"][0].__setitem__("points", []))
    variant(lambda d: d["pieces"][0].__setitem__("colour", "red"))
    variant(lambda d: d.__setitem__("version", "2.0"))
    if len(pieces[0]["points"]) > 1:
        def non_monotone(d):
            d["pieces"][0]["points"][0]["transition_out"] = {"x": 0.9, "y": 0.0}
            d["pieces"][0]["points"][1]["transition_in"] = {"x": 0.1, "y": 0.0}
        variant(non_monotone)
    rng.shuffle(out)
    return out[:8]


def trimmed(doc, rng):
    """`doc` with at most 6 pieces of at most 3 points: every field still
    there, small enough to store whole."""
    doc["pieces"] = doc["pieces"][:6]
    ids = {p["id"] for p in doc["pieces"]}
    for p in doc["pieces"]:
        if "points" in p:
            p["points"] = p["points"][: rng.randint(1, 3)]
        if p.get("from") not in ids:
            p.pop("from", None)
    return doc


def changed(doc, rng):
    """A copy of `doc` with a few random changes, some meaningless."""
    d = copy.deepcopy(doc)
    for _ in range(rng.randint(0, 4)):
        p = rng.choice(d["pieces"])
        what = rng.randrange(10)
        if what == 0 and "points" in p:
            q = rng.choice(p["points"])
            q["x"] = q["x"] + rng.choice([1e-9, 1e-6, 1e-4, 0.5, 100.0]) * rng.choice([-1, 1])
        elif what == 1:
            p["mode"] = rng.choice(["add", "subtract", "intersect"])
        elif what == 2 and "points" in p and "size" in p:
            for q in p["points"]:
                q.setdefault("size", copy.deepcopy(p["size"]))
        elif what == 3:
            p.setdefault("rotation", {"x": 0, "y": 0.0, "z": 0})
        elif what == 4:
            p["properties"] = {"name": rng.choice(["a", "b", "it's", 'say "hi"']), "n": rng.choice([1, 1.0, True, None])}
        elif what == 5:
            d["pieces"].reverse()
        elif what == 6 and "points" in p:
            p["points"].append({"x": 1, "y": 2, "z": 3})
        elif what == 7:
            d["properties"] = {"title": rng.choice(["random", "other"]), "z": [1, 2]}
        elif what == 8 and "size" in p:
            p["size"]["x"] = int(round(p["size"]["x"]))
        elif what == 9 and p.get("shape") == "ngon":
            p["sides"] = p["sides"] + 1
    return d




KWARGS = [{}, {"rel_tol": 0.0, "abs_tol": 0.0}, {"abs_tol": 1e-3, "max_diffs": 3}, {"max_diffs": 1}, {"max_diffs": 0}]


def api_documents(seed, n):
    """Random documents that use every field, some resolved (by the
    reference's rules, which `resolve_like_reference` follows), each with a
    few variants broken in the ways the reference checks."""
    rng = random.Random(seed)
    docs = []
    for _ in range(n):
        doc = random_document(rng)
        docs.append(doc)
        if rng.random() < 0.3:
            docs.append(resolved_copy(doc))
        docs.extend(broken(doc, rng)[: rng.randint(1, 3)])
    return docs


def resolved_copy(doc):
    """`doc` with inheritance resolved: in id order, each piece with
    `from` takes the inheritable fields it lacks from its base."""
    d = copy.deepcopy(doc)
    by_id = {p["id"]: p for p in d["pieces"]}
    for pid in sorted(by_id):
        p = by_id[pid]
        if "from" in p:
            for k in ("points", "rotation", "size", "shape", "sides", "mode", "affects", "properties"):
                if k not in p and k in by_id[p["from"]]:
                    p[k] = copy.deepcopy(by_id[p["from"]][k])
    return d


def api_pairs(seed, n):
    """(left, right, keyword arguments) for document_differences: a small
    random document and a changed copy."""
    rng = random.Random(seed + 1)
    for _ in range(n):
        left = trimmed(random_document(rng), rng)
        yield left, changed(left, rng), rng.choice(KWARGS)


def finite_json(v):
    """`v` with each non-finite float as {"$float": "nan"} (JSON has no
    NaN)."""
    if isinstance(v, float) and not math.isfinite(v):
        return {"$float": repr(v)}
    if isinstance(v, dict):
        return {k: finite_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [finite_json(x) for x in v]
    return v


def digest(v):
    """SHA-256 of `v`'s canonical JSON: keys sorted, ints and floats as
    written, non-finite floats spelled out."""
    text = json.dumps(finite_json(v), sort_keys=True, ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
