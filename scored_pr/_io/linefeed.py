"""Numbered lines of text, with push-back, from a text or a binary stream.

:class:`scored_pr._io.cases.CaseReader` reads its input through one of these. A
:class:`TextFeed` numbers the lines of a text stream as it always did; a
:class:`ByteFeed` reads a binary stream in large blocks and hands out either
one decoded line (:meth:`ByteFeed.next_line`, exactly the lines a
``TextIOWrapper(encoding="utf-8-sig", errors="replace", newline="")`` would
give) or a whole block of complete lines as bytes (:meth:`ByteFeed.take_block`)
for the numpy fast path, with the physical line number of its first line.
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Iterable, Iterator
from typing import IO, Callable

__all__ = ["ByteFeed", "TextFeed"]

#: Bytes read from a binary stream at a time, and the largest block handed
#: out: at most the line-length limit, so that no line in a block can exceed it.
BLOCK_BYTES = 1 << 20

_BOM = b"\xef\xbb\xbf"

Numbered = tuple[int, str]


class TextFeed:
    """The lines of a text stream, numbered from 1, with the line-length limit.

    Parameters
    ----------
    lines : iterable of str
        A text stream (read with ``readline(max_chars + 1)``) or any iterable of lines.
    too_long : callable
        ``too_long(number)`` raises the error for a line longer than ``max_chars``.
    max_chars : int
        The longest line accepted, terminator included.
    """

    def __init__(self, lines: Iterable[str], too_long: Callable[[int], None], max_chars: int) -> None:
        self.pending: collections.deque[Numbered] = collections.deque()
        self.consumed = 0  # characters
        self._numbered = enumerate(self._counted(lines, too_long, max_chars), start=1)

    def _counted(self, lines: Iterable[str], too_long: Callable[[int], None], max_chars: int) -> Iterator[str]:
        readline = getattr(lines, "readline", None)
        if readline is not None:  # a stream: read each line with a length limit
            lines = iter(functools.partial(readline, max_chars + 1), "")
        for number, line in enumerate(lines, start=1):
            if len(line) > max_chars:
                too_long(number)
            self.consumed += len(line)
            yield line

    def next_line(self) -> Numbered | None:
        """The next ``(number, line)`` (pushed-back lines first), or None at the end."""
        return self.pending.popleft() if self.pending else next(self._numbered, None)


class ByteFeed:
    """The lines of a binary UTF-8 stream, one at a time or in blocks of bytes.

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (universal newlines,
    terminators kept, as ``newline=""`` reads them); a UTF-8 byte order mark
    at the very start is dropped; undecodable bytes become U+FFFD in
    :meth:`next_line` (blocks are bytes, undecoded).

    Parameters
    ----------
    raw : binary stream
        Anything with ``read(n)``.
    too_long : callable
        ``too_long(number)`` raises the error for a line longer than ``max_chars`` characters.
    max_chars : int
        The longest line accepted, in characters, terminator included (at
        least :data:`BLOCK_BYTES`, which bounds a block).
    """

    def __init__(self, raw: IO[bytes], too_long: Callable[[int], None], max_chars: int) -> None:
        self.pending: collections.deque[Numbered] = collections.deque()
        self.consumed = 0  # bytes
        self.number = 0  # lines handed out so far (the last line number)
        self._raw = raw
        self._too_long = too_long
        self._max_chars = max_chars
        self._buf = b""
        self._pos = 0
        self._eof = False
        self._started = False

    def _fill(self) -> bool:
        """Read another block; False at the end of the stream."""
        if self._eof:
            return False
        chunk = self._raw.read(BLOCK_BYTES)
        if not self._started:
            while len(chunk) < len(_BOM) and chunk:  # a pipe may deliver fewer bytes
                more = self._raw.read(BLOCK_BYTES)
                if not more:
                    break
                chunk += more
            self._started = True
            if chunk.startswith(_BOM) or (chunk and _BOM.startswith(chunk)):
                # a BOM goes; so does a stream that is only the start of one,
                # as Python's utf-8-sig decoder drops it
                self.consumed += min(len(chunk), len(_BOM))
                chunk = chunk[len(_BOM) :]
                if not chunk:
                    return self._fill()
        if not chunk:
            self._eof = True
            return False
        self._buf = self._buf[self._pos :] + chunk
        self._pos = 0
        return True

    def next_line(self) -> Numbered | None:
        """The next ``(number, line)``, decoded (pushed-back lines first), or None at the end."""
        if self.pending:
            return self.pending.popleft()
        limit = 4 * (self._max_chars + 1)  # bytes that surely hold more than max_chars characters
        while True:
            buf, pos = self._buf, self._pos
            newline = buf.find(b"\n", pos, pos + limit)
            cr = buf.find(b"\r", pos, newline if newline >= 0 else pos + limit)
            if cr >= 0:
                if cr + 1 < len(buf):
                    end = cr + 2 if buf[cr + 1] == 10 else cr + 1
                    break
                if not self._fill():  # a \r at the very end: is a \n next?
                    end = cr + 1
                    break
                continue
            if newline >= 0:
                end = newline + 1
                break
            if len(buf) - pos >= limit:  # no terminator in reach: too long, whatever the characters
                self._too_long(self.number + 1)
            if not self._fill():
                if pos == len(self._buf):
                    return None
                end = len(self._buf)
                break
        raw_line = self._buf[self._pos : end]
        self._pos = end
        self.consumed += len(raw_line)
        text = raw_line.decode("utf-8", "replace")
        self.number += 1
        if len(text) > self._max_chars:
            self._too_long(self.number)
        return self.number, text

    def take_block(self, stop: bytes = b"") -> tuple[int, bytes] | None:
        """The next complete lines as bytes, with the number of the first; None if there are none.

        A block holds at most :data:`BLOCK_BYTES` bytes, ends with ``\\n``,
        has no lone ``\\r`` and stops before the first line holding any byte
        of ``stop``. None when the next line is such a line, is not complete
        yet at the end of the stream, or is longer than a block: read it with
        :meth:`next_line`. Never call it with lines pushed back.
        """
        assert not self.pending, "take_block with lines pushed back"
        if len(self._buf) - self._pos < BLOCK_BYTES and not self._eof:
            self._fill()
        buf, pos = self._buf, self._pos
        end = buf.rfind(b"\n", pos, pos + BLOCK_BYTES) + 1
        if end <= pos:
            return None
        for byte in stop:
            found = buf.find(bytes((byte,)), pos, end)
            if found >= 0:
                end = buf.rfind(b"\n", pos, found) + 1  # the start of that line
                if end <= pos:
                    return None
        block = buf[pos:end]
        if b"\r" in block and block.count(b"\r") != block.count(b"\r\n"):  # a lone \r somewhere
            lone = _first_lone_cr(block)
            cut = block.rfind(b"\n", 0, lone) + 1
            if cut == 0:
                return None
            block = block[:cut]
            end = pos + cut
        self._pos = end
        self.consumed += len(block)
        first = self.number + 1
        self.number += block.count(b"\n")
        return first, block


def _first_lone_cr(block: bytes) -> int:
    """Offset of the first ``\\r`` not followed by ``\\n``."""
    at = block.find(b"\r")
    while at >= 0 and block[at + 1 : at + 2] == b"\n":
        at = block.find(b"\r", at + 1)
    return at
