"""Help-page metadata: every formula documented in Italian and English, with sources,
interpretations, parameters and worked examples that run through the engine."""
import dataclasses
from decimal import Decimal

import pytest

from scoring import FORMULAS, Params
from scoring.catalogue import CATALOGUE
from scoring.help_common import CLUB_SOURCES, GENERAL_INTERPRETATIONS, PARAMETERS, RULEBOOKS, RUNNING_EXAMPLE
from scoring.numeric import shown_for
from tests.shared_dir import shared_dir, shared_file

SPEC_RUNNING_EXAMPLE = {
    "punti_tavolo": (62, 48, 30, 0), "conversione150": ("150.14", 86, 60, 10),
    "conversione200": ("200.14", 86, 60, 10), "bonus50": (112, 48, 30, 0), "vittorie": (112, 48, 30, 0),
    "triestino": ("177.14", "137.14", "85.71", 0), "standard": ("12.62", "7.48", "5.30", 1),
    "faentino": (100, 50, 10, 0), "spartaco": (162, 86, 68, 38), "maialino": (91, 34, 20, 0),
    "veronese": (162, 108, 70, 20), "medagliere": (62, 48, 30, 0),
    # SCORING.md 13.4 and 13.5 on the same table.
    "millesimi": ("1.062", "0.048", "0.030", 0), "maialino_2024": (200, 86, 68, 0),
}


def test_catalogue_covers_every_formula():
    assert list(CATALOGUE) == list(FORMULAS)


@pytest.mark.parametrize("key", list(FORMULAS))
def test_catalogue_entry_is_bilingual_and_complete(key):
    info = CATALOGUE[key]
    texts = [info.name, info.summary, *info.rules, *info.interpretations]
    assert all(t.it and t.en and t.it != t.en for t in texts)
    assert info.rules and info.sources and info.examples
    assert info.ranking == FORMULAS[key].ranking
    for source in info.sources:
        assert (source.document.startswith("seeds/") or source.document in CLUB_SOURCES) and source.section
        assert source.rulebook == RULEBOOKS[source.document]
    fields = {f.name for f in dataclasses.fields(Params)}
    assert set(info.parameters) <= fields and set(info.parameters) <= set(PARAMETERS)
    assert set(FORMULAS[key].parameters) <= set(info.parameters)


@pytest.mark.parametrize("key", list(FORMULAS))
def test_catalogue_examples_run_through_the_engine(key):
    info = CATALOGUE[key]
    for i, example in enumerate(info.examples):
        result = info.run_example(i)
        assert len(result.games) == len(example.games)
    running = info.examples.index(RUNNING_EXAMPLE)
    points = info.run_example(running).games[0].points
    show = shown_for(FORMULAS[key].decimals)
    assert [show(v) for v in points.values()] == [show(Decimal(str(x))) for x in SPEC_RUNNING_EXAMPLE[key]]


@pytest.mark.parametrize("key", ["conversione150", "conversione200", "standard", "spartaco", "veronese",
                                 "millesimi"])
def test_catalogue_shows_the_spec_interpretations(key):
    assert any(n.en.startswith("Interpretation") and n.it.startswith("Interpretazione")
               for n in CATALOGUE[key].interpretations)


def test_catalogue_general_interpretations_are_bilingual():
    assert GENERAL_INTERPRETATIONS and all(n.it and n.en for n in GENERAL_INTERPRETATIONS)
    assert GENERAL_INTERPRETATIONS[0].get("en").startswith("Interpretation: players who share a place")
    assert GENERAL_INTERPRETATIONS[0].get("it").startswith("Interpretazione")


def test_catalogue_sources_exist_in_the_shared_seeds():
    seeds = shared_dir()
    for info in CATALOGUE.values():
        for source in info.sources:
            if source.document not in CLUB_SOURCES:
                assert (seeds / source.document).exists()


def test_catalogue_club_sources_are_the_ones_the_specification_cites():
    """SCORING.md section 13 cites the club documents by tag in its table of sources."""
    spec = shared_file("SCORING.md").read_text(encoding="utf-8")
    sources_table = spec[spec.index("## 13. Club variants"):spec.index("### 13.1")]
    cited = {source.document for info in CATALOGUE.values() for source in info.sources} & set(CLUB_SOURCES)
    assert cited == set(CLUB_SOURCES)
    for tag in CLUB_SOURCES:
        assert f"| {tag} |" in sources_table


# Every worked example of the help pages (SCORING.md section 4), as the pages show it: the points of
# each game ("player:points", a game per "|") and the standings ("rank.player:total").
WORKED_EXAMPLES = {
    "punti_tavolo": [
        ("A:62 B:48 C:30 D:0",
         "1.A:62 2.B:48 3.C:30 4.D:0"),
        ("A:70 B:66 C:51 D:20 E:0",
         "1.A:70 2.B:66 3.C:51 4.D:20 5.E:0"),
        ("A:49.6 B:38.4 C:24 D:0 | A:70 B:66 C:51 D:20 E:0",
         "1.A:119.6 2.B:104.4 3.C:75 4.D:20 5.E:0"),
        ("A:60 B:40 C:20 D:10 | B:60 A:40 D:25 C:5",   # SCORING.md 13.7: previous_round decides
         "1.A:100 2.B:100 3.D:35 4.C:25"),
    ],
    "conversione150": [
        ("A:150.14 B:86 C:60 D:10",
         "1.A:150.14 2.B:86 3.C:60 4.D:10"),
        ("A:150.04 B:96 C:70 D:50 E:10",
         "1.A:150.04 2.B:96 3.C:70 4.D:50 5.E:10"),
        ("A:150.45 B:80 C:60 D:40",
         "1.A:150.45 2.B:80 3.C:60 4.D:40"),
    ],
    "conversione200": [
        ("A:200.14 B:86 C:60 D:10",
         "1.A:200.14 2.B:86 3.C:60 4.D:10"),
        ("A:200.04 B:96 C:70 D:50 E:10",
         "1.A:200.04 2.B:96 3.C:70 4.D:50 5.E:10"),
        ("A:200.45 B:80 C:60 D:40",
         "1.A:200.45 2.B:80 3.C:60 4.D:40"),
    ],
    "bonus50": [
        ("A:112 B:48 C:30 D:0",
         "1.A:112 2.B:48 3.C:30 4.D:0"),
        ("A:120 B:66 C:51 D:20 E:0",
         "1.A:120 2.B:66 3.C:51 4.D:20 5.E:0"),
        ("A:75 B:75 C:31 D:9",
         "1.A:75 1.B:75 3.C:31 4.D:9"),
        ("A:125 B:60 C:37.5 D:15 E:0",   # SCORING.md 13.1.3: Raduno / Open
         "1.A:125 2.B:60 3.C:37.5 4.D:15 5.E:0"),
        ("A:137.5 B:60 C:37.5 D:15 E:0",
         "1.A:137.5 2.B:60 3.C:37.5 4.D:15 5.E:0"),
        ("A:110 B:44 C:30 D:12",         # SCORING.md 13.2: the 2004 final
         "1.A:110 2.B:44 3.C:30 4.D:12"),
    ],
    "vittorie": [
        ("A:112 B:48 C:30 D:0 | E:90 F:39 G:2 H:1 | E:100 C:45 A:10 G:0 | B:120 D:30 F:20 H:10",
         "1.E:190 2.B:168 3.A:122 4.C:75 5.F:59 6.D:30 7.H:11 8.G:2"),
        ("A:112 B:48 C:30 D:0",
         "1.A:112 2.B:48 3.C:30 4.D:0"),
        ("A:120 B:66 C:51 D:20 E:0",
         "1.A:120 2.B:66 3.C:51 4.D:20 5.E:0"),
    ],
    "triestino": [
        ("A:177.14 B:137.14 C:85.71 D:0",
         "1.A:177.14 2.B:137.14 3.C:85.71 4.D:0"),
        ("A:169.08 B:159.42 C:123.19 D:48.31 E:0",
         "1.A:169.08 2.B:159.42 3.C:123.19 4.D:48.31 5.E:0"),
        ("A:177.14 B:137.14 C:85.71 D:0 | E:195.12 F:190.24 G:9.76 H:4.88 | "
         "E:190.48 C:171.43 A:38.1 G:0 | B:215.38 D:92.31 F:61.54 H:30.77",
         "1.E:385.6 2.B:352.53 3.A:215.24 4.C:257.14 5.F:251.78 6.D:92.31 7.H:35.65 8.G:9.76"),
    ],
    "standard": [
        ("A:12.62 B:7.48 C:5.3 D:1",
         "1.A:12.62 2.B:7.48 3.C:5.3 4.D:1"),
        ("A:12.7 B:7.66 C:5.51 D:3.2 E:1",
         "1.A:12.7 2.B:7.66 3.C:5.51 4.D:3.2 5.E:1"),
        ("A:13 B:7.55 C:5.2 D:3.12",
         "1.A:13 2.B:7.55 3.C:5.2 4.D:3.12"),
        ("A:12.75 B:7.6 C:5.38 D:3.15 E:0",   # SCORING.md 13.6.3: Torneo Gufo
         "1.A:12.75 2.B:7.6 3.C:5.38 4.D:3.15 5.E:0"),
    ],
    "faentino": [
        ("A:100 B:50 C:10 D:0",
         "1.A:100 2.B:50 3.C:10 4.D:0"),
        ("A:100 B:50 C:10 D:10 E:0",
         "1.A:100 2.B:50 3.C:10 3.D:10 5.E:0"),
        ("A:75 B:75 C:10 D:10",
         "1.A:75 1.B:75 3.C:10 3.D:10"),
    ],
    "spartaco": [
        ("A:162 B:86 C:68 D:38",
         "1.A:162 2.B:86 3.C:68 4.D:38"),
        ("A:170 B:96 C:81 D:50 E:30",
         "1.A:170 2.B:96 3.C:81 4.D:50 5.E:30"),
        ("A:186 B:86 C:86 D:86",
         "1.A:186 2.B:86 2.C:86 2.D:86"),
        ("A:186 B:86 C:86 D:86",   # SCORING.md 13.3.3: flat, then own_tp
         "1.A:186 2.B:86 2.C:86 2.D:86"),
        ("A:186 B:40 C:25 D:0",
         "1.A:186 2.B:40 3.C:25 4.D:0"),
    ],
    "maialino": [
        ("A:91 B:34 C:20 D:0",
         "1.A:91 2.B:34 3.C:20 4.D:0"),
        ("A:95 B:43 C:30.5 D:10 E:0",
         "1.A:95 2.B:43 3.C:30.5 4.D:10 5.E:0"),
        ("A:55 B:55 C:20.5 D:4.5",
         "1.A:55 1.B:55 3.C:20.5 4.D:4.5"),
    ],
    "veronese": [
        ("A:162 B:108 C:70 D:20",
         "1.A:162 2.B:108 3.C:70 4.D:20"),
        ("A:170 B:126 C:91 D:40 E:0",
         "1.A:170 2.B:126 3.C:91 4.D:40 5.E:0"),
        ("A:200 B:115 C:60 D:32",
         "1.A:200 2.B:115 3.C:60 4.D:32"),
    ],
    "medagliere": [
        ("A:62 B:48 C:30 D:0 | E:40 F:39 G:2 H:1 | E:50 C:45 A:10 G:0 | B:70 D:30 F:20 H:10",
         "1.E:90 2.B:118 3.A:72 4.C:75 4.F:59 6.D:30 7.G:2 8.H:11"),
        ("A:62 B:48 C:30 D:0",
         "1.A:62 2.B:48 3.C:30 4.D:0"),
        ("A:70 B:66 C:51 D:20 E:0",
         "1.A:70 2.B:66 3.C:51 4.D:20 5.E:0"),
    ],
    # SCORING.md 13.4: thousandths, shown with 3 decimals.
    "millesimi": [
        ("A:1.062 B:0.048 C:0.03 D:0",
         "1.A:1.062 2.B:0.048 3.C:0.03 4.D:0"),
        ("Carlo:1.05 A:0.041 B:0.02 C:0.01 | D:1.06 Carlo:0.041 E:0.02 F:0.01",
         "1.Carlo:1.091 2.D:1.06 3.A:0.041 4.B:0.02 4.E:0.02 6.C:0.01 6.F:0.01"),
        ("A:1.1 B:0.099 C:0.027 D:0.002 E:0",
         "1.A:1.1 2.B:0.099 3.C:0.027 4.D:0.002 5.E:0"),
        ("A:1.05 B:1.05 C:0.031 D:0.009",
         "1.A:1.05 1.B:1.05 3.C:0.031 4.D:0.009"),
    ],
    "maialino_2024": [
        ("A:200 B:86 C:68 D:0",
         "1.A:200 2.B:86 3.C:68 4.D:0"),
        ("Franco:200 Luigi:99 Marco:78 Annalisa:75",
         "1.Franco:200 2.Luigi:99 3.Marco:78 4.Annalisa:75"),
        ("A:201 B:55 C:20 D:12",
         "1.A:201 2.B:55 3.C:20 4.D:12"),
        ("B:200 A:100 C:86 D:68",
         "1.B:200 2.A:100 3.C:86 4.D:68"),
    ],
}


def _game_text(game, show):
    return " ".join(f"{p}:{format(show(v).normalize(), 'f')}" for p, v in game.points.items())


@pytest.mark.parametrize("key", list(FORMULAS))
def test_every_worked_example_gives_the_numbers_of_the_help_page(key):
    info = CATALOGUE[key]
    show = shown_for(FORMULAS[key].decimals)
    assert len(info.examples) == len(WORKED_EXAMPLES[key])
    for i, (games, standings) in enumerate(WORKED_EXAMPLES[key]):
        result = info.run_example(i)
        assert " | ".join(_game_text(g, show) for g in result.games) == games
        assert " ".join(f"{r.rank}.{r.player}:{format(show(r.total).normalize(), 'f')}"
                        for r in result.standings) == standings
