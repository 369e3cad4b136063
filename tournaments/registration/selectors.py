"""Reads of players and clubs: the accent- and case-insensitive search (tournaments.text.fold), and the one
matching of a typed name to the known players (`players_named`), used by the pasted lists, CSV files,
the "new player" form and the public sign-up."""
from difflib import SequenceMatcher

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.shortcuts import get_object_or_404

from tournaments.models import Club, Player
from tournaments.rules import players_visible_to
from tournaments.text import fold, search_words


def player_search_filter(players, query):
    """Every word of `query` in the player's name, nickname, city or club: "Forli" finds "Forlì"."""
    for word in search_words(query):
        players = players.filter(Q(search_key__contains=word) | Q(club__search_key__contains=word))
    return players


def club_search_filter(clubs, query):
    for word in search_words(query):
        clubs = clubs.filter(search_key__contains=word)
    return clubs


def closest_player_names(query, players, n=3):
    """The display names of `players` closest to a typed `query` (accents and case aside), compared
    with the whole name, the surname and the first name: at most `n`, the closest first, none below
    a likeness of 0.6 (one letter in five wrong)."""
    wanted = fold(query)
    scored = {}
    for player in players if wanted else ():
        ratio = max(SequenceMatcher(None, wanted, fold(text)).ratio()
                    for text in (player.display_name, player.last_name, player.first_name))
        if ratio >= 0.6:
            scored[player.display_name] = max(ratio, scored.get(player.display_name, 0))
    return sorted(scored, key=lambda name: (-scored[name], name))[:n]


def text_matches(query, text):
    """Every word of `query` is in `text`, accents and case aside (the public "find your table")."""
    folded = fold(text)
    return all(word in folded for word in search_words(query))


# --- players and clubs -----------------------------------------------------------------------------

def _id(text):
    """A posted id as a number, or None (isdigit() would take "²"; beyond 18 digits SQLite cannot compare)."""
    text = str(text)
    return int(text) if text.isdecimal() and len(text) <= 18 else None


def player_or_404(pk):
    """The player with this id (a number, or posted text), else 404."""
    return get_object_or_404(Player, pk=_id(pk))


def club_or_404(pk):
    return get_object_or_404(Club, pk=_id(pk))


def players_by_ids(user, ids):
    """The players of the posted ids that `user` may see; ids that are not numbers are left out."""
    return list(players_visible_to(user, Player.objects.filter(pk__in=[i for i in map(_id, ids) if i is not None])))


def players_matching(user, query):
    """Every player (with club) `user` may see matching the words of `query`, all of them when it is empty."""
    return player_search_filter(players_visible_to(user, Player.objects.select_related("club")), query)


def clubs_matching(query):
    """Clubs with their number of players, those matching `query` when one is given."""
    clubs = Club.objects.annotate(n_players=Count("players"))
    return club_search_filter(clubs, query) if query else clubs


def player_registrations(player):
    return player.registrations.select_related("tournament")


def players_to_register(user, tournament, query):
    """Players `user` may see not yet registered: those matching the words typed, or else the organising
    club's list."""
    query = query.strip()[:80]
    qs = players_visible_to(user, Player.objects.select_related("club").exclude(registrations__tournament=tournament))
    if len(query) >= 2:
        qs = player_search_filter(qs, query)
    elif tournament.club_id:
        qs = qs.filter(club=tournament.club)
    else:
        return {"query": query, "players": [], "club_list": False}
    return {"query": query, "players": list(qs[:100]), "club_list": len(query) < 2}


# --- one person, one record: a name matched against the known players ---------------------------------

def players_named(*, viewer, first_name, last_name, club=None, club_given=False):
    """The known players by this name, case, accents and spacing aside ("giulia  BIANCHI" is Giulia
    Bianchi), among those `viewer` may see (everyone's, for a command: `viewer` None); of `club` alone
    when `club_given` (None then means a club not in the list: nobody). At most 10, oldest first."""
    players = Player.objects.select_related("club").filter(name_key=fold(f"{first_name} {last_name}"))
    if viewer is not None:
        players = players_visible_to(viewer, players)
    if club_given:
        players = players.filter(club=club) if club is not None else players.none()
    return list(players.order_by("pk")[:10])


def known_label(player):
    """'Paolo Barbieri, Tana dei Goblin': a known player as a question about namesakes names them."""
    return f"{player.full_name}, {player.club}" if player.club_id else player.full_name


def clubs_of(players):
    """'Tana dei Goblin, no club': the clubs of namesakes, for the question "which one?"."""
    return ", ".join(str(p.club) if p.club_id else _("no club") for p in players)
