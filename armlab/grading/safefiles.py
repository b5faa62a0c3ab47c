"""Reading a submission's files without following a link: regular files only.

A name where a notebook is expected may be a link, a FIFO, a device or a socket: none is
followed or read. :func:`walk` lists a folder without entering a linked one;
:func:`open_regular` opens a file below a trusted root one component at a time with
``O_NOFOLLOW`` and reads it only if ``fstat`` says it is regular. A refusal raises
:class:`NotRegular`, which the caller reports.

>>> import os, tempfile
>>> root = tempfile.mkdtemp()
>>> with open(os.path.join(root, "a.ipynb"), "w") as fh:
...     _ = fh.write("{}")
>>> os.symlink("a.ipynb", os.path.join(root, "b.ipynb"))
>>> os.mkfifo(os.path.join(root, "c.ipynb"))
>>> walk(root)
[('a.ipynb', None), ('b.ipynb', 'a symbolic link'), ('c.ipynb', 'a FIFO (named pipe)')]
>>> with open_regular(root, "a.ipynb") as fh:
...     fh.read()
b'{}'
>>> open_regular(root, "b.ipynb")
Traceback (most recent call last):
...
armlab.grading.safefiles.NotRegular: b.ipynb is a symbolic link, not a regular file:
refused, not followed
"""

import errno
import os
import stat

_KINDS = {stat.S_IFLNK: "a symbolic link", stat.S_IFIFO: "a FIFO (named pipe)",
          stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
          stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a folder"}
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


class NotRegular(ValueError):
    """``name`` is not a regular file (``what`` it is instead: "a symbolic link", ...)."""

    def __init__(self, name, what):
        self.name, self.what = name, what
        super().__init__(f"{name} is {what}, not a regular file: refused, not followed")


def kind(mode):
    """What a file of ``st_mode`` ``mode`` is, in words; None for a regular file.

    >>> kind(stat.S_IFREG | 0o644) is None
    True
    >>> kind(stat.S_IFCHR | 0o666)
    'a character device'
    """
    fmt = stat.S_IFMT(mode)
    if fmt == stat.S_IFREG:
        return None
    return _KINDS.get(fmt, "not a file of a known kind")


def _parts(rel):
    parts = [p for p in str(rel).replace(os.sep, "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise ValueError(f"rel: {rel!r} is not a relative path below the root")
    return parts


def _open_folder(root, parts):
    """A descriptor of ``root/parts...``, no component a link (``root`` itself may be)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for k, part in enumerate(parts):
            try:
                nxt = os.open(part, _FOLDER, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    name = "/".join(parts[:k + 1])
                    mode = os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode
                    raise NotRegular(name, kind(mode) or "a file where a folder is expected") \
                        from None
                raise
            os.close(fd)
            fd = nxt
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_regular(root, rel):
    """The regular file ``root/rel`` opened for reading (a binary file object).

    ``root`` is trusted (it may itself be a link); below it no component of ``rel`` may be
    a link, and the file must be regular: otherwise :class:`NotRegular`, raised before
    anything is read (a FIFO is opened without waiting for a writer, a device not at all).
    ``FileNotFoundError`` if it is not there.
    """
    parts = _parts(rel)
    name = "/".join(parts)
    folder = _open_folder(root, parts[:-1])
    try:
        what = kind(os.stat(parts[-1], dir_fd=folder, follow_symlinks=False).st_mode)
        if what:
            raise NotRegular(name, what)
        try:
            fd = os.open(parts[-1], _FILE, dir_fd=folder)
        except OSError as exc:
            if exc.errno == errno.ELOOP:                 # made a link since the stat
                raise NotRegular(name, "a symbolic link") from None
            raise
    finally:
        os.close(folder)
    try:
        what = kind(os.fstat(fd).st_mode)                # what was opened, not what was named
        if what:
            raise NotRegular(name, what)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def copy_regular(root, rel, dest, max_bytes):
    """Copy the regular file ``root/rel`` (:func:`open_regular`) to ``dest``; returns its
    size [bytes]. Raises :class:`NotRegular`, or ``ValueError`` (nothing left at ``dest``)
    when it holds more than ``max_bytes``."""
    with open_regular(root, rel) as src, open(dest, "wb") as out:
        size = 0
        while chunk := src.read(1 << 20):
            size += len(chunk)
            if size > max_bytes:
                break
            out.write(chunk)
    if size > max_bytes:
        os.unlink(dest)
        raise ValueError(f"rel: {rel} is larger than {max_bytes} bytes")
    return size


def walk(root):
    """Every entry below the folder ``root``, depth first, sorted: ``[(relative name,
    None for a regular file or what it is instead)]``. Folders are entered, never a link
    to one (which is listed as "a symbolic link"); folders themselves are not listed."""
    out = []

    def visit(fd, prefix):
        with os.scandir(fd) as entries:
            items = sorted((e.name, e.stat(follow_symlinks=False).st_mode) for e in entries)
        for name, mode in items:
            if stat.S_ISDIR(mode):
                try:
                    sub = _open_folder_at(fd, name, prefix + name)
                except NotRegular as exc:                  # replaced since it was listed
                    out.append((exc.name, exc.what))
                    continue
                try:
                    visit(sub, prefix + name + "/")
                finally:
                    os.close(sub)
            else:
                out.append((prefix + name, kind(mode)))

    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        visit(fd, "")
    finally:
        os.close(fd)
    return out


def _open_folder_at(fd, name, rel):
    try:
        return os.open(name, _FOLDER, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise NotRegular(rel, "a symbolic link") from None
        raise
