"""The README is the one page a newcomer reads first: short, its commands the Makefile's own, and every
link in it leading to a page of docs/ that exists."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def test_the_readme_is_about_one_page():
    assert len(README.splitlines()) <= 200


def test_the_two_commands_and_every_make_target_the_readme_names_are_the_makefiles():
    targets = set(re.findall(r"^([a-z][\w-]*):", MAKEFILE, re.M))
    named = set(re.findall(r"\bmake ([a-z][\w-]*)", README))
    assert {"run", "test"} <= named
    assert named - targets == set()


def test_every_link_of_the_readme_leads_to_a_file_of_the_repository():
    links = [target.split("#")[0] for target in re.findall(r"\]\(([^)]+)\)", README)
             if not target.startswith(("http://", "https://", "#"))]
    assert links
    assert [link for link in links if not (ROOT / link).exists()] == []
