"""Errors: `SskbError` (a `ValueError`) with kind, offset, piece, path and
message; wrong inputs are refused with a clear message, never a crash."""

import io
import struct
import threading

import pytest

import sskb
from conftest import CORPUS

LADDER = CORPUS / "valid" / "example_ladder.sskb"


def raised(f, *args, **kw):
    with pytest.raises(sskb.SskbError) as e:
        f(*args, **kw)
    return e.value


def test_the_error_is_a_value_error_with_its_fields():
    data = bytearray(LADDER.read_bytes())
    e = raised(sskb.parse_sskb, bytes(data[:-3]))
    assert isinstance(e, ValueError) and sskb.SSKError is sskb.SskbError
    # Knowing the length, the decoder sees a count too large for the rest.
    assert e.kind == "count_exceeds_remaining" and e.offset < len(data)
    assert e.message in str(e) and e.kind in str(e)
    # Streaming without it, the input simply ends too soon.
    e = raised(lambda: list(sskb.iter_pieces(io.BytesIO(bytes(data[:-3])))))
    assert e.kind == "truncated" and e.offset == len(data) - 3
    # A non-finite coordinate: the point's field, by path and piece.
    doc = {"pieces": [{"id": 0, "points": [{"x": 1.5, "y": 2.5, "z": 3.5}],
                       "size": {"x": 1.0, "y": 1.0, "z": 1.0}, "shape": "circle"}]}
    good = sskb.write_sskb(doc)
    at = good.find(struct.pack("<f", 2.5))
    bad = good[:at] + struct.pack("<f", float("nan")) + good[at + 4:]
    e = raised(sskb.parse_sskb, bad)
    assert (e.kind, e.offset, e.piece, e.path) == ("non_finite", at, 0, "pieces[0].points[0].y")


def test_bad_magic_and_trailing_bytes():
    e = raised(sskb.parse_sskb, b"SSKX\x01\x00")
    assert (e.kind, e.offset, e.path) == ("bad_magic", 0, "magic")
    data = LADDER.read_bytes()
    e = raised(sskb.parse_sskb, data + b"\x00")
    assert e.kind == "trailing_bytes" and e.offset == len(data)
    e = raised(lambda: list(sskb.iter_pieces(io.BytesIO(data + b"junk"))))
    assert e.kind == "trailing_bytes" and e.offset == len(data)


def test_validation_errors_name_the_piece():
    doc = sskb.parse_sskb(LADDER.read_bytes())
    doc["pieces"][0]["size"] = {"x": -1.0, "y": 1.0, "z": 1.0}
    e = raised(sskb.validate_document, doc)
    assert e.kind in ("validation", "structure")
    assert e.path and e.path.startswith("pieces[0]")
    doc = sskb.parse_sskb(LADDER.read_bytes())
    doc["pieces"][1]["from"] = 5
    e = raised(sskb.validate_document, doc)
    assert e.kind == "validation" and e.piece == 1


@pytest.mark.parametrize(
    "value, where",
    [
        ({1, 2}, "`pieces[0].properties.bad`"),
        (object(), "`pieces[0].properties.bad`"),
        (2**70, "`pieces[0].properties.bad`"),
        ({3: "x"}, "`pieces[0].properties.bad`"),
    ],
)
def test_values_a_document_cannot_hold(value, where):
    doc = sskb.parse_sskb(LADDER.read_bytes())
    doc["pieces"][0]["properties"] = {"bad": value}
    for f in (sskb.write_sskb, sskb.write_ssk, sskb.validate_document):
        e = raised(f, doc)
        assert e.kind == "structure" and where in str(e), str(e)


def test_deep_and_cyclic_structures_are_refused():
    deep = []
    for _ in range(100_000):
        deep = [deep]
    doc = {"pieces": [], "properties": {"deep": deep}}
    assert "nested deeper" in str(raised(sskb.write_sskb, doc))
    cyclic = []
    cyclic.append(cyclic)
    doc = {"pieces": [], "properties": {"loop": cyclic}}
    assert "nested deeper" in str(raised(sskb.validate_document, doc))


def test_wrong_documents():
    assert raised(sskb.write_sskb, []).kind == "structure"
    assert raised(sskb.write_sskb, {"pieces": [{"id": 0}]}).kind == "structure"
    assert raised(sskb.parse_ssk, "pieces: [\n").kind == "structure"
    assert raised(sskb.parse_ssk, "a: &x 1\nb: *x\n").kind == "structure"
    with pytest.raises(TypeError):
        sskb.parse_sskb("SSKB")


def test_files_and_streams(tmp_path):
    e = raised(sskb.load, tmp_path / "model.obj")
    assert "unsupported input extension: .obj" in str(e)
    e = raised(sskb.load, tmp_path / "missing.sskb")
    assert e.kind == "io"
    e = raised(sskb.iter_pieces, tmp_path / "missing.sskb")
    assert e.kind == "io"
    bad = tmp_path / "bad.ssk"
    bad.write_bytes(b"pieces: []\n\xff\n")
    assert "UTF-8" in str(raised(sskb.load, bad))
    with open(LADDER, "r", encoding="latin-1") as text_mode:
        assert "binary mode" in str(raised(sskb.iter_pieces, text_mode))
    assert raised(sskb.iter_pieces, io.BytesIO(b""), chunk_size=0).kind == "io"
    e = raised(sskb.iter_pieces, io.BytesIO(b"SSK"))
    assert e.kind == "truncated" and e.offset == 3


def test_properties_only_after_the_end():
    it = sskb.iter_pieces(LADDER)
    assert (it.version, it.piece_count, it.properties) == ("1.0", 16, None)
    assert it.offset == 12
    next(it)
    assert it.properties is None
    rest = list(it)
    assert len(rest) == 15 and it.properties == {}
    assert it.offset == LADDER.stat().st_size
    assert list(it) == []


def test_validate_from_a_stream():
    data = LADDER.read_bytes()
    assert sskb.validate(io.BytesIO(data)) == {"version": "1.0", "pieces": 16, "points": 32}
    e = raised(sskb.validate, io.BytesIO(data[:-1]))
    assert e.kind == "truncated" and e.offset == len(data) - 1


def test_threads_decode_in_parallel_with_the_same_results():
    data = LADDER.read_bytes()
    want = sskb.parse_sskb(data)
    results = [None] * 8

    def work(i):
        results[i] = [sskb.parse_sskb(data) for _ in range(50)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == [want] * 50 for r in results)
