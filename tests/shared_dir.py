"""The project's shared documents (the worked cases, the territories, the seeds, the tools): the folder
`shared/` beside the repository's root, `<repository>/../shared`, wherever the repository was cloned.

A test that compares a copy kept in the project with the shared one asks for it through `shared_file`.
Where the folder is missing the comparison cannot run: under CI (CI=true) that is a failure, since CI
always places the folder there; on a developer's machine the test is skipped and says why."""
import os
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent


def running_in_ci(environ=None):
    environ = os.environ if environ is None else environ
    return environ.get("CI", "").strip().lower() in {"true", "1"}


def shared_dir(repository=REPOSITORY, environ=None):
    """`<repository>/../shared`; fails the test under CI and skips it elsewhere when the folder is missing."""
    folder = Path(repository).parent / "shared"
    if folder.is_dir():
        return folder
    reason = f"the shared folder {folder} (beside the repository's root) is missing"
    if running_in_ci(environ):
        pytest.fail(f"{reason}: CI must place a copy of shared/ there before running the tests", pytrace=False)
    pytest.skip(f"{reason}: the comparison with the shared copy did not run")


def shared_file(name, repository=REPOSITORY, environ=None):
    """A file of the shared folder, which must be there once the folder is."""
    path = shared_dir(repository, environ) / name
    assert path.exists(), f"{path} is missing from the shared folder"
    return path
