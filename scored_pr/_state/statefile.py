"""State files on disk: atomic writes and bounded, pickle-free reads of ``.npz`` archives.

Every state file of scored_pr is an uncompressed numpy ``.npz`` (a zip archive
of ``.npy`` members). This module owns the two guarantees that make such a
file safe to use as a checkpoint:

* :func:`write_npz` is atomic. It writes a temporary file in the target's
  directory, flushes and fsyncs it, then renames it over the target with
  :func:`os.replace`. A crash, ``kill -9`` or full disk at any moment leaves
  either the complete old file or the complete new one at ``path``; on an
  exception the temporary file is removed (after ``kill -9`` a stray
  ``.NAME.*.tmp`` may remain beside it, never in its place).
* :class:`NpzReader` never allocates more than the caller declared, nor more
  than the file's own size (members must be stored uncompressed, as
  :func:`write_npz` writes them). Member
  names, dtypes and shapes are checked against the caller's expectations from
  the ``.npy`` header *before* any array data is read; a member is read with
  at most its declared size (plus one byte to detect trailing data), so a
  zip bomb (a small file whose member declares or decompresses to gigabytes)
  is rejected without being inflated. Object arrays (which would need pickle)
  are refused by their dtype.
"""

from __future__ import annotations

import io
import os
import secrets
import struct
import zipfile
import zlib
from types import TracebackType
from typing import IO, Any

import numpy as np
import numpy.typing as npt

#: Largest ``.npy`` header accepted (numpy writes 128 bytes for ours).
_MAX_HEADER = 4096


def write_npz(path: str | os.PathLike[str], arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Write ``arrays`` to ``path`` as an uncompressed ``.npz``, atomically.

    The file is created with the permissions ``open()`` would give it (0o666
    less the umask). The directory entry is fsynced after the rename where the
    platform allows it.

    Raises
    ------
    OSError
        If the file cannot be written; ``path`` then still holds what it held
        before (or still does not exist), and no temporary file is left.
    """
    target = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(target))
    tmp = os.path.join(directory, f".{os.path.basename(target)}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_members(fh, arrays)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable; not every platform can open a directory
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _write_members(fh: IO[bytes], arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Write ``arrays`` into ``fh`` as the stored (uncompressed) members of an ``.npz``.

    This is what ``np.savez`` writes, done here because ``np.savez`` takes
    ``allow_pickle`` only from numpy 2.1 on: before that it stores the keyword
    as an array named ``allow_pickle``, and the file would not load. Each
    member is written with ``allow_pickle=False`` on every numpy, so an object
    array raises ``ValueError`` instead of being pickled.
    """
    with zipfile.ZipFile(fh, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, array in arrays.items():
            # force_zip64 as np.savez does: the member's size is not known before it is written
            with zf.open(name + ".npy", mode="w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)


class _StateFileError(ValueError):
    """A state file that is not what it must be (raised by :meth:`NpzReader.error`)."""


class NpzReader:
    """A bounded reader of an ``.npz`` archive (use as a context manager).

    Parameters
    ----------
    path : str or os.PathLike
        The file. A missing file raises ``FileNotFoundError`` as ``open()``
        does; anything that is not a zip archive raises ``ValueError``.
    func : str
        The public function on whose behalf the file is read (for messages).
    """

    def __init__(self, path: str | os.PathLike[str], func: str) -> None:
        self.func = func
        self.name = repr(os.fspath(path))
        self._fh: IO[bytes] = open(path, "rb")
        try:
            #: the file's size in bytes: no array read from it can be larger
            self.size = os.fstat(self._fh.fileno()).st_size
            self._zip = zipfile.ZipFile(self._fh)
            self._members = {info.filename: info for info in self._zip.infolist()}
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, NotImplementedError,
                RuntimeError, struct.error) as exc:
            self._fh.close()
            raise self.error(f"is not a scored_pr state file (not a readable zip archive: {exc}).") from None
        except BaseException:
            self._fh.close()
            raise

    def __enter__(self) -> NpzReader:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self._zip.close()
        self._fh.close()

    def error(self, what: str) -> ValueError:
        return _StateFileError(f"{self.func}: {self.name} {what}")

    @property
    def names(self) -> set[str]:
        """The array names in the archive (member names without ``.npy``)."""
        return {n[:-4] if n.endswith(".npy") else n for n in self._members}

    def read(self, name: str, dtype: Any, shape: tuple[int, ...] | None = None, max_items: int | None = None) -> npt.NDArray[Any]:
        """Read array ``name``, checking its header first.

        Parameters
        ----------
        name : str
            The array's name.
        dtype : numpy dtype-like
            The exact dtype required (little-endian as numpy writes it).
        shape : tuple of int, optional
            The exact shape required. Without it the array must be
            1-dimensional with at most ``max_items`` elements.
        max_items : int, optional
            The bound when ``shape`` is not given.

        Raises
        ------
        ValueError
            If the member is missing, its header is malformed or disagrees
            with the expectation, its declared or actual size differs from
            what the header implies, or its checksum fails. Nothing larger
            than the expected array is ever allocated.
        """
        info = self._members.get(name + ".npy")
        if info is None:
            raise self.error(f"has no array {name!r}.")
        if info.compress_type != zipfile.ZIP_STORED:
            # scored_pr writes members uncompressed, so nothing read can exceed
            # the file's own size; a deflated member could inflate far beyond it.
            raise self.error(f"array {name!r} is compressed; scored_pr state files store arrays uncompressed.")
        want = np.dtype(dtype)
        try:
            with self._zip.open(info) as member:
                header_shape, header_dtype = self._header(member, name)
                if header_dtype != want:
                    raise self.error(f"array {name!r} has dtype {header_dtype}, expected {want}.")
                if shape is not None:
                    if header_shape != shape:
                        raise self.error(f"array {name!r} declares shape {header_shape}, expected {shape}.")
                elif len(header_shape) != 1 or max_items is None or header_shape[0] > max_items:
                    raise self.error(f"array {name!r} declares shape {header_shape}, expected at most ({max_items},).")
                nbytes = int(np.prod(header_shape, dtype=np.int64)) * want.itemsize
                if info.file_size != member.tell() + nbytes:
                    raise self.error(
                        f"array {name!r} is {info.file_size} bytes but its header implies {member.tell() + nbytes}."
                    )
                data = member.read(nbytes)
                if len(data) != nbytes or member.read(1):
                    raise self.error(f"array {name!r} is truncated or longer than declared.")
        except _StateFileError:
            raise
        except zipfile.BadZipFile as exc:  # includes a failed CRC check at the end of the member
            raise self.error(f"is corrupted ({exc}).") from None
        # zipfile meets damaged flags with NotImplementedError ("strong encryption"),
        # RuntimeError ("encrypted"), struct.error or ValueError: all mean a damaged file
        except (OSError, EOFError, zlib.error, NotImplementedError, RuntimeError, struct.error, ValueError) as exc:
            raise self.error(f"is corrupted ({type(exc).__name__}: {exc}).") from None
        return np.frombuffer(data, dtype=want).reshape(header_shape)

    def _header(self, member: IO[bytes], name: str) -> tuple[tuple[int, ...], np.dtype[Any]]:
        try:
            major, _ = np.lib.format.read_magic(member)
            if major not in (1, 2, 3):
                raise ValueError(f"unknown .npy version {major}")
            # The header's length is bounded here rather than with numpy's
            # max_header_size, which numpy < 1.24 does not take: numpy then
            # parses a header of at most _MAX_HEADER bytes held in memory.
            length_format = "<H" if major == 1 else "<I"
            raw_length = member.read(struct.calcsize(length_format))
            if len(raw_length) != struct.calcsize(length_format):
                raise EOFError("the header length is cut short")
            (length,) = struct.unpack(length_format, raw_length)
            if length > _MAX_HEADER:
                raise ValueError(f"the header declares {length} bytes, more than {_MAX_HEADER}")
            header = io.BytesIO(raw_length + member.read(length))
            if major == 1:
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(header)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(header)
        except (ValueError, TypeError, SyntaxError, EOFError) as exc:
            raise self.error(f"array {name!r} has a malformed header ({exc}).") from None
        if fortran and len(shape) > 1:
            raise self.error(f"array {name!r} is in Fortran order.")
        if dtype.hasobject:
            raise self.error(f"array {name!r} holds Python objects (dtype {dtype}); scored_pr state files never do.")
        return tuple(int(d) for d in shape), dtype



# ----------------------------------------------------------------- headers and kinds

#: The ``format`` field of every kind of state (the field a file has carried since
#: format 1) -> the kind's short name, which the header's ``kind`` field repeats.
KINDS = {
    "scored_pr.ScoredPrecisionRecallEvaluation": "exact",
    "scored_pr.BoundedEvaluation": "bounded",
    "scored_pr.WindowedEvaluation": "windowed",
    "scored_pr.MultiQueryEvaluation": "multi",
    "scored_pr.MultiLabelEvaluation": "multilabel",
}
#: Each kind's public class, for messages that say which ``load`` reads a file.
CLASSES = {kind: fmt.split(".", 1)[1] for fmt, kind in KINDS.items()}
#: Largest JSON header a state file may carry (ours are a few hundred bytes).
MAX_META_BYTES = 1 << 16


def encode_meta(meta: dict[str, Any]) -> npt.NDArray[np.uint8]:
    """The header as the ``meta`` member: UTF-8 JSON (no NaN) as bytes."""
    import json

    return np.frombuffer(json.dumps(meta, allow_nan=False).encode("utf-8"), dtype=np.uint8)


def read_meta(npz: NpzReader, kind: str | None = None) -> dict[str, Any]:
    """The JSON header of the state file open in ``npz``, checked to be of ``kind``.

    The one place a state file's header is read. The header must be a JSON
    object whose ``format`` names a kind of scored_pr state (:data:`KINDS`);
    a file of another kind than ``kind`` (None: any) raises a ValueError that
    names the kind found and the class whose ``load`` reads it.
    """
    import json

    if "meta" not in npz.names:
        raise npz.error(f"is not a scored_pr state file (arrays {sorted(npz.names)}).")
    raw = npz.read("meta", np.uint8, max_items=MAX_META_BYTES)
    try:
        meta = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise npz.error("has a corrupted header.") from None
    fmt = meta.get("format") if isinstance(meta, dict) else None
    found = KINDS.get(fmt) if isinstance(fmt, str) else None
    if found is None:
        raise npz.error("is not a scored_pr state file.")
    if kind is not None and found != kind:
        raise npz.error(
            f"holds the state of a {CLASSES[found]} (kind {found!r}), not of a {CLASSES[kind]}; "
            f"read it with {CLASSES[found]}.load()."
        )
    return meta


def kind_of(path: str | os.PathLike[str], func: str) -> str:
    """The kind of state (``"exact"``, ``"bounded"``, ``"windowed"``, ``"multi"``, ``"multilabel"``) saved at ``path``.

    Raises FileNotFoundError for a missing file and ValueError for a file
    that is not a scored_pr state file, as every ``load`` does.
    """
    with NpzReader(path, func) as npz:
        return KINDS[read_meta(npz)["format"]]
