"""Fast, streaming reader and writer of SolidSKeleton models.

A drop-in for the reference package's ``ssklib``::

    import sskb as ssklib          # was: import ssklib
    doc = ssklib.load("model.sskb")
    resolved = ssklib.validate_document(doc)

and streaming, which ``ssklib`` lacks::

    for piece in sskb.iter_pieces("huge.sskb", arrays=True):
        piece["positions"]         # (n, 3) float32 NumPy array

Every error raises :class:`SskbError`, a ``ValueError``.
"""

from __future__ import annotations


class SskbError(ValueError):
    """A document could not be read, written or validated.

    Attributes:
        kind: a stable snake_case name: ``bad_magic``,
            ``unsupported_version``, ``truncated``,
            ``count_exceeds_remaining``, ``invalid_enum``, ``non_finite``,
            ``reserved_bits``, ``trailing_bytes``, ``malformed_properties``,
            ``structure``, ``limit_exceeded``, ``validation``, ``io`` or
            ``mesh``.
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
    PieceIter,
    convert,
    iter_pieces,
    load,
    parse_ssk,
    parse_sskb,
    validate,
    validate_document,
    write_ssk,
    write_sskb,
)

__version__ = "0.1.0"

__all__ = [
    "PieceIter",
    "SSKError",
    "SskbError",
    "convert",
    "iter_pieces",
    "load",
    "parse_ssk",
    "parse_sskb",
    "validate",
    "validate_document",
    "write_ssk",
    "write_sskb",
]
