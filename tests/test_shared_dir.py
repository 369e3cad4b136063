"""tests/shared_dir.py: the shared folder is found beside the repository's root wherever it was cloned;
when it is missing, CI fails the comparison with a message and a developer's run skips it with the reason."""
import pytest

from tests.shared_dir import REPOSITORY, shared_dir, shared_file


@pytest.fixture
def clone(tmp_path):
    """A clone in some other folder: <tmp>/checkout, with nothing beside it yet."""
    repository = tmp_path / "checkout"
    repository.mkdir()
    return repository


def test_the_shared_folder_is_the_one_beside_the_repositorys_root(clone):
    (clone.parent / "shared").mkdir()
    (clone.parent / "shared" / "territories.json").write_text("{}")
    assert shared_dir(clone, environ={"CI": "true"}) == clone.parent / "shared"
    assert shared_file("territories.json", clone, environ={}) == clone.parent / "shared" / "territories.json"


def test_a_missing_shared_folder_fails_under_ci_with_the_place_it_was_looked_for(clone):
    with pytest.raises(pytest.fail.Exception) as failure:
        shared_dir(clone, environ={"CI": "true"})
    assert str(failure.value) == (f"the shared folder {clone.parent / 'shared'} (beside the repository's root) "
                                  "is missing: CI must place a copy of shared/ there before running the tests")


@pytest.mark.parametrize("environ", [{}, {"CI": "false"}, {"CI": ""}], ids=["no CI", "CI=false", "CI empty"])
def test_a_missing_shared_folder_skips_outside_ci_with_the_reason(clone, environ):
    with pytest.raises(pytest.skip.Exception) as skip:
        shared_dir(clone, environ=environ)
    assert str(skip.value) == (f"the shared folder {clone.parent / 'shared'} (beside the repository's root) "
                               "is missing: the comparison with the shared copy did not run")


def test_a_file_missing_from_a_present_shared_folder_is_a_failure_even_outside_ci(clone):
    (clone.parent / "shared").mkdir()
    with pytest.raises(AssertionError) as failure:
        shared_file("scoring_cases.json", clone, environ={})
    assert str(failure.value).startswith(f"{clone.parent / 'shared' / 'scoring_cases.json'} is missing")


def test_the_environment_of_the_run_decides_by_default(clone, monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        shared_dir(clone)
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        shared_dir(clone)


def test_the_repository_is_the_root_of_this_checkout():
    assert (REPOSITORY / "manage.py").is_file() and (REPOSITORY / "tests" / "shared_dir.py").is_file()
