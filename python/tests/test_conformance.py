"""Every conformance case through every door of the module: the expected
document (ssklib's dict: the corpus JSON without ``version``) or the
expected error kind."""

import pytest

import sskb
from conftest import CORPUS, Trickle, binary_cases, expected, same_kind, strict_eq, text_cases

BINARY = binary_cases()
TEXT = text_cases()


def dict_form(case):
    doc = expected(case)
    doc.pop("version", None)
    return doc


def test_the_corpus_is_all_there():
    assert len(BINARY) == 609
    assert len(TEXT) == 28
    assert sum(1 for c in BINARY if c["decode"] == "ok") == 102


@pytest.mark.parametrize("case", BINARY, ids=lambda c: c["file"])
def test_parse_sskb_and_load(case):
    data = (CORPUS / case["file"]).read_bytes()
    for door in (lambda: sskb.parse_sskb(data), lambda: sskb.load(CORPUS / case["file"])):
        if case["decode"] == "ok":
            strict_eq(dict_form(case), door())
        else:
            with pytest.raises(sskb.SskbError) as e:
                door()
            assert same_kind(case["decode"], e.value.kind), (e.value.kind, str(e.value))
            assert e.value.offset is not None and 0 <= e.value.offset <= len(data)


def iterate(source, **kw):
    it = sskb.iter_pieces(source, **kw)
    head = (it.version, it.piece_count)
    assert it.properties is None
    pieces = list(it)
    return head, pieces, it.properties


@pytest.mark.parametrize("case", BINARY, ids=lambda c: c["file"])
@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_iter_pieces_from_a_trickle(case, chunk):
    data = (CORPUS / case["file"]).read_bytes()
    if case["decode"] == "ok":
        want = expected(case)
        (version, count), pieces, props = iterate(Trickle(data, chunk), chunk_size=chunk)
        assert version == want["version"]
        assert count == len(want["pieces"])
        strict_eq(want["pieces"], pieces)
        strict_eq(want.get("properties", {}), props)
    else:
        # Told the input's length, counts are checked as they are read:
        # the same error as from a path.
        with pytest.raises(sskb.SskbError) as e:
            iterate(Trickle(data, chunk), chunk_size=chunk, length=len(data))
        assert same_kind(case["decode"], e.value.kind), (e.value.kind, str(e.value))
        # Not told, a count too large for the rest may be found only
        # later, possibly after another problem: rejected all the same.
        with pytest.raises(sskb.SskbError):
            iterate(Trickle(data, chunk), chunk_size=chunk)


@pytest.mark.parametrize("case", BINARY, ids=lambda c: c["file"])
def test_iter_pieces_and_validate_from_a_path(case):
    path = CORPUS / case["file"]
    if case["decode"] == "ok":
        want = expected(case)
        _, pieces, props = iterate(str(path))
        strict_eq(want["pieces"], pieces)
        strict_eq(want.get("properties", {}), props)
        if case["valid"]:
            summary = sskb.validate(path)
            assert summary["version"] == want["version"]
            assert summary["pieces"] == len(want["pieces"])
            assert summary["points"] == sum(len(p.get("points", [])) for p in want["pieces"])
        else:
            with pytest.raises(sskb.SskbError) as e:
                sskb.validate(path)
            assert e.value.kind == "validation"
    else:
        for door in (lambda: iterate(path), lambda: sskb.validate(path)):
            with pytest.raises(sskb.SskbError) as e:
                door()
            assert same_kind(case["decode"], e.value.kind), (e.value.kind, str(e.value))


@pytest.mark.parametrize("case", BINARY, ids=lambda c: c["file"])
def test_validate_document(case):
    if case["decode"] != "ok":
        return
    doc = dict_form(case)
    before = repr(doc)
    if case["valid"]:
        resolved = sskb.validate_document(doc)
        assert repr(doc) == before, "the input was changed"
        by_id = {p["id"]: p for p in resolved["pieces"]}
        for piece, original in zip(resolved["pieces"], doc["pieces"]):
            for k, v in original.items():
                strict_eq(v, piece[k], f"piece {piece['id']}.{k}")
            if "from" in piece:
                base = by_id[piece["from"]]
                for k in ("points", "rotation", "size", "shape", "sides", "mode", "affects", "properties"):
                    if k not in original and k in base:
                        strict_eq(base[k], piece[k], f"piece {piece['id']}.{k} (inherited)")
            assert "points" in piece and "size" in piece and "shape" in piece
    else:
        with pytest.raises(sskb.SskbError) as e:
            sskb.validate_document(doc)
        assert e.value.kind == "validation"


@pytest.mark.parametrize("case", TEXT, ids=lambda c: c["file"])
def test_parse_ssk_and_load(case):
    path = CORPUS / case["file"]
    text = path.read_text(encoding="utf-8")
    for door in (lambda: sskb.parse_ssk(text), lambda: sskb.load(path)):
        if case["decode"] == "ok":
            strict_eq(expected(case), door())
        else:
            with pytest.raises(sskb.SskbError):
                door()


DRAFTS = CORPUS.parent / "drafts"


def test_drafts_read_as_their_twins():
    # The upstream examples as the reference writes them: header 0.6 to 0.9
    # over the 1.0 layout (tests/data/drafts/README.md). ssklib.parse_sskb
    # reads them; so do we, equal to the same models stamped 1.0.
    drafts = sorted(DRAFTS.glob("example_*.sskb"))
    assert len(drafts) == 6
    for path in drafts:
        twin = CORPUS / "valid" / path.name
        data = path.read_bytes()
        assert data[4:6] == b"\x00\x00"
        assert sskb.parse_sskb(data) == sskb.parse_sskb(twin.read_bytes()), path.name
        summary = sskb.validate(str(path))
        assert summary["version"].startswith("0."), summary
        assert [p for p in sskb.iter_pieces(str(path))] == [p for p in sskb.iter_pieces(str(twin))]
