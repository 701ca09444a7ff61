"""Opening an input for reading: a file or standard input, gzip recognised by its first bytes, decoded leniently."""

from __future__ import annotations

import io
import os
import sys
from typing import IO, Any

from .values import InputError

def open_input(path: str, stdin: IO[str] | None = None, binary: bool = False) -> tuple[Any, str, int | None]:
    """Open ``path`` (``-`` for standard input) for reading as UTF-8 text.

    Gzip is recognised by its magic bytes, on standard input as on files,
    whatever the name (``cat preds.csv.gz | scored-pr report -`` works).

    Parameters
    ----------
    path : str
        The file, or ``-``.
    stdin : text stream, optional
        Standard input (default ``sys.stdin``).
    binary : bool, default False
        Return the (decompressed) bytes instead, for :class:`CaseReader` to
        decode itself and parse in blocks. A standard input without a binary
        buffer (a ``StringIO``) is returned as it is, text.

    Returns
    -------
    stream : iterable of str, or a binary stream
        The lines. Undecodable bytes become U+FFFD, so that a bad value is
        reported on its own line instead of failing the whole file.
    source : str
        ``path``, or ``<stdin>``.
    size : int or None
        The size in bytes of a regular uncompressed file, else None.

    Raises
    ------
    InputError
        If the file cannot be opened (no line number).
    """
    if path == "-":
        if stdin is None:
            stdin = sys.stdin
        if stdin is None or getattr(stdin, "closed", False):  # e.g. `scored-pr report - <&-`
            raise InputError("<stdin>", None, "standard input is closed")
        buffer = getattr(stdin, "buffer", None)
        if buffer is None:  # already text (a StringIO in tests): nothing to sniff
            return stdin, "<stdin>", None
        # re-decode the real stdin leniently, BOM included; gzip by its magic bytes
        binary_stream = _binary_stream(buffer)
        return (binary_stream if binary else _text(binary_stream)), "<stdin>", None
    try:
        raw = open(path, "rb")  # noqa: SIM115 (closed by the caller)  # a BufferedReader: peek works
    except OSError as exc:
        raise InputError(path, None, exc.strerror or str(exc)) from None
    try:
        if raw.peek(len(GZIP_MAGIC))[: len(GZIP_MAGIC)] == GZIP_MAGIC:
            raw.close()
            import gzip

            fh: Any = gzip.open(path, "rb")  # gzip.open owns (and closes) its own handle
            return (fh if binary else _text(fh)), path, None
        size = os.fstat(raw.fileno()).st_size
    except OSError as exc:
        raw.close()
        raise InputError(path, None, exc.strerror or str(exc)) from None
    return (raw if binary else _text(raw)), path, size


GZIP_MAGIC = b"\x1f\x8b"


def _binary_stream(raw: IO[bytes]) -> IO[bytes]:
    """The bytes of ``raw``, through gzip when it starts with gzip's magic bytes.

    The decision is made on the content, not the name, so ``cat x.csv.gz |
    scored-pr report -`` and a compressed file without a ``.gz`` suffix both
    work. Peeking does not consume: a plain stream is read from its start.
    """
    buffered: Any = raw if hasattr(raw, "peek") else io.BufferedReader(raw)  # type: ignore[arg-type]
    if buffered.peek(len(GZIP_MAGIC))[: len(GZIP_MAGIC)] == GZIP_MAGIC:
        import gzip

        return gzip.GzipFile(fileobj=buffered, mode="rb")  # type: ignore[return-value]
    return buffered  # type: ignore[no-any-return]


def _text(binary: IO[bytes]) -> IO[str]:
    """UTF-8 text over ``binary``: a BOM dropped, undecodable bytes as U+FFFD, line ends kept."""
    return io.TextIOWrapper(binary, encoding="utf-8-sig", errors="replace", newline="")

