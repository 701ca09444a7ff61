"""Atomic file writes: the one way scored_pr writes a file (state files, checkpoints, HTML reports, plots).

:func:`write_file` writes through a temporary file beside the target and
renames it over the target, so that whatever happens (an exception in the
writer, a full disk, a file-size limit, ``kill -9``) ``path`` holds either
its complete previous content or the complete new one, never a truncated or
empty file:

1. A symlink at ``path`` is followed (every link, as :func:`os.path.realpath`
   resolves them): the file it points to is replaced, the link is kept. A
   dangling link's target is created.
2. The temporary file ``.NAME.<random>.tmp`` is created in the target's
   directory (so that the rename cannot cross file systems), with the mode of
   the file it replaces, or, for a new file, the mode ``open()`` would give
   (0o666 less the umask). The mode is set before any byte is written.
3. The writer fills it; it is flushed and fsynced, then renamed over the
   target with :func:`os.replace`; the directory entry is fsynced where the
   platform allows it.
4. On any exception the temporary file is removed and the exception
   propagates; the target is untouched. (After ``kill -9`` a stray
   ``.NAME.*.tmp`` may remain beside the target, never in its place.)

The file's owner is the writing user's (a rename cannot keep another
owner); only its permission bits are carried over.
"""

from __future__ import annotations

import os
import secrets
import stat
from typing import IO, Callable

__all__ = ["target_of", "temporary_path", "write_bytes", "write_file"]


def target_of(path: str | os.PathLike[str]) -> str:
    """The file a write to ``path`` replaces: ``path`` with every symlink resolved (absolute)."""
    return os.path.realpath(os.fspath(path))


def temporary_path(target: str, suffix: str = ".tmp") -> str:
    """A fresh, unused name beside ``target`` (hidden, random): where a write to ``target`` is prepared."""
    directory, name = os.path.split(target)
    return os.path.join(directory, f".{name}.{secrets.token_hex(6)}{suffix}")


def write_file(path: str | os.PathLike[str], write: Callable[[IO[bytes]], None]) -> None:
    """Write the file at ``path`` atomically: ``write(fh)`` fills a temporary file that then replaces it.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write. A symlink is followed: its target is replaced and
        the link kept. A name that is not valid UTF-8 (surrogate-escaped, as
        :func:`os.fsdecode` gives it) is written under its original bytes.
    write : callable
        Called once with the temporary file, opened for binary writing.

    Raises
    ------
    OSError
        If the file cannot be written (no such directory, no permission, a
        full disk, a file-size limit); ``path`` then holds what it held
        before (or still does not exist), and no temporary file is left.
        Any exception ``write`` raises propagates with the same guarantee.

    Notes
    -----
    The target keeps its permission bits; a new file gets 0o666 less the
    umask, as ``open()`` would create it.
    """
    target = target_of(path)
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None  # a new file: the mode os.open gives below (0o666 less the umask)
    tmp = temporary_path(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                # before any byte is written: the content is never more readable than the target
                if hasattr(os, "fchmod"):
                    os.fchmod(fh.fileno(), mode)
                else:  # Windows before Python 3.13
                    os.chmod(tmp, mode)
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_directory(os.path.dirname(target))


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`write_file`)."""
    def fill(fh: IO[bytes]) -> None:
        fh.write(data)

    write_file(path, fill)


def _sync_directory(directory: str) -> None:
    """Make a rename in ``directory`` durable; not every platform can open a directory."""
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
