"""Shared helpers: the conformance corpus (the project's copy in
``tests/data/conformance``), a strict comparison of decoded values, and
random documents. Plain Python, so the scripts under ``scripts/`` use it
too."""

import io
import json
import pathlib

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
