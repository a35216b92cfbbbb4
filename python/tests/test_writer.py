"""`sskb.Writer`: documents written piece by piece from NumPy arrays.

Round trips (`iter_pieces(arrays=True)` into the writer gives the bytes of
`write_sskb` for the same model, on the whole conformance corpus and on
random documents), every kind of bad input refused with its field path and
nothing left at the path, and the piece count patched or checked."""

import io
import os
import random

import numpy as np
import pytest

import sskb
from conftest import CORPUS, cases, random_document


def valid_binaries():
    return [CORPUS / c["file"] for c in cases() if c["file"].endswith(".sskb") and c["decode"] == "ok"]


def through_writer(source, target, *, count=False, validate=False):
    """Every piece of `source` (a path or bytes) through a Writer."""
    if isinstance(source, bytes):
        source = io.BytesIO(source)
    it = sskb.iter_pieces(source, arrays=True)
    w = sskb.Writer(target, it.piece_count if count else None, version=it.version, validate=validate)
    for piece in it:
        w.piece(piece)
    w.close(properties=it.properties or None)


def expected(data):
    """What write_sskb gives for the model in `data`, at its version."""
    doc = sskb.parse_sskb(data)
    doc["version"] = sskb.iter_pieces(io.BytesIO(data)).version
    return sskb.write_sskb(doc, validate_document=False)


@pytest.mark.parametrize("path", valid_binaries(), ids=lambda p: p.name)
def test_corpus_round_trips_to_write_sskb_bytes(tmp_path, path):
    data = path.read_bytes()
    want = expected(data)
    out = io.BytesIO()
    through_writer(data, out)
    assert out.getvalue() == want
    # A path, with the count given up front: the same bytes.
    target = tmp_path / "out.sskb"
    through_writer(data, target, count=True)
    assert target.read_bytes() == want
    assert os.listdir(tmp_path) == ["out.sskb"]


def test_random_documents_round_trip(tmp_path):
    rng = random.Random(7)
    for i in range(200):
        doc = random_document(rng)
        try:
            data = sskb.write_sskb(doc, validate_document=False)
        except sskb.SskbError:
            continue
        out = io.BytesIO()
        valid = _valid(doc)
        through_writer(data, out, validate=valid)
        assert out.getvalue() == expected(data), f"document {i}"


def _valid(doc):
    try:
        sskb.validate_document(doc)
        return True
    except sskb.SskbError:
        return False


def test_keywords_tuples_and_any_numeric_dtype(tmp_path):
    xyz = np.array([[0, 0, 0], [0, 0, 10]], dtype=np.float64)
    curve = np.array([[1, 0, 0], [0, 0, 0]], dtype=np.int32)
    target = tmp_path / "m.sskb"
    with sskb.Writer(target, properties={"name": "m"}) as w:
        w.piece(id=0, positions=xyz, size=(2, 2, 0), shape="circle",
                curve_out=curve, curve_out_present=np.array([True, False]))
        w.piece(id=1, positions=xyz.astype(np.float32), size={"x": 1, "y": 1, "z": 0},
                shape="ngon", sides=6, rotation=np.array([0.0, 0.0, 45.0]),
                mode="subtract", affects=[0], properties={"k": [1, 2]})
        w.piece(**{"id": 2, "from": 1, "mode": "intersect"})
        assert w.pieces_written == 3
    doc = sskb.load(target)
    want = {"pieces": [
        {"id": 0, "points": [{"x": 0.0, "y": 0.0, "z": 0.0, "curve_out": {"x": 1.0, "y": 0.0, "z": 0.0}},
                             {"x": 0.0, "y": 0.0, "z": 10.0}],
         "size": {"x": 2.0, "y": 2.0, "z": 0.0}, "shape": "circle"},
        {"id": 1, "points": [{"x": 0.0, "y": 0.0, "z": 0.0}, {"x": 0.0, "y": 0.0, "z": 10.0}],
         "rotation": {"x": 0.0, "y": 0.0, "z": 45.0}, "size": {"x": 1.0, "y": 1.0, "z": 0.0},
         "shape": "ngon", "sides": 6, "mode": "subtract", "affects": [0], "properties": {"k": [1, 2]}},
        {"id": 2, "from": 1, "mode": "intersect"},
    ], "properties": {"name": "m"}}
    assert doc == want
    assert target.read_bytes() == sskb.write_sskb(want)


def piece(**extra):
    fields = {"id": 0, "positions": np.zeros((2, 3)), "size": (1, 1, 1), "shape": "circle"}
    fields.update(extra)
    return fields


@pytest.mark.parametrize("extra, kind, where", [
    ({"positions": np.array([[0, 0, np.nan]])}, "non_finite", "pieces[0].points[0].z"),
    ({"positions": np.array([[0, 0, 1e39]])}, "non_finite", "pieces[0].points[0].z"),
    ({"positions": np.array([["a", "b", "c"]])}, "structure", "dtype"),
    ({"positions": np.zeros((2, 3), dtype=complex)}, "structure", "dtype"),
    ({"positions": np.zeros((2, 2))}, "structure", "shape (n, 3)"),
    ({"positions": np.zeros(6)}, "structure", "shape (n, 3)"),
    ({"positions": np.zeros((0, 3))}, "structure", "empty"),
    ({"curve_in": np.zeros((3, 3))}, "structure", "3 rows"),
    ({"transition_in": np.zeros((2, 3))}, "structure", "shape (n, 2)"),
    ({"transition_out": np.array([[1.5, 0], [0, 0]])}, "structure", "pieces[0].points[0].transition_out.x"),
    ({"point_size": np.array([[-1, 0, 0], [0, 0, 0]])}, "structure", "pieces[0].points[0].size.x"),
    ({"curve_in": np.zeros((2, 3)), "curve_in_present": np.array([True])}, "structure", "shape (2,)"),
    ({"curve_in": np.zeros((2, 3)), "curve_in_present": np.array([1, 0])}, "structure", "bool array"),
    ({"curve_in_present": np.array([True, True])}, "structure", "without `curve_in`"),
    ({"size": (1, 1)}, "structure", "three numbers"),
    ({"size": (1, -1, 1)}, "structure", "pieces[0].size.y"),
    ({"shape": "square"}, "invalid_enum", "pieces[0].shape"),
    ({"sides": 2, "shape": "ngon"}, "structure", "pieces[0].sides"),
    ({"affects": [1, 1], "mode": "subtract"}, "structure", "affects"),
    ({"colour": "red"}, "structure", "unknown field `colour`"),
    ({"positions": None}, "structure", "needs `positions`"),
    ({"properties": {"k": float("nan")}}, "malformed_properties", "pieces[0].properties"),
])
def test_bad_input_is_refused_with_its_place(tmp_path, extra, kind, where):
    target = tmp_path / "bad.sskb"
    w = sskb.Writer(target)
    with pytest.raises(sskb.SskbError) as e:
        w.piece(piece(**extra))
    assert e.value.kind == kind, str(e.value)
    assert where in str(e.value) or where == e.value.path, str(e.value)
    # The refused piece wrote nothing: the writer goes on as before.
    w.piece(piece())
    w.close()
    assert sskb.load(target)["pieces"][0]["id"] == 0
    assert os.listdir(tmp_path) == ["bad.sskb"]


def test_an_exception_in_the_block_leaves_nothing(tmp_path):
    target = tmp_path / "m.sskb"
    with pytest.raises(RuntimeError):
        with sskb.Writer(target) as w:
            w.piece(piece())
            raise RuntimeError("stop")
    assert os.listdir(tmp_path) == []
    with pytest.raises(sskb.SskbError):
        w.piece(piece())


def test_piece_counts(tmp_path):
    target = tmp_path / "m.sskb"
    w = sskb.Writer(target, 2)
    w.piece(piece())
    with pytest.raises(sskb.SskbError) as e:
        w.close()
    assert "piece_count is 2 but 1 pieces were written" in str(e.value)
    assert os.listdir(tmp_path) == []
    w = sskb.Writer(target, 1, validate=False)
    w.piece(piece())
    with pytest.raises(sskb.SskbError) as e:
        w.piece(piece(id=1))
    assert "more pieces than the header's piece_count of 1" in str(e.value)
    w.close()
    assert len(sskb.load(target)["pieces"]) == 1


class Pipe(io.RawIOBase):
    """A write-only stream that cannot seek."""

    def __init__(self):
        self.chunks = []

    def writable(self):
        return True

    def write(self, b):
        self.chunks.append(bytes(b))
        return len(b)


def test_a_pipe_needs_the_count():
    with pytest.raises(sskb.SskbError) as e:
        sskb.Writer(Pipe())
    assert "piece_count is needed" in str(e.value)
    pipe = Pipe()
    with sskb.Writer(pipe, 1) as w:
        w.piece(piece())
    assert b"".join(pipe.chunks) == sskb.write_sskb({"pieces": [{
        "id": 0, "points": [{"x": 0.0, "y": 0.0, "z": 0.0}] * 2,
        "size": {"x": 1.0, "y": 1.0, "z": 1.0}, "shape": "circle"}]})


def test_a_seekable_file_object_gets_its_count_patched():
    out = io.BytesIO(b"prefix")
    out.seek(6)
    with sskb.Writer(out) as w:
        w.piece(piece())
        w.piece(piece(id=1))
    assert out.getvalue()[:6] == b"prefix"
    assert len(sskb.parse_sskb(out.getvalue()[6:])["pieces"]) == 2


def test_an_invalid_document_is_refused_at_close(tmp_path):
    target = tmp_path / "m.sskb"
    w = sskb.Writer(target)
    w.piece(piece(id=1))  # ids must start at 0
    with pytest.raises(sskb.SskbError) as e:
        w.close()
    assert e.value.kind == "validation"
    assert os.listdir(tmp_path) == []
    # Unchecked on request, as write_sskb(validate_document=False).
    with sskb.Writer(target, validate=False) as w:
        w.piece(piece(id=1))
    assert sskb.load(target)["pieces"][0]["id"] == 1


def test_root_properties_set_late_and_checked(tmp_path):
    target = tmp_path / "m.sskb"
    with sskb.Writer(target) as w:
        w.piece(piece())
        w.properties = {"title": "late"}
    assert sskb.load(target)["properties"] == {"title": "late"}
    w = sskb.Writer(target)
    with pytest.raises(sskb.SskbError):
        w.properties = {"bad": object()}
    with pytest.raises(sskb.SskbError):
        w.close(properties=["not", "a", "mapping"])
    assert os.listdir(tmp_path) == ["m.sskb"]


def test_writer_matches_write_sskb_on_a_large_piece(tmp_path):
    rng = np.random.default_rng(3)
    n = 50_000
    xyz = rng.normal(size=(n, 3)).astype(np.float32)
    size = rng.uniform(0, 3, size=(n, 3))
    mask = rng.random(n) < 0.3
    target = tmp_path / "big.sskb"
    with sskb.Writer(target) as w:
        w.piece(id=0, positions=xyz, point_size=size, point_size_present=mask,
                size=(1, 1, 1), shape="circle")
    back = next(iter(sskb.iter_pieces(target, arrays=True)))
    assert np.array_equal(back["positions"], xyz)
    assert np.array_equal(back["point_size_present"], mask)
    assert np.array_equal(back["point_size"][mask], size.astype(np.float32)[mask])
    assert target.read_bytes() == sskb.write_sskb(sskb.load(target))
