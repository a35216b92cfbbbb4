"""Writing and reading back: .sskb bytes and .ssk text from dicts."""

import random
import struct

import pytest

import sskb
from conftest import CORPUS, binary_cases, random_document, strict_eq

VALID = [c for c in binary_cases() if c["decode"] == "ok"]


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def rounded(v):
    """Geometry as the f32 the format holds; ids, counts and property
    values (f64) as they are."""
    if isinstance(v, dict):
        return {k: (x if k in ("id", "from", "sides", "affects", "properties") else rounded(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [rounded(x) for x in v]
    if isinstance(v, float):
        return f32(v)
    return v


def written(doc):
    """What the format keeps of `doc`: an empty property mapping is written
    as an empty blob, which a piece without `from` (and the root) reads back
    as no properties (ssklib writes and reads it the same way)."""
    doc = dict(doc)
    if doc.get("properties") == {}:
        del doc["properties"]
    doc["pieces"] = [
        {k: v for k, v in p.items() if not (k == "properties" and v == {} and "from" not in p)}
        for p in doc["pieces"]
    ]
    return doc


@pytest.mark.parametrize("case", VALID, ids=lambda c: c["file"])
def test_sskb_round_trip(case):
    data = (CORPUS / case["file"]).read_bytes()
    doc = sskb.parse_sskb(data)
    again = sskb.write_sskb(doc, validate_document=False)
    strict_eq(written(doc), sskb.parse_sskb(again))
    if case["valid"]:
        assert sskb.write_sskb(doc) == again
    else:
        with pytest.raises(sskb.SskbError) as e:
            sskb.write_sskb(doc)
        assert e.value.kind == "validation"


@pytest.mark.parametrize("case", VALID, ids=lambda c: c["file"])
def test_ssk_round_trip(case):
    doc = sskb.parse_sskb((CORPUS / case["file"]).read_bytes())
    text = sskb.write_ssk(doc)
    assert isinstance(text, str)
    back = sskb.parse_ssk(text)
    back.pop("version", None)
    # The text prints each f32 as its shortest decimal: the same f32.
    strict_eq(doc, rounded(back))


@pytest.mark.parametrize("seed", range(40))
def test_random_documents(seed):
    rng = random.Random(seed)
    doc = random_document(rng)
    data = sskb.write_sskb(doc, validate_document=False)
    back = sskb.parse_sskb(data)
    strict_eq(rounded(doc), back)
    it = sskb.iter_pieces(__import__("io").BytesIO(data), chunk_size=rng.randint(1, 64))
    strict_eq(back["pieces"], list(it))
    strict_eq(back.get("properties", {}), it.properties)
    text = sskb.parse_ssk(sskb.write_ssk(doc))
    assert text.pop("version") == "1.0"
    strict_eq(rounded(doc), rounded(text))


def test_repeated_values_are_separate_objects():
    """Equal values in consecutive points (reused floats, copied vector
    dicts) read back equal, and every vector dict is a dict of its own."""
    same = {"x": 1.5, "y": 2.0, "z": 0.0}
    points = []
    for i in range(6):
        p = {"x": 1.0, "y": float(i // 2), "z": 0.0, "curve_in": dict(same), "size": dict(same)}
        p["size"]["x"] = 2.0 + (i // 3)
        p["transition_in"] = {"x": 0.5, "y": 1.0}
        points.append(p)
    doc = {"pieces": [{"id": 0, "points": points, "size": dict(same), "shape": "circle"}]}
    back = sskb.parse_sskb(sskb.write_sskb(doc, validate_document=False))
    got = back["pieces"][0]["points"]
    strict_eq(rounded(points), got)
    for field in ("curve_in", "size", "transition_in"):
        assert len({id(p[field]) for p in got}) == len(got)
    got[0]["curve_in"]["x"] = 99.0
    got[0]["transition_in"]["y"] = 0.0
    assert got[1]["curve_in"]["x"] == 1.5 and got[1]["transition_in"]["y"] == 1.0
