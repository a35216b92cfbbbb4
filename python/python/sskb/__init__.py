"""Fast, streaming reader and writer of SolidSKeleton models.

A drop-in for the reference package's ``ssklib`` (every name of its
``__all__``, with the same signatures and answers)::

    import sskb as ssklib          # was: import ssklib
    doc = ssklib.load("model.sskb")
    resolved = ssklib.validate_document(doc)
    result = ssklib.convert("model.sskb", "model.glb")
    print(result.triangle_count)

and streaming, which ``ssklib`` lacks::

    for piece in sskb.iter_pieces("huge.sskb", arrays=True):
        piece["positions"]         # (n, 3) float32 NumPy array

    with sskb.Writer("out.sskb") as w:        # and back, from arrays
        w.piece(id=0, positions=xyz, size=(1, 1, 1), shape="circle")

Every error raises :class:`SskbError`, a ``ValueError`` (also importable as
``SSKError``).
"""

from __future__ import annotations

from dataclasses import dataclass
import os
from pathlib import Path
import struct


class SskbError(ValueError):
    """A document could not be read, written or validated.

    Attributes:
        kind: a stable snake_case name: ``bad_magic``,
            ``unsupported_version``, ``truncated``,
            ``count_exceeds_remaining``, ``invalid_enum``, ``non_finite``,
            ``reserved_bits``, ``trailing_bytes``, ``malformed_properties``,
            ``structure``, ``limit_exceeded``, ``validation``, ``io``,
            ``mesh``, ``usage`` or ``mesh_input`` (a mesh file to import
            that cannot be read).
        offset: the byte offset where it was found, or ``None``.
        piece: the id of the piece, or ``None``.
        path: the field, such as ``pieces[3].points[7].curve_in.y``, or
            ``None``.
        message: what is wrong, for people.
    """

    def __init__(self, text, kind="io", offset=None, piece=None, path=None, message=None):
        super().__init__(text)
        self.kind = kind
        self.offset = offset
        self.piece = piece
        self.path = path
        self.message = text if message is None else message


#: ``ssklib``'s name for the error, for code that catches it by that name.
SSKError = SskbError

from ._sskb import (  # noqa: E402
    __version__,
    PieceIter,
    Writer,
    _convert,
    _import_mesh,
    _score_document,
    canonical_document,
    document_differences,
    documents_equivalent,
    iter_pieces,
    load,
    mesh_document,
    parse_ssk,
    parse_sskb,
    render,
    render_png,
    resolve,
    validate,
    validate_document,
    validate_stream,
    write_glb,
    write_gltf,
    write_ssk,
    write_sskb,
)


#: As ``ssklib``: the mesh resolution, and the glTF import's score weights.
DEFAULT_RESOLUTION = 32
DEFAULT_GLTF_IMPORT_INFILL_WEIGHT = 1.18
DEFAULT_GLTF_IMPORT_OUTFILL_WEIGHT = 1.05
DEFAULT_GLTF_IMPORT_COMPLEXITY_WEIGHT = 1.0
DEFAULT_GLTF_IMPORT_WEIGHTS = {
    "infill_weight": DEFAULT_GLTF_IMPORT_INFILL_WEIGHT,
    "outfill_weight": DEFAULT_GLTF_IMPORT_OUTFILL_WEIGHT,
    "complexity_weight": DEFAULT_GLTF_IMPORT_COMPLEXITY_WEIGHT,
}
DEFAULT_INFILL_WEIGHT = DEFAULT_GLTF_IMPORT_INFILL_WEIGHT
DEFAULT_OUTFILL_WEIGHT = DEFAULT_GLTF_IMPORT_OUTFILL_WEIGHT
DEFAULT_COMPLEXITY_WEIGHT = DEFAULT_GLTF_IMPORT_COMPLEXITY_WEIGHT


@dataclass(frozen=True)
class ConversionResult:
    """What :func:`convert` wrote, field for field as ``ssklib``'s."""

    input_path: Path
    output_path: Path
    output_format: str
    piece_count: int
    bytes_written: int | None = None
    vertex_count: int | None = None
    triangle_count: int | None = None
    coverage_percent: float | None = None
    overfill_percent: float | None = None


def convert(
    input_path,
    output_path,
    *,
    resolution: int = DEFAULT_RESOLUTION,
    expected_piece_count: int | None = None,
    infill_weight: float = DEFAULT_INFILL_WEIGHT,
    outfill_weight: float = DEFAULT_OUTFILL_WEIGHT,
    complexity_weight: float = DEFAULT_COMPLEXITY_WEIGHT,
    per_piece: bool = False,
) -> ConversionResult:
    """Converts ``input_path`` (``.sskb``, ``.ssk``) to ``output_path`` by
    its extension (``.glb``, ``.gltf``, ``.sskb``, ``.ssk``), as
    ``ssklib.convert``: the model is validated first, meshes are made at
    ``resolution``, nothing is left at the path when anything fails.
    ``per_piece`` (ours) gives one glTF node per contributing piece.

    A mesh (``.glb``, ``.gltf``, and ours: ``.stl``, ``.obj``) is imported
    into ``.ssk`` or ``.sskb`` as :func:`import_gltf_to_ssk` does, with the
    weights and ``expected_piece_count``; the result carries its coverage
    and overfill.
    """
    source, target = Path(input_path), Path(output_path)
    if target.suffix.lower() not in {".ssk", ".sskb", ".glb", ".gltf"}:
        raise SskbError(
            f"unsupported output extension: {target.suffix or '(none)'}", "usage"
        )
    if source.suffix.lower() in _MESH_EXTENSIONS:
        if target.suffix.lower() not in {".ssk", ".sskb"}:
            raise SskbError("a mesh can only be imported to .ssk or .sskb", "usage")
        imported = import_gltf_to_ssk(
            source,
            expected_piece_count=expected_piece_count,
            resolution=resolution,
            infill_weight=infill_weight,
            outfill_weight=outfill_weight,
            complexity_weight=complexity_weight,
        )
        doc = imported.document
        data = write_ssk(doc).encode("utf-8") if target.suffix.lower() == ".ssk" else write_sskb(doc)
        temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            temp.write_bytes(data)
            os.replace(temp, target)
        finally:
            if temp.exists():
                temp.unlink()
        return ConversionResult(
            input_path=source,
            output_path=target,
            output_format=target.suffix.lower()[1:],
            piece_count=len(doc["pieces"]),
            bytes_written=len(data),
            coverage_percent=imported.coverage_percent,
            overfill_percent=imported.overfill_percent,
        )
    fields = _convert(source, target, resolution=resolution, per_piece=per_piece)
    return ConversionResult(input_path=source, output_path=target, **fields)


_MESH_EXTENSIONS = {".glb", ".gltf", ".stl", ".obj"}


@dataclass(frozen=True)
class QualityMetrics:
    """How well a model fills a mesh, as ``ssklib``'s: percentages and the
    weighted score."""

    coverage_percent: float
    overfill_percent: float
    score: float


@dataclass(frozen=True)
class ImportResult:
    """What :func:`import_gltf_to_ssk` found, field for field as
    ``ssklib``'s ``ImportResult``; ``source_vertices`` in millimetres, Z up
    (as the reference keeps them), ``source_faces`` int32."""

    document: dict
    coverage_percent: float
    overfill_percent: float
    score: float
    source_vertices: object
    source_faces: object
    expected_piece_count: int | None = None
    resolution: int = DEFAULT_RESOLUTION
    infill_weight: float = DEFAULT_INFILL_WEIGHT
    outfill_weight: float = DEFAULT_OUTFILL_WEIGHT
    complexity_weight: float = DEFAULT_COMPLEXITY_WEIGHT

    def score_document(self, document: dict) -> QualityMetrics:
        """Scores another document against the same mesh, with the same
        weights, by our scorer (many more samples than the reference's,
        an exact inside test)."""
        c, o, s = _score_document(
            document,
            self.source_vertices,
            self.source_faces,
            expected_piece_count=self.expected_piece_count,
            resolution=self.resolution,
            infill_weight=self.infill_weight,
            outfill_weight=self.outfill_weight,
            complexity_weight=self.complexity_weight,
        )
        return QualityMetrics(c, o, s)


def import_gltf_to_ssk(
    path,
    *,
    expected_piece_count: int | None = None,
    max_pieces: int | None = None,
    resolution: int = DEFAULT_RESOLUTION,
    infill_weight: float = DEFAULT_INFILL_WEIGHT,
    outfill_weight: float = DEFAULT_OUTFILL_WEIGHT,
    complexity_weight: float = DEFAULT_COMPLEXITY_WEIGHT,
) -> ImportResult:
    """``ssklib.import_gltf_to_ssk``: a triangle mesh fitted with swept
    pieces (docs/import.md). ``path`` is a ``.glb`` or ``.gltf`` (its
    buffers beside it), or ours: ``.stl`` (millimetres, Z up) or ``.obj``.
    The score is the reference's with these weights; coverage and overfill
    are counted on a grid of over a million samples with an exact inside
    test. Raises :class:`SskbError` (kind ``mesh_input``, ``truncated``,
    ``count_exceeds_remaining`` or ``non_finite``) for a mesh that cannot
    be read, or that encloses no volume."""
    r = _import_mesh(
        Path(path),
        expected_piece_count=expected_piece_count,
        max_pieces=max_pieces,
        resolution=resolution,
        infill_weight=infill_weight,
        outfill_weight=outfill_weight,
        complexity_weight=complexity_weight,
    )
    return ImportResult(
        document=r["document"],
        coverage_percent=r["coverage_percent"],
        overfill_percent=r["overfill_percent"],
        score=r["score"],
        source_vertices=r["source_vertices"],
        source_faces=r["source_faces"],
        expected_piece_count=expected_piece_count,
        resolution=resolution,
        infill_weight=infill_weight,
        outfill_weight=outfill_weight,
        complexity_weight=complexity_weight,
    )


def validate_file(path) -> dict:
    """Loads, resolves and validates a ``.ssk`` or ``.sskb`` file; the
    resolved document, as ``ssklib.validate_file``."""
    return validate_document(load(path))


def _counts(values) -> dict:
    counts: dict = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return dict(sorted(counts.items()))


def _declared_version(path: Path, doc: dict):
    if path.suffix.lower() == ".ssk":
        return doc.get("version")
    try:
        with open(path, "rb") as f:
            header = f.read(8)
    except OSError:
        return None
    if len(header) < 8 or header[:4] != b"SSKB":
        return None
    major, minor = struct.unpack("<HH", header[4:8])
    return f"{major}.{minor}"


def inspect_file(path) -> dict:
    """A validated summary of a ``.ssk`` or ``.sskb`` file, key for key as
    ``ssklib.inspect_file``: ``path``, ``encoding``, ``version``, ``valid``,
    ``bytes``, ``pieces``, ``ids``, ``inherited_pieces``, ``shapes``,
    ``modes``, ``root_properties``."""
    source = Path(path)
    doc = load(source)
    resolved = validate_document(doc)
    pieces = sorted(resolved["pieces"], key=lambda piece: piece["id"])
    return {
        "path": str(source),
        "encoding": source.suffix.lower().lstrip("."),
        "version": _declared_version(source, doc),
        "valid": True,
        "bytes": source.stat().st_size,
        "pieces": len(pieces),
        "ids": [piece["id"] for piece in pieces],
        "inherited_pieces": sum(1 for piece in doc["pieces"] if "from" in piece),
        "shapes": _counts(piece["shape"] for piece in pieces),
        "modes": _counts(piece.get("mode", "add") for piece in pieces),
        "root_properties": "properties" in doc,
    }


__all__ = [
    "SSKError",
    "ConversionResult",
    "DEFAULT_COMPLEXITY_WEIGHT",
    "DEFAULT_GLTF_IMPORT_COMPLEXITY_WEIGHT",
    "DEFAULT_GLTF_IMPORT_INFILL_WEIGHT",
    "DEFAULT_GLTF_IMPORT_OUTFILL_WEIGHT",
    "DEFAULT_GLTF_IMPORT_WEIGHTS",
    "DEFAULT_INFILL_WEIGHT",
    "DEFAULT_OUTFILL_WEIGHT",
    "DEFAULT_RESOLUTION",
    "__version__",
    "canonical_document",
    "convert",
    "document_differences",
    "documents_equivalent",
    "import_gltf_to_ssk",
    "inspect_file",
    "load",
    "mesh_document",
    "parse_ssk",
    "parse_sskb",
    "resolve",
    "validate",
    "validate_document",
    "validate_file",
    "write_glb",
    "write_gltf",
    "write_ssk",
    "write_sskb",
    # Ours.
    "ImportResult",
    "PieceIter",
    "QualityMetrics",
    "SskbError",
    "Writer",
    "iter_pieces",
    "render",
    "render_png",
    "validate_stream",
]
