"""Records the reference's answers for every public name of ``ssklib``
1.5.0 that takes documents or files, once, into
``tests/data/api/reference.json`` (the reference is never run in CI):

    python python/scripts/record_reference.py [--documents N] [--seed S]

Runs in an environment with both packages (made on first use, see
_reference.py), and compares as it records: it prints how many answers of
``sskb`` agree with the reference's and lists each disagreement, so the
recording run is also the by-hand comparison. The tests replay the file:
``python/tests/test_api.py`` (every name) and ``tests/cli.rs`` (``sskb
diff`` against ``document_differences``).

What is recorded:
- ``documents``: random documents that use every field (``random_document``),
  each also resolved, and variants broken in every way the reference checks;
  for each, ``resolve(doc, in_place=False)``, ``validate`` of the document
  as it is and resolved, ``validate_document`` and ``canonical_document``:
  the value, or ``{"error": ...}``.
- ``pairs``: a document and a changed copy (numbers moved inside and
  outside the tolerances, fields added, dropped or spelled out, ints for
  floats, pieces reordered, properties changed) with
  ``document_differences`` under default and other keyword arguments.
- ``files``: every conformance case through ``load``, ``validate_file``,
  ``inspect_file`` and ``convert`` to ``.sskb``, ``.ssk`` and ``.glb``.
- ``meshes``: ``mesh_document`` of the valid cases at resolution 8, as
  volume, bounds and array shapes and dtypes (the triangles themselves
  differ between meshers; the solids must not).
- ``constants``: the ``DEFAULT_*`` values and ``ConversionResult``'s fields.
"""

import argparse
import copy
import dataclasses
import json
import math
import pathlib
import subprocess
import sys
import tempfile

import _reference

_reference.ensure(__file__)

import numpy as np  # noqa: E402
import ssklib  # noqa: E402
from ssklib import gltf_to_ssk  # noqa: E402

import sskb  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "tests"))
from conftest import CORPUS, api_documents, api_pairs, cases, digest, finite_json, strict_eq  # noqa: E402

OUT = ROOT / "tests" / "data" / "api" / "reference.json"
PIECES = ROOT / "target" / "release" / "examples" / "mesh_pieces"

#: Values whose JSON is longer than this are stored as a digest.
INLINE = 1500


def outcome(f):
    """The value, or {"error": message}; the reference raises SSKError
    for a bad document, and sometimes a KeyError or TypeError."""
    try:
        v = f()
    except Exception as e:  # noqa: BLE001: any exception is an answer
        return {"error": f"{type(e).__name__}: {e}"}
    return {"value": v}


def stored(answer):
    """An answer as stored: a long value by the SHA-256 of its canonical
    JSON (keys sorted, non-finite floats spelled out), which
    python/tests/test_api.py computes the same way."""
    if "value" not in answer:
        return answer
    text = json.dumps(finite_json(answer["value"]), sort_keys=True, ensure_ascii=False, allow_nan=False)
    if len(text) <= INLINE:
        return answer
    return {"sha256": digest(answer["value"])}


def folds(path):
    """Whether a piece's own sweep folds through itself at resolution 8
    (examples/mesh_pieces): there the reference's mesh counts the overlap
    twice and ours is the swept volume (docs/meshes.md)."""
    run = subprocess.run([PIECES, path, "8"], capture_output=True, text=True, check=False)
    return "folds true" in run.stdout


class Tally:
    def __init__(self):
        self.agree = 0
        self.folding = 0
        self.problems = []

    def check(self, what, ref, ours):
        if ("error" in ref) != ("error" in ours):
            self.problems.append(f"{what}: ssklib {ref}, sskb {ours}"[:400])
            return
        if "value" in ref:
            try:
                strict_eq(finite_json(ref["value"]), finite_json(ours["value"]), what)
            except AssertionError as e:
                self.problems.append(str(e)[:400])
                return
        self.agree += 1


def record_documents(seed, n, tally):
    out = []
    for i, doc in enumerate(api_documents(seed, n)):
        entry = {"doc_sha256": digest(doc)}
        calls = {
            "resolve": (lambda m, d=doc: m.resolve(d, in_place=False)),
            "validate": (lambda m, d=doc: m.validate(copy.deepcopy(d))),
            "validate_resolved": (lambda m, d=doc: m.validate(m.resolve(d, in_place=False))),
            "validate_document": (lambda m, d=doc: m.validate_document(d)),
            "canonical_document": (lambda m, d=doc: m.canonical_document(d)),
        }
        for name, call in calls.items():
            ref = outcome(lambda: call(ssklib))
            tally.check(f"documents[{i}].{name}", ref, outcome(lambda: call(sskb)))
            entry[name] = stored(ref)
        out.append(entry)
    return out




def record_pairs(seed, n, tally):
    out = []
    for i, (left, right, kwargs) in enumerate(api_pairs(seed, n)):
        ref = outcome(lambda: ssklib.document_differences(left, right, **kwargs))
        tally.check(f"pairs[{i}]", ref, outcome(lambda: sskb.document_differences(left, right, **kwargs)))
        eq = outcome(lambda: ssklib.documents_equivalent(left, right, **kwargs))
        tally.check(f"pairs[{i}].equivalent", eq, outcome(lambda: sskb.documents_equivalent(left, right, **kwargs)))
        out.append({"left": left, "right": right, "kwargs": kwargs, "differences": ref, "equivalent": eq})
    return out


def conversion(m, src, dst):
    r = m.convert(src, dst, resolution=8)
    return dataclasses.asdict(r)


def record_files(tally, tmp):
    out = []
    meshes = []
    for case in cases():
        rel = case["file"]
        path = CORPUS / rel
        entry = {"file": rel}
        for name, call in {
            "load": lambda m: m.load(path),
            "validate_file": lambda m: m.validate_file(path),
            "inspect_file": lambda m: {**m.inspect_file(path), "path": rel},
        }.items():
            ref = outcome(lambda: call(ssklib))
            ours = outcome(lambda: call(sskb))
            if name == "load" and "value" in ref:
                # Compared value for value by compare_ssklib.py; here the
                # verdict is what matters (YAML 1.1 and 1.2 differ on a few
                # property scalars).
                ref = {"value": None}
                ours = {"value": None} if "value" in ours else ours
            tally.check(f"{rel}.{name}", ref, ours)
            entry[name] = stored(ref)
        for ext in ("sskb", "ssk", "glb"):
            ref = outcome(lambda: conversion(ssklib, path, tmp / f"ref.{ext}"))
            ours = outcome(lambda: conversion(sskb, path, tmp / f"ours.{ext}"))
            if "value" in ref and "value" in ours:
                # Names differ by the test's own choice; counts are the
                # meshers' (glb) or the writers' (bytes) own.
                for k in ("input_path", "output_path", "bytes_written", "vertex_count", "triangle_count"):
                    ref["value"][k] = ours["value"][k] = type(ref["value"][k]).__name__
            tally.check(f"{rel}.convert.{ext}", ref, ours)
            entry[f"convert_{ext}"] = ref
        out.append(entry)
        if "error" not in entry["validate_file"]:
            doc = ssklib.validate_file(path)
            ref = outcome(lambda: mesh_summary(*ssklib.mesh_document(doc, resolution=8)))
            ours = outcome(lambda: mesh_summary(*sskb.mesh_document(doc, resolution=8)))
            folding = folds(path)
            if "value" in ref and "value" in ours and ref["value"] and ours["value"]:
                close = math.isclose(ref["value"]["volume"], ours["value"]["volume"], rel_tol=0.02, abs_tol=1e-12)
                box = np.allclose(ref["value"]["bounds"], ours["value"]["bounds"], rtol=0.02, atol=1e-5)
                if (close or folding) and (box or folding) and ref["value"]["dtypes"] == ours["value"]["dtypes"]:
                    tally.agree += 1
                    tally.folding += folding and not (close and box)
                else:
                    tally.problems.append(f"{rel}.mesh_document: ssklib {ref}, sskb {ours}")
            else:
                tally.check(f"{rel}.mesh_document", ref, ours)
            meshes.append({"file": rel, "folds": folding, "mesh_document": ref})
    return out, meshes


def mesh_summary(vertices, faces):
    """Volume (m³), bounds (glTF axes, metres), dtypes and widths."""
    if vertices is None:
        return None
    v, f = np.asarray(vertices), np.asarray(faces)
    a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    volume = float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)
    used = v[np.unique(f)]
    return {
        "volume": volume,
        "bounds": [used.min(axis=0).tolist(), used.max(axis=0).tolist()],
        "dtypes": [str(v.dtype), str(f.dtype), v.shape[1], f.shape[1]],
    }


def signature(f):
    """Each parameter's name, kind and default (annotations left out)."""
    import inspect

    return [
        [p.name, p.kind.name, "required" if p.default is inspect.Parameter.empty else repr(p.default)]
        for p in inspect.signature(f).parameters.values()
    ]


def constants():
    names = [n for n in ssklib.__all__ if n.startswith("DEFAULT_")]
    return {
        # import_gltf_to_ssk is a facade (*args, **kwargs) over the function
        # of the same name in ssklib.gltf_to_ssk: that one's parameters.
        "signatures": {
            n: signature(getattr(gltf_to_ssk, n) if n == "import_gltf_to_ssk" else getattr(ssklib, n))
            for n in ssklib.__all__
            if callable(getattr(ssklib, n)) and not isinstance(getattr(ssklib, n), type)
        },
        "values": {n: getattr(ssklib, n) for n in names},
        "ConversionResult": [(f.name, "required" if f.default is dataclasses.MISSING else repr(f.default)) for f in dataclasses.fields(ssklib.ConversionResult)],
        "all": list(ssklib.__all__),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--documents", type=int, default=120)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=27)
    args = ap.parse_args()
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        files, meshes = record_files(tally, pathlib.Path(tmp))
    record = {
        "constants": constants(),
        "seed": args.seed,
        "generated": {"documents": args.documents, "pairs": args.pairs},
        "documents": record_documents(args.seed, args.documents, tally),
        "pairs": record_pairs(args.seed, args.pairs, tally),
        "files": files,
        "meshes": meshes,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(finite_json(record), ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8")
    print(json.dumps({
        "agreeing answers": tally.agree,
        "documents": len(record["documents"]),
        "pairs": len(record["pairs"]),
        "files": len(files),
        "meshes": len(meshes),
        "meshes that differ where a sweep folds (explained)": tally.folding,
        "disagreements": len(tally.problems),
    }, indent=1))
    for p in tally.problems[:60]:
        print(p)


if __name__ == "__main__":
    main()
