"""`sskb.convert`: glTF (read back here), .sskb and .ssk, by extension;
invalid input writes nothing."""

import json
import struct

import pytest

import sskb
from conftest import CORPUS

REFERENCE = json.loads((CORPUS / "mesh_reference.json").read_text())


def glb_volume(data):
    """Signed volume (mm³, model axes) of every primitive of a .glb."""
    assert data[:4] == b"glTF"
    length = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + length])
    assert doc["asset"]["generator"] == "sskb"
    binary = data[20 + length + 8:]

    def read(i, fmt, width):
        a = doc["accessors"][i]
        view = doc["bufferViews"][a["bufferView"]]
        n = a["count"] * width
        return struct.unpack_from(f"<{n}{fmt}", binary, view.get("byteOffset", 0))

    volume = 0.0
    for mesh in doc.get("meshes", []):
        for prim in mesh["primitives"]:
            pos = read(prim["attributes"]["POSITION"], "f", 3)
            idx = read(prim["indices"], "I", 1)
            p = [(1000 * pos[3 * i], -1000 * pos[3 * i + 2], 1000 * pos[3 * i + 1]) for i in range(len(pos) // 3)]
            for k in range(0, len(idx), 3):
                (ax, ay, az), (bx, by, bz), (cx, cy, cz) = p[idx[k]], p[idx[k + 1]], p[idx[k + 2]]
                volume += (ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)) / 6
    return volume


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_examples_to_glb(tmp_path, name):
    out = tmp_path / f"{name}.glb"
    src = CORPUS / "ssk" / f"{name}.ssk"
    result = sskb.convert(input_path=src, output_path=out, resolution=32)
    assert isinstance(result, sskb.ConversionResult)
    assert (result.input_path, result.output_path, result.output_format) == (src, out, "glb")
    assert result.piece_count == len(sskb.load(src)["pieces"])
    assert result.bytes_written is None and result.coverage_percent is None
    assert result.triangle_count > 0 and result.vertex_count > 0
    length = struct.unpack_from("<I", out.read_bytes(), 12)[0]
    written = json.loads(out.read_bytes()[20:20 + length])
    assert written["accessors"][0]["count"] == 3 * result.triangle_count
    want = REFERENCE[name]["32"]["volume_mm3"]
    assert abs(glb_volume(out.read_bytes()) - want) < 1e-4 * want


def test_gltf_per_piece_and_other_formats(tmp_path):
    src = CORPUS / "ssk" / "example_tube.ssk"
    out = tmp_path / "tube.gltf"
    sskb.convert(src, out, per_piece=True, resolution=8)
    doc = json.loads(out.read_text())
    assert doc["buffers"][0]["uri"] == "tube.bin"
    assert (tmp_path / "tube.bin").stat().st_size == doc["buffers"][0]["byteLength"]
    assert [n["name"] for n in doc["nodes"]] == ["piece 0"]
    r = sskb.convert(src, tmp_path / "tube.sskb")
    assert (r.output_format, r.bytes_written) == ("sskb", (tmp_path / "tube.sskb").stat().st_size)
    assert r.triangle_count is None and r.vertex_count is None and r.piece_count == 2
    r = sskb.convert(tmp_path / "tube.sskb", tmp_path / "tube.ssk")
    assert (r.output_format, r.bytes_written) == ("ssk", (tmp_path / "tube.ssk").stat().st_size)
    assert sskb.load(tmp_path / "tube.ssk")["pieces"][1]["mode"] == "subtract"


def test_invalid_input_writes_nothing(tmp_path):
    out = tmp_path / "bad.glb"
    with pytest.raises(sskb.SskbError) as e:
        sskb.convert(CORPUS / "invalid" / "geometry_ids_gap.sskb", out)
    assert e.value.kind == "validation"
    with pytest.raises(sskb.SskbError):
        sskb.convert(CORPUS / "ssk" / "example_tube.ssk", out, resolution=2)
    with pytest.raises(sskb.SskbError):
        sskb.convert(CORPUS / "ssk" / "example_tube.ssk", tmp_path / "x.obj")
    with pytest.raises(sskb.SskbError) as e:
        sskb.convert(tmp_path / "part.glb", tmp_path / "part.ssk")
    assert e.value.kind == "io" and "part.glb" in str(e.value)
    assert list(tmp_path.iterdir()) == []
