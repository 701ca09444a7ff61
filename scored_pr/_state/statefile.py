"""State files on disk: atomic writes and bounded, pickle-free reads of ``.npz`` archives.

Every state file of scored_pr is an uncompressed numpy ``.npz`` (a zip archive
of ``.npy`` members). This module owns the two guarantees that make such a
file safe to use as a checkpoint:

* :func:`write_npz` is atomic (:mod:`scored_pr._atomic`). It writes a
  temporary file in the target's directory, flushes and fsyncs it, then
  renames it over the target with :func:`os.replace`. A crash, ``kill -9`` or
  full disk at any moment leaves either the complete old file or the
  complete new one at ``path``; on an exception the temporary file is
  removed (after ``kill -9`` a stray ``.NAME.*.tmp`` may remain beside it,
  never in its place). The file keeps its permission bits, and a symlink at
  ``path`` is followed: its target is replaced, the link kept.
* :class:`NpzReader` never allocates more than the caller declared, nor more
  than the file's own size (members must be stored uncompressed, as
  :func:`write_npz` writes them). Member
  names, dtypes and shapes are checked against the caller's expectations from
  the ``.npy`` header *before* any array data is read; a member is read with
  at most its declared size (plus one byte to detect trailing data), so a
  zip bomb (a small file whose member declares or decompresses to gigabytes)
  is rejected without being inflated. Object arrays (which would need pickle)
  are refused by their dtype. The archive's directory is read only when it
  is small (at most :data:`MAX_MEMBERS` members, :data:`MAX_DIRECTORY_BYTES`
  bytes): a zip of a million empty members is refused before it is parsed.
  Member names must be distinct; every message is of bounded length.
"""

from __future__ import annotations

import functools
import io
import math
import os
import re
import struct
import zipfile
import zlib
from types import TracebackType
from typing import IO, Any, Callable, TypeVar

import numpy as np
import numpy.typing as npt

from .. import _atomic, _kinds
from .._validation import MAX_LABELS

#: Largest ``.npy`` header accepted (numpy writes 128 bytes for ours).
_MAX_HEADER = 4096
#: Most members a state file may have (scored_pr writes at most 9).
MAX_MEMBERS = 32
#: Largest single read while the archive's directory is parsed: the zip's
#: central directory (ours: under 1 KiB) and the search for its end record
#: (at most 64 KiB of comment after it). A larger directory is refused unread.
MAX_DIRECTORY_BYTES = 1 << 17


def write_npz(path: str | os.PathLike[str], arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Write ``arrays`` to ``path`` as an uncompressed ``.npz``, atomically.

    Written with :func:`scored_pr._atomic.write_file`: an existing file keeps
    its permission bits, a new one gets those ``open()`` would give it (0o666
    less the umask); a symlink at ``path`` is followed and its target
    replaced. The directory entry is fsynced after the rename where the
    platform allows it.

    Raises
    ------
    OSError
        If the file cannot be written; ``path`` then still holds what it held
        before (or still does not exist), and no temporary file is left.
    """
    _atomic.write_file(path, lambda fh: _write_members(fh, arrays))


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


class _DirectoryTooLarge(Exception):
    """Raised by :class:`_CappedFile` in place of a read larger than its cap."""


class _CappedFile:
    """``fh`` as :class:`zipfile.ZipFile` reads it: while ``cap`` is set, no read may exceed it.

    zipfile reads an archive's whole central directory in one read and builds
    an object per member (about 600 bytes each), whatever the directory's
    size; the cap refuses that read when the directory is larger than any
    scored_pr writes, so a hostile directory costs at most ``cap`` bytes.
    """

    def __init__(self, fh: IO[bytes], size: int, cap: int | None) -> None:
        self._fh, self._size, self.cap = fh, size, cap

    def read(self, n: int | None = -1) -> bytes:
        if self.cap is not None:
            want = self._size - self._fh.tell() if n is None or n < 0 else n
            if want > self.cap:
                raise _DirectoryTooLarge(want)
        return self._fh.read(-1 if n is None else n)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._fh.seek(offset, whence)

    def tell(self) -> int:
        return self._fh.tell()

    def seekable(self) -> bool:
        return True


def short_names(names: Any, limit: int = 10) -> str:
    """Up to ``limit`` names (each cut at 40 characters) as a list, and how many more: a message of bounded length."""
    shown = [f"{n!r:.40}" for n in sorted(names)[:limit]]
    more = len(names) - len(shown)
    return "[" + ", ".join(shown) + (f", ... and {more} more" if more > 0 else "") + "]"


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
            capped = _CappedFile(self._fh, self.size, MAX_DIRECTORY_BYTES)
            try:
                self._zip = zipfile.ZipFile(capped)  # type: ignore[arg-type]  # reads, seeks and tells as a file does
            except _DirectoryTooLarge as exc:
                raise self.error(
                    f"is not a scored_pr state file (its zip directory takes {exc.args[0]} bytes; a state file's "
                    f"takes at most {MAX_DIRECTORY_BYTES}, for at most {MAX_MEMBERS} members)."
                ) from None
            capped.cap = None  # members are read through NpzReader.read, bounded by the header
            self._members = self._check_members(self._zip.infolist())
        except _StateFileError:
            self._fh.close()
            raise
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, NotImplementedError,
                RuntimeError, struct.error) as exc:
            self._fh.close()
            raise self.error(f"is not a scored_pr state file (not a readable zip archive: {exc}).") from None
        except BaseException:
            self._fh.close()
            raise

    def _check_members(self, infos: list[zipfile.ZipInfo]) -> dict[str, zipfile.ZipInfo]:
        """The members by name: at most :data:`MAX_MEMBERS`, distinct, ``.npy``, none larger than the file."""
        if len(infos) > MAX_MEMBERS:
            raise self.error(f"is not a scored_pr state file ({len(infos)} members; a state file has at most {MAX_MEMBERS}).")
        members: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            name = info.filename
            if not name.endswith(".npy") or name in members:
                what = "twice" if name in members else "(not a .npy array)"
                raise self.error(f"is not a scored_pr state file (member {name!r:.60} {what}; "
                                 f"members {short_names([i.filename for i in infos])}).")
            # a stored member is its own bytes; a compressed one is refused when read
            stored = info.compress_size if info.compress_type != zipfile.ZIP_STORED else max(info.compress_size, info.file_size)
            if stored > self.size:
                raise self.error(f"is corrupted (member {name!r:.60} declares {stored} bytes, more than the file's {self.size}).")
            members[name] = info
        return members

    @property
    def listing(self) -> str:
        """The array names, for messages (bounded length)."""
        return short_names(self.names)

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
                # in Python ints: a hostile shape's product may overflow int64
                nbytes = math.prod(header_shape) * want.itemsize
                if nbytes > self.size:  # checked before anything is read: no array can exceed the file
                    raise self.error(f"array {name!r} declares {nbytes} bytes, more than the file's {self.size}.")
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

def kind_of_format(fmt: Any) -> str | None:
    """The kind (its one word) whose state files carry ``format`` ``fmt`` (the field a file has carried
    since format 1; the header's ``kind`` field repeats the word), from the registry of kinds; or None."""
    kind = _kinds.by_format(fmt) if isinstance(fmt, str) else None
    return None if kind is None else kind.name


def class_name(kind: str) -> str:
    """The public class of the kind ``kind``, for messages that say which ``load`` reads a file."""
    return _kinds.KINDS[kind].cls.__name__

_Reader = TypeVar("_Reader", bound=Callable[..., Any])


def file_reader(read: _Reader) -> _Reader:
    """``read``, a reader of state files, raising ValueError for every fault of the file.

    The field checks a reader shares with ``from_dict`` raise TypeError for a
    field of the wrong type (right for a dict a caller built); a file's
    fields are not the caller's arguments, so ``load`` says ValueError, as
    its docstring promises, with the same message.
    """

    @functools.wraps(read)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return read(*args, **kwargs)
        except TypeError as exc:
            raise ValueError(str(exc)) from None

    return call  # type: ignore[return-value]


def encode_json(value: Any, what: str = "header") -> npt.NDArray[np.uint8]:
    """``value`` as a JSON member: UTF-8 JSON (no NaN) as bytes.

    Raises ValueError naming ``what`` if ``value`` has no JSON form (such as
    an int of more digits than Python converts to text); the state file is
    then not written, so whatever ``path`` held is kept.
    """
    import json

    try:
        text = json.dumps(value, allow_nan=False)
    except (ValueError, TypeError, RecursionError) as exc:
        raise ValueError(f"save: the state's {what} cannot be written as JSON ({exc}); nothing was written.") from None
    return np.frombuffer(text.encode("utf-8"), dtype=np.uint8)


def encode_meta(meta: dict[str, Any]) -> npt.NDArray[np.uint8]:
    """The header as the ``meta`` member: UTF-8 JSON (no NaN) as bytes."""
    return encode_json(meta)


#: A JSON string, escapes included (the unrolled form: linear time, no backtracking).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')

#: Most objects and arrays a state file's header holds: the header itself, the
#: multi-label kind's ``labels``, and the ``extra`` a stream checkpoint adds
#: (``extra``, its ``layout`` and the layout's ``labels`` and ``score_columns``):
#: 6, with room to spare.
MAX_HEADER_CONTAINERS = 16
#: Most values a header's arrays and objects hold together: three lists of at
#: most MAX_LABELS names (``labels`` and the checkpoint layout's two) and a few
#: dozen fields.
MAX_HEADER_ITEMS = 3 * MAX_LABELS + 256


def _json_shape(raw: Any) -> tuple[int, int]:
    """The objects and arrays, and the values in them, of the JSON text ``raw``: a scan that builds nothing.

    Strings are blanked first (a brace inside one is text, not structure);
    every array or object is counted by its opening bracket, and the values
    (or key-value pairs) in them by the commas between them, plus one per
    container (its first). The scan costs one copy of the text at most.
    """
    bare = _JSON_STRING.sub(b'""', raw)
    containers = bare.count(b"{") + bare.count(b"[")
    return containers, bare.count(b",") + containers


def read_json(npz: NpzReader, name: str, max_bytes: int | None = None, max_containers: int | None = None,
              max_items: int | None = None) -> Any:
    """The JSON member ``name``, refused unparsed if larger than ``max_bytes`` (and than the file),
    or if it holds more than ``max_containers`` objects and arrays or more than ``max_items`` values.

    Parsing JSON takes up to about 25 bytes of memory per byte of text (a
    Python object per value: an empty object ``{}`` costs 64 bytes for its 3
    bytes of text), so each caller bounds a member by what its header allows
    before it is parsed: the file's size bounds every member's bytes, and the
    structure limits (from what ``save`` writes) bound the objects parsing
    would build. The structure is counted by a scan of the text that builds
    no object.
    """
    import json

    limit = npz.size if max_bytes is None else min(max_bytes, npz.size)
    raw = npz.read(name, np.uint8, max_items=limit)
    if max_containers is not None or max_items is not None:
        containers, items = _json_shape(raw)
        if max_containers is not None and containers > max_containers:
            raise npz.error(f"has a corrupted {name!r} member ({containers} JSON objects and arrays; "
                            f"a state file's has at most {max_containers}).")
        if max_items is not None and items > max_items:
            raise npz.error(f"has a corrupted {name!r} member (about {items} JSON values; "
                            f"a state file's has at most {max_items}).")
    try:
        return json.loads(str(raw.data, "utf-8"))  # decoded from the array's buffer: no copy of the bytes
    # ValueError: an int of more digits than Python converts; RecursionError: nesting too deep
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise npz.error(f"has a corrupted {name!r} member.") from None


def read_meta(npz: NpzReader, kind: str | None = None) -> dict[str, Any]:
    """The JSON header of the state file open in ``npz``, checked to be of ``kind``.

    The one place a state file's header is read. The header must be a JSON
    object whose ``format`` names a registered kind of scored_pr state;
    a file of another kind than ``kind`` (None: any) raises a ValueError that
    names the kind found and the class whose ``load`` reads it.
    """
    if "meta" not in npz.names:
        raise npz.error(f"is not a scored_pr state file (arrays {npz.listing}).")
    # No limit on its bytes: a header holds what the constructors accept (a
    # multi-label evaluation's up to MAX_LABELS names, a positive label of any
    # length), so whatever save() writes, load() reads; the file's size bounds
    # it. Its structure is bounded by what save() writes (MAX_HEADER_CONTAINERS,
    # MAX_HEADER_ITEMS), checked before it is parsed.
    meta = read_json(npz, "meta", max_containers=MAX_HEADER_CONTAINERS, max_items=MAX_HEADER_ITEMS)
    fmt = meta.get("format") if isinstance(meta, dict) else None
    found = kind_of_format(fmt)
    if found is None:
        raise npz.error("is not a scored_pr state file.")
    if kind is not None and found != kind:
        raise npz.error(
            f"holds the state of a {class_name(found)} (kind {found!r}), not of a {class_name(kind)}; "
            f"read it with {class_name(found)}.load()."
        )
    return meta


def kind_of(path: str | os.PathLike[str], func: str) -> str:
    """The kind of state (``"exact"``, ``"bounded"``, ``"windowed"``, ``"multi"``, ``"multilabel"``) saved at ``path``.

    Raises FileNotFoundError for a missing file and ValueError for a file
    that is not a scored_pr state file, as every ``load`` does.
    """
    with NpzReader(path, func) as npz:
        found = kind_of_format(read_meta(npz)["format"])
        assert found is not None  # read_meta refused every other format
        return found
