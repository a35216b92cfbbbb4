"""Every public name of ``ssklib`` 1.5.0 in ``sskb``, against the
reference's own answers recorded once by
``python/scripts/record_reference.py`` into ``tests/data/api/reference.json``
(the reference is never run here): the same values, or an error where the
reference raised one; and the behaviour of each name that the recording
does not show (in-place resolution, the dispatch of ``validate``, glTF from
arrays)."""

import dataclasses
import io
import json
import math
import struct

import numpy as np
import pytest

import sskb
from conftest import CORPUS, api_documents, api_pairs, digest, finite_json, strict_eq

RECORD = json.loads((CORPUS.parent / "api" / "reference.json").read_text(encoding="utf-8"))


def outcome(f):
    try:
        return {"value": f()}
    except sskb.SskbError as e:
        return {"error": str(e)}


def same_answer(want, got, what):
    """`got` (ours) gives what the reference gave: an error for an error,
    else the same value (inline or by digest)."""
    if "error" in want:
        assert "error" in got, f"{what}: the reference raised ({want['error']}), sskb gave a value"
        return
    assert "error" not in got, f"{what}: sskb raised {got['error']}"
    if "sha256" in want:
        assert digest(got["value"]) == want["sha256"], f"{what}: the value differs from the reference's"
    else:
        strict_eq(finite_json(want["value"]), finite_json(got["value"]), what)


def test_every_reference_name_is_here():
    for name in RECORD["constants"]["all"]:
        assert name in sskb.__all__ and hasattr(sskb, name), name
    for name, value in RECORD["constants"]["values"].items():
        assert getattr(sskb, name) == value and type(getattr(sskb, name)) is type(value), name
    fields = [(f.name, "required" if f.default is dataclasses.MISSING else repr(f.default)) for f in dataclasses.fields(sskb.ConversionResult)]
    assert fields == [tuple(f) for f in RECORD["constants"]["ConversionResult"]]
    assert sskb.SSKError is sskb.SskbError and issubclass(sskb.SskbError, ValueError)


def test_every_function_takes_the_reference_parameters():
    import inspect

    for name, want in RECORD["constants"]["signatures"].items():
        got = [[p.name, p.kind.name, "required" if p.default is inspect.Parameter.empty else repr(p.default)]
               for p in inspect.signature(getattr(sskb, name)).parameters.values()]
        if want and want[-1][1] == "VAR_KEYWORD":
            # ssklib passes **kwargs on; ours names them, keyword-only.
            assert all(p[1] == "KEYWORD_ONLY" for p in got[len(want) - 1:]), name
            want, got = want[:-1], got[: len(want) - 1]
        # Ours may add keyword-only parameters at the end (convert's per_piece).
        extra = got[len(want):]
        assert got[: len(want)] == want and all(p[1] == "KEYWORD_ONLY" for p in extra), name


DOCUMENTS = list(api_documents(RECORD["seed"], RECORD["generated"]["documents"]))

CALLS = {
    "resolve": lambda d: sskb.resolve(d, in_place=False),
    "validate": lambda d: sskb.validate(json.loads(json.dumps(d, allow_nan=True))),
    "validate_resolved": lambda d: sskb.validate(sskb.resolve(d, in_place=False)),
    "validate_document": sskb.validate_document,
    "canonical_document": sskb.canonical_document,
}


def test_the_documents_are_the_recorded_ones():
    assert len(DOCUMENTS) == len(RECORD["documents"])
    for i, (doc, entry) in enumerate(zip(DOCUMENTS, RECORD["documents"])):
        assert digest(doc) == entry["doc_sha256"], f"document {i} is not the one recorded"


@pytest.mark.parametrize("name", sorted(CALLS))
def test_documents_answer_as_the_reference(name):
    for i, (doc, entry) in enumerate(zip(DOCUMENTS, RECORD["documents"])):
        same_answer(entry[name], outcome(lambda: CALLS[name](doc)), f"documents[{i}].{name}")


def test_differences_in_the_reference_words():
    pairs = list(api_pairs(RECORD["seed"], RECORD["generated"]["pairs"]))
    assert len(pairs) == len(RECORD["pairs"])
    differing = 0
    for i, ((left, right, kwargs), entry) in enumerate(zip(pairs, RECORD["pairs"])):
        assert (left, right, kwargs) == (entry["left"], entry["right"], entry["kwargs"]), f"pair {i}"
        got = outcome(lambda: sskb.document_differences(left, right, **kwargs))
        same_answer(entry["differences"], got, f"pairs[{i}]")
        same_answer(entry["equivalent"], outcome(lambda: sskb.documents_equivalent(left, right, **kwargs)),
                    f"pairs[{i}].equivalent")
        differing += bool(got.get("value"))
    # The recording exercises both answers.
    assert 0 < differing < len(pairs)


@pytest.mark.parametrize("entry", RECORD["files"], ids=lambda e: e["file"])
def test_files_answer_as_the_reference(tmp_path, entry):
    path = CORPUS / entry["file"]
    load = outcome(lambda: sskb.load(path))
    assert ("error" in load) == ("error" in entry["load"]), entry["load"]
    same_answer(entry["validate_file"], outcome(lambda: sskb.validate_file(path)), "validate_file")
    same_answer(entry["inspect_file"], outcome(lambda: {**sskb.inspect_file(path), "path": entry["file"]}),
                "inspect_file")
    for ext in ("sskb", "ssk", "glb"):
        def conversion():
            r = dataclasses.asdict(sskb.convert(path, tmp_path / f"out.{ext}", resolution=8))
            for k in ("input_path", "output_path", "bytes_written", "vertex_count", "triangle_count"):
                r[k] = type(r[k]).__name__
            return r
        same_answer(entry[f"convert_{ext}"], outcome(conversion), f"convert to .{ext}")
    if "error" in entry["validate_file"]:
        assert list(tmp_path.iterdir()) == []


def volume_and_bounds(vertices, faces):
    a, b, c = vertices[faces[:, 0]], vertices[faces[:, 1]], vertices[faces[:, 2]]
    used = vertices[np.unique(faces)]
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6), used.min(axis=0), used.max(axis=0)


@pytest.mark.parametrize("entry", RECORD["meshes"], ids=lambda e: e["file"])
def test_mesh_document_gives_the_reference_solid(entry):
    want = entry["mesh_document"]["value"]
    doc = sskb.validate_file(CORPUS / entry["file"])
    vertices, faces = sskb.mesh_document(doc, resolution=8)
    if want is None:
        assert vertices is None and faces is None
        return
    assert [str(vertices.dtype), str(faces.dtype), vertices.shape[1], faces.shape[1]] == want["dtypes"]
    volume, lo, hi = volume_and_bounds(vertices, faces)
    if entry["folds"]:
        # A piece's own sweep folds: the reference counts the overlap
        # twice, ours is the swept volume (docs/meshes.md).
        return
    assert math.isclose(volume, want["volume"], rel_tol=0.02, abs_tol=1e-12)
    assert np.allclose([lo, hi], want["bounds"], rtol=0.02, atol=1e-5)


def simple():
    return {"pieces": [
        {"id": 0, "points": [{"x": 0.0, "y": 0.0, "z": 0.0}, {"x": 0.0, "y": 0.0, "z": 10.0}],
         "size": {"x": 4.0, "y": 4.0, "z": 0.0}, "shape": "circle", "properties": {"tags": ["a"]}},
        {"id": 1, "from": 0, "shape": "ngon", "sides": 6},
    ]}


def test_resolve_in_place_and_on_a_copy():
    doc = simple()
    copy = sskb.resolve(doc, in_place=False)
    assert "size" not in doc["pieces"][1] and copy is not doc
    same = sskb.resolve(doc)
    assert same is doc and doc == copy
    # Inherited values are copies, not shared.
    doc["pieces"][1]["properties"]["tags"].append("b")
    assert doc["pieces"][0]["properties"]["tags"] == ["a"]
    for bad in ([], {"pieces": {}}, {"pieces": [1]}, {"pieces": [{"id": "0"}]},
                {"pieces": [{"id": 0}, {"id": 0}]}, {"pieces": [{"id": 0, "from": 0}]},
                {"pieces": [{"id": 0, "from": 1}, {"id": 1}]}):
        with pytest.raises(sskb.SskbError):
            sskb.resolve(bad)


def test_validate_dispatches_on_its_argument(tmp_path):
    doc = simple()
    with pytest.raises(sskb.SskbError) as e:
        sskb.validate(doc)            # piece 1 is not resolved
    assert e.value.kind == "validation"
    assert sskb.validate(sskb.resolve(doc, in_place=False)) is None
    assert sskb.validate(doc=sskb.resolve(doc, in_place=False)) is None  # ssklib's keyword
    path = tmp_path / "m.sskb"
    path.write_bytes(sskb.write_sskb(doc))
    summary = {"version": "1.0", "pieces": 2, "points": 2}
    assert sskb.validate(path) == sskb.validate(str(path)) == sskb.validate_stream(path) == summary
    assert sskb.validate(io.BytesIO(path.read_bytes())) == summary
    with pytest.raises(TypeError):
        sskb.validate_stream(doc)


def read_glb(data):
    length = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + length])
    binary = data[20 + length + 8:]
    a = doc["accessors"][0]
    n = a["count"]
    pos = np.frombuffer(binary, "<f4", n * 3, doc["bufferViews"][a["bufferView"]].get("byteOffset", 0))
    return doc, pos.reshape(-1, 3).astype(np.float64)


def test_write_glb_and_gltf_from_arrays(tmp_path):
    vertices, faces = sskb.mesh_document(sskb.resolve(simple()), resolution=16)
    want, _, _ = volume_and_bounds(vertices, faces)
    sskb.write_glb(vertices, faces, tmp_path / "m.glb")
    doc, pos = read_glb((tmp_path / "m.glb").read_bytes())
    got, _, _ = volume_and_bounds(pos, np.arange(len(pos)).reshape(-1, 3))
    assert math.isclose(got, want, rel_tol=1e-5)
    sskb.write_gltf(vertices, faces, str(tmp_path / "m.gltf"))
    gltf = json.loads((tmp_path / "m.gltf").read_text())
    assert gltf["buffers"][0]["uri"] == "m.bin"
    assert (tmp_path / "m.bin").stat().st_size == gltf["buffers"][0]["byteLength"]
    assert doc["accessors"][0]["count"] == gltf["accessors"][0]["count"]
    # Lists work as arrays do.
    sskb.write_glb(vertices.tolist(), faces.tolist(), tmp_path / "l.glb")
    assert (tmp_path / "l.glb").read_bytes() == (tmp_path / "m.glb").read_bytes()


@pytest.mark.parametrize("vertices, faces, words", [
    (np.zeros((3, 3)), np.array([[0, 1, 3]]), "names vertex 3 of 3"),
    (np.zeros((3, 3)), np.array([[0, 1, -1]]), "names vertex -1"),
    (np.zeros((3, 2)), np.array([[0, 1, 2]]), "(n, 3)"),
    (np.zeros((3, 3)), np.array([[0.0, 1.0, 2.0]]), "(m, 3) array of integers"),
    (np.array([[0, 0, np.inf], [1, 0, 0], [0, 1, 0]]), np.array([[0, 1, 2]]), "not finite"),
    (np.zeros((3, 3)), np.zeros((0, 3), dtype=int), "nothing to write"),
])
def test_write_glb_refuses_bad_arrays(tmp_path, vertices, faces, words):
    with pytest.raises(sskb.SskbError) as e:
        sskb.write_glb(vertices, faces, tmp_path / "bad.glb")
    assert words in str(e.value)
    assert list(tmp_path.iterdir()) == []


def test_mesh_document_of_nothing_is_none():
    doc = simple()
    # Piece 1 subtracts a larger tube from piece 0: nothing is left.
    doc["pieces"][1].update({"mode": "subtract", "affects": [0], "size": {"x": 8.0, "y": 8.0, "z": 0.0},
                             "points": [{"x": 0.0, "y": 0.0, "z": -5.0}, {"x": 0.0, "y": 0.0, "z": 15.0}]})
    vertices, faces = sskb.mesh_document(sskb.resolve(doc), resolution=16)
    assert vertices is None and faces is None
    with pytest.raises(sskb.SskbError) as e:
        sskb.mesh_document(simple(), resolution=2)
    assert e.value.kind == "usage"


def test_import_gltf_fits_a_model_and_scores_others(tmp_path):
    model = tmp_path / "rod.ssk"
    model.write_text(
        'version: "1.0"\npieces:\n  - id: 0\n    points: [{x: 0, y: 0, z: 0}, {x: 40, y: 10, z: 30}]\n'
        "    size: {x: 6, y: 6, z: 0}\n    shape: circle\n"
    )
    glb = tmp_path / "rod.glb"
    sskb.convert(model, glb)
    r = sskb.import_gltf_to_ssk(glb, expected_piece_count=1)
    assert isinstance(r, sskb.ImportResult)
    assert len(r.document["pieces"]) == 1 and r.coverage_percent > 97 and r.overfill_percent < 3
    assert r.source_vertices.shape[1] == 3 and r.source_faces.dtype == np.int32
    # The source in millimetres, Z up: the rod's far end near z = 30.
    assert 30 < r.source_vertices[:, 2].max() < 36
    sskb.validate_document(r.document)
    same = r.score_document(r.document)
    assert isinstance(same, sskb.QualityMetrics) and abs(same.score - r.score) < 1e-9
    # A model twice as thick fills the rod and three times as much outside it.
    fat = sskb.load(model)
    fat["pieces"][0]["size"] = {"x": 12.0, "y": 12.0, "z": 0.0}
    worse = r.score_document(fat)
    assert worse.coverage_percent > 97 and 70 < worse.overfill_percent < 80 and worse.score < r.score
    # convert: a mesh into a model, the result with coverage and overfill.
    out = tmp_path / "back.sskb"
    c = sskb.convert(glb, out, expected_piece_count=1)
    assert c.output_format == "sskb" and c.piece_count == 1 and c.coverage_percent > 97
    assert c.bytes_written == out.stat().st_size
    assert sskb.load(out)["pieces"][0]["shape"] == "circle"
    with pytest.raises(sskb.SskbError) as e:
        sskb.convert(glb, tmp_path / "x.glb")
    assert e.value.kind == "usage"


def test_import_errors_name_the_problem(tmp_path):
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n")
    with pytest.raises(sskb.SskbError) as e:
        sskb.import_gltf_to_ssk(bad)
    assert e.value.kind == "mesh_input" and "line 4" in str(e.value)
    with pytest.raises(sskb.SskbError):
        sskb.convert(bad, tmp_path / "bad.ssk")
    assert not (tmp_path / "bad.ssk").exists()
    with pytest.raises(sskb.SskbError) as e:
        sskb.import_gltf_to_ssk(bad, max_pieces=0)
    assert e.value.kind == "usage"
