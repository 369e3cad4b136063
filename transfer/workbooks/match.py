"""The organiser's answers to "which one?" for the people named like several known players."""


def picks_of(post):
    """{person key: player id or "new"} from the preview's selects "pick-<key>"."""
    return {name[5:]: value for name, value in post.items()
            if name.startswith("pick-") and (value == "new" or value.isdecimal() and len(value) <= 18)}
