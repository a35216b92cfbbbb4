"""`iter_pieces(..., arrays=True)` gives the dict form's values as NumPy
arrays."""

import io

import numpy as np
import pytest

import sskb
from conftest import CORPUS, binary_cases, random_document

VALID = [c for c in binary_cases() if c["decode"] == "ok"]
VECTORS = {"curve_in": "xyz", "curve_out": "xyz", "size": "xyz", "rotation": "xyz",
           "transition_in": "xy", "transition_out": "xy"}
# The points' size and rotation, beside the piece's own.
NAMES = {"size": "point_size", "rotation": "point_rotation"}


def check_same(dict_piece, array_piece):
    points = dict_piece.get("points")
    other = {k: v for k, v in dict_piece.items() if k != "points"}
    arrays = {"positions"} | {NAMES.get(f, f) for f in VECTORS}
    rest = {k: v for k, v in array_piece.items() if k not in arrays and not k.endswith("_present")}
    assert rest == other
    if points is None:
        assert "positions" not in array_piece
        return
    n = len(points)
    pos = array_piece["positions"]
    assert pos.dtype == np.float32 and pos.shape == (n, 3)
    assert pos.flags.writeable
    assert pos.tolist() == [[p["x"], p["y"], p["z"]] for p in points]
    for field, axes in VECTORS.items():
        name = NAMES.get(field, field)
        have = [field in p for p in points]
        if not any(have):
            assert name not in array_piece and f"{name}_present" not in array_piece
            continue
        values, mask = array_piece[name], array_piece[f"{name}_present"]
        assert values.dtype == np.float32 and values.shape == (n, len(axes))
        assert mask.dtype == np.bool_ and mask.shape == (n,)
        assert mask.tolist() == have
        want = [[p[field][a] for a in axes] if field in p else [0.0] * len(axes) for p in points]
        assert values.tolist() == want


@pytest.mark.parametrize("case", VALID, ids=lambda c: c["file"])
def test_arrays_equal_the_dict_form(case):
    path = CORPUS / case["file"]
    dicts = list(sskb.iter_pieces(path))
    arrays = list(sskb.iter_pieces(path, arrays=True))
    assert len(dicts) == len(arrays)
    for d, a in zip(dicts, arrays):
        check_same(d, a)


@pytest.mark.parametrize("seed", range(20))
def test_arrays_of_random_documents(seed):
    import random
    doc = random_document(random.Random(seed))
    data = sskb.write_sskb(doc, validate_document=False)
    dicts = sskb.parse_sskb(data)["pieces"]
    arrays = list(sskb.iter_pieces(io.BytesIO(data), arrays=True, chunk_size=7))
    for d, a in zip(dicts, arrays):
        check_same(d, a)
    assert len(dicts) == len(arrays)
