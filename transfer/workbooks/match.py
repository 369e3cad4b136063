"""The organiser's answers to "which one?" for the people named like several known players."""
from tournaments.text import posted_id


def picks_of(post):
    """{person key: player id or "new"} from the preview's selects "pick-<key>"."""
    return {name[5:]: value for name, value in post.items()
            if name.startswith("pick-") and (value == "new" or posted_id(value) is not None)}
