"""`sskb.render` and `sskb.render_png`: the picture `sskb render` draws,
from a file or a document, as a NumPy array or PNG bytes."""

import pathlib
import struct
import subprocess
import zlib

import numpy as np
import pytest

import sskb
from conftest import CORPUS

CUBE = CORPUS / "valid" / "example_csg_cube.sskb"
TUBE = CORPUS / "valid" / "example_tube.sskb"


def test_an_array_of_rgba_rows():
    a = sskb.render(str(CUBE), size=64)
    assert a.shape == (64, 64, 4) and a.dtype == np.uint8
    assert (a[0, 0] == 255).all(), "white corner"
    assert (a[..., :3] != 255).any(axis=-1).sum() > 64 * 64 // 3, "the model fills a third"
    assert (a[..., 3] == 255).all(), "opaque on white"


def test_a_path_a_pathlike_and_a_document_give_one_picture():
    by_str = sskb.render(str(TUBE), size=48, view="top")
    by_path = sskb.render(pathlib.Path(TUBE), size=48, view="top")
    by_doc = sskb.render(sskb.load(str(TUBE)), size=48, view="top")
    assert np.array_equal(by_str, by_path) and np.array_equal(by_str, by_doc)


def test_views_by_name_text_or_angles():
    assert np.array_equal(sskb.render(str(CUBE), size=32, view="30,20"), sskb.render(str(CUBE), size=32, view=(30, 20)))
    assert np.array_equal(sskb.render(str(CUBE), size=32, view="front"), sskb.render(str(CUBE), size=32, view=(0, 0)))
    assert not np.array_equal(sskb.render(str(CUBE), size=32, view="front"), sskb.render(str(CUBE), size=32))


def test_transparent_background_is_alpha_zero_outside():
    a = sskb.render(str(TUBE), size=40, background="transparent")
    assert (a[0, 0] == 0).all()
    assert (a[..., 3] == 0).any() and (a[..., 3] == 255).any()


def png_pixels(data: bytes) -> np.ndarray:
    """A PNG's RGBA pixels, decoded here (8-bit RGB or RGBA, no interlace)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, color, _, _, interlace = ihdr
    assert depth == 8 and interlace == 0 and color in (2, 6)
    ch = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    out = np.zeros((h, w * ch), dtype=np.int32)
    stride = w * ch
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(h):
        f, line = raw[y * (stride + 1)], np.frombuffer(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)], np.uint8).astype(np.int32)
        cur = np.zeros(stride, dtype=np.int32)
        for x in range(stride):
            a = cur[x - ch] if x >= ch else 0
            b, c = prev[x], prev[x - ch] if x >= ch else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                e = a + b - c
                pa, pb, pc = abs(e - a), abs(e - b), abs(e - c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[x] = (line[x] + p) & 0xFF
        out[y], prev = cur, cur
    px = out.reshape(h, w, ch).astype(np.uint8)
    if ch == 3:
        px = np.concatenate([px, np.full((h, w, 1), 255, np.uint8)], axis=-1)
    return px


def test_png_bytes_hold_the_array():
    for background in ("white", "transparent"):
        data = sskb.render_png(str(CUBE), size=24, background=background, color_by="piece")
        assert np.array_equal(png_pixels(data), sskb.render(str(CUBE), size=24, background=background, color_by="piece"))


def test_the_command_draws_the_same_picture(tmp_path):
    target = pathlib.Path(__file__).resolve().parents[2] / "target"
    built = [target / kind / "sskb" for kind in ("release", "debug") if (target / kind / "sskb").exists()]
    if not built:
        pytest.skip("the command is not built: cargo build")
    exe = built[0]
    out = tmp_path / "cube.png"
    subprocess.run([str(exe), "render", "--size", "32", "--view", "front", str(CUBE), str(out)], check=True)
    assert np.array_equal(png_pixels(out.read_bytes()), sskb.render(str(CUBE), size=32, view="front"))


@pytest.mark.parametrize(
    "kwargs, kind",
    [
        ({"size": 5000}, "limit_exceeded"),
        ({"size": 0}, "limit_exceeded"),
        ({"view": "sideways"}, "usage"),
        ({"view": (0, 95)}, "usage"),
        ({"view": 3}, "usage"),
        ({"background": "#12"}, "usage"),
        ({"color_by": "colour"}, "usage"),
        ({"resolution": 2}, "usage"),
    ],
)
def test_bad_options_are_refused(kwargs, kind):
    with pytest.raises(sskb.SskbError) as e:
        sskb.render(str(CUBE), **kwargs)
    assert e.value.kind == kind


def test_bad_models_are_refused():
    with pytest.raises(sskb.SskbError) as e:
        sskb.render({"pieces": []})
    assert e.value.kind == "mesh" and "nothing to draw" in str(e.value)
    with pytest.raises(sskb.SskbError) as e:
        sskb.render(str(CORPUS / "valid" / "example_csg_cube.json"))
    assert e.value.kind == "io"
    with pytest.raises(sskb.SskbError) as e:
        sskb.render(42)
    assert e.value.kind == "usage"
