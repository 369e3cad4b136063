"""The files of a season: one workbook, a folder of them or a zip, each a tournament named from its file
name ("2019-03-12 Torneo di primavera.xlsx": the tournament "Torneo di primavera" of 12 March 2019)."""
import datetime
import io
import re
import zipfile
from pathlib import Path, PurePosixPath

from django.utils.translation import gettext as _

from transfer.workbooks.book import BOOK_SUFFIXES, MAX_BYTES, MAX_UNPACKED
from transfer.workbooks.model import WorkbookError

MAX_FILES = 500
DATES = (
    (re.compile(r"(?<!\d)(\d{4})[-_.](\d{1,2})[-_.](\d{1,2})(?!\d)"), ("y", "m", "d")),
    (re.compile(r"(?<!\d)(\d{1,2})[-_.](\d{1,2})[-_.](\d{4})(?!\d)"), ("d", "m", "y")),
    (re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})(?!\d)"), ("y", "m", "d")),
)


def _wanted(name):
    """A workbook of the season: not a hidden file, an Office lock file (~$...) or a Mac's shadow copy."""
    path = PurePosixPath(name)
    return path.suffix.lower() in BOOK_SUFFIXES and not any(
        part.startswith((".", "~$", "__MACOSX")) for part in path.parts)


def season_files(path):
    """[(file name, bytes)] of a workbook, a folder (its sub-folders too) or a zip, in name order."""
    path = Path(path)
    try:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and _wanted(p.relative_to(path).as_posix()))
            if len(found) > MAX_FILES:
                raise WorkbookError(_("More than %(n)d files.") % {"n": MAX_FILES})
            files = [(p.relative_to(path).as_posix(), _read(p)) for p in found]
        elif path.suffix.lower() == ".zip":
            files = zip_files(path.read_bytes())
        else:
            return [(path.name, _read(path))]
    except OSError as exc:
        raise WorkbookError(_("cannot read %(path)s: %(error)s") % {"path": path, "error": exc.strerror or exc}) \
            from None
    if not files:
        raise WorkbookError(_("No workbook (.xlsx, .xls, .ods, .csv) in %(path)s.") % {"path": path.name})
    return files


def _read(path):
    if path.stat().st_size > MAX_BYTES:
        raise WorkbookError(_("The file is larger than %(n)d MB.") % {"n": MAX_BYTES // (1024 * 1024)}, file=path.name)
    return path.read_bytes()


def zip_files(data):
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = sorted((i for i in archive.infolist() if not i.is_dir() and _wanted(i.filename)),
                         key=lambda i: i.filename)
        if len(members) > MAX_FILES or sum(i.file_size for i in members) > MAX_UNPACKED:
            raise WorkbookError(_("The zip holds too much: at most %(n)d files and %(mb)d MB.") % {
                "n": MAX_FILES, "mb": MAX_UNPACKED // (1024 * 1024)})
        return [(i.filename, archive.read(i)) for i in members]
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
        raise WorkbookError(_("This zip file is damaged and cannot be read.")) from None


def _stem(name):
    """The file's name without its folder and its workbook suffix ("12.03.2019" keeps its year)."""
    path = PurePosixPath(name)
    return path.stem if path.suffix.lower() in BOOK_SUFFIXES + (".zip",) else path.name


def date_in_name(name):
    """The date a file name carries (2019-03-12, 12-03-2019, 12.03.2019, 20190312), or None."""
    stem = _stem(name)
    for pattern, order in DATES:
        for match in pattern.finditer(stem):
            parts = dict(zip(order, map(int, match.groups())))
            try:
                return datetime.date(parts["y"], parts["m"], parts["d"])
            except ValueError:
                continue
    return None


def name_from_file(name):
    """"2019-03-12_Torneo_di_primavera.xlsx" -> "Torneo di primavera"."""
    stem = _stem(name)
    for pattern, _order in DATES:
        stem = pattern.sub(" ", stem)
    stem = " ".join(stem.replace("_", " ").split()).strip(" -–.")
    return stem[:160] or _stem(name)[:160]
