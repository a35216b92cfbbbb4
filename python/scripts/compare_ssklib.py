"""Drop-in evidence: the reference's ssklib against sskb, value for value.

    python python/scripts/compare_ssklib.py [--random N] [--mutations N]

Runs in an environment with both (made on first use, see _reference.py).
For every case of the conformance corpus, random documents, and random
byte mutations of the valid files: `parse_sskb` (and `parse_ssk` for
text) must give equal values of the same types, or both raise;
`validate_document` the same resolved copy, or both raise; what one writes
the other reads back to the same document. Prints a summary and every
disagreement; exits 1 if there is any.
"""

import argparse
import json
import pathlib
import random
import sys

import _reference

_reference.ensure(__file__)

import ssklib  # noqa: E402

import sskb  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from conftest import CORPUS, cases, random_document, strict_eq  # noqa: E402


def known_difference(a, b):
    """The deliberate differences (README: "Where it differs from ssklib"),
    by name; None for any other."""
    ref, ours = a[1], b[1]
    if a[0] == "error" and ("malformed property blob" in ref or "property keys must be strings" in ref):
        return "PyYAML refuses a property blob that YAML 1.2 accepts"
    if b[0] == "error" and ours.startswith("malformed_properties"):
        return "YAML 1.2 refuses a property blob that PyYAML accepts (tags, indentation)"
    if b[0] == "error" and ours.startswith("unsupported_version") and "pre-1.0" in ours:
        return "major version 0 (pre-1.0 drafts) is refused"
    return None


class Tally:
    def __init__(self):
        self.same = 0
        self.problems = []
        self.known = {}

    def compare(self, what, ref, ours):
        """Runs both; equal values (strict types) or both raise."""
        try:
            a = ("ok", ref())
        except Exception as e:  # the reference raises various types
            a = ("error", f"{type(e).__name__}: {e}")
        try:
            b = ("ok", ours())
        except sskb.SskbError as e:
            b = ("error", f"{e.kind}: {e}")
        if a[0] != b[0]:
            known = known_difference(a, b)
            if known:
                self.known.setdefault(known, []).append(what)
                return None
            self.problems.append(f"{what}: ssklib {a[0]} ({a[1] if a[0] == 'error' else '...'}), "
                                 f"sskb {b[0]} ({b[1] if b[0] == 'error' else '...'})")
            return None
        if a[0] == "ok":
            try:
                strict_eq(a[1], b[1])
            except AssertionError as e:
                if ".properties" in str(e).split(":")[0] and "str " in str(e):
                    # 1_000, 1:30, 2E5, .5: numbers in YAML 1.1, strings
                    # in 1.2 (or the other way round).
                    self.known.setdefault("YAML 1.1 and 1.2 read a property scalar differently", []).append(what)
                    return None
                self.problems.append(f"{what}: values differ: {e}")
                return None
        self.same += 1
        return a[1] if a[0] == "ok" else None


def check_bytes(t, name, data):
    doc = t.compare(f"{name} parse_sskb", lambda: ssklib.parse_sskb(data), lambda: sskb.parse_sskb(data))
    if doc is None:
        return
    t.compare(f"{name} validate_document", lambda: ssklib.validate_document(doc),
              lambda: sskb.validate_document(doc))
    # What each writes, the other reads as the reference reads its own.
    own = lambda: ssklib.parse_sskb(ssklib.write_sskb(doc, validate_document=False))  # noqa: E731
    t.compare(f"{name} sskb writes, ssklib reads", own,
              lambda: ssklib.parse_sskb(sskb.write_sskb(doc, validate_document=False)))
    t.compare(f"{name} ssklib writes, sskb reads", own,
              lambda: sskb.parse_sskb(ssklib.write_sskb(doc, validate_document=False)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--random", type=int, default=500)
    ap.add_argument("--mutations", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t = Tally()
    valid = []
    for case in cases():
        path = CORPUS / case["file"]
        if case["file"].endswith(".ssk"):
            text = path.read_text(encoding="utf-8")
            t.compare(f"{case['file']} parse_ssk", lambda: ssklib.parse_ssk(text), lambda: sskb.parse_ssk(text))
            continue
        data = path.read_bytes()
        check_bytes(t, case["file"], data)
        if case["decode"] == "ok":
            valid.append(data)
    corpus = t.same
    rng = random.Random(args.seed)
    for i in range(args.random):
        data = ssklib.write_sskb(random_document(rng), validate_document=False)
        check_bytes(t, f"random document {i}", data)
    documents = t.same - corpus
    for i in range(args.mutations):
        data = bytearray(rng.choice(valid))
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        check_bytes(t, f"mutation {i} ({bytes(data).hex()})", bytes(data))
    print(json.dumps({
        "agreeing comparisons": t.same,
        "corpus": corpus,
        "random documents": documents,
        "mutations": t.same - corpus - documents,
        "known differences": {k: len(v) for k, v in t.known.items()},
        "disagreements": len(t.problems),
    }, indent=1, ensure_ascii=False))
    for p in t.problems[:50]:
        print(p)
    sys.exit(1 if t.problems else 0)


if __name__ == "__main__":
    main()
