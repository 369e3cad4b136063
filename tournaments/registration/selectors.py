"""Reads of players and clubs: the accent- and case-insensitive search (tournaments.text.fold), and the one
matching of a person to the known players (`match_person`: a national ID, then name and club, then the
near misses), used by the pasted lists, CSV files, workbooks, the "new player" form and the sign-up."""
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.db.models.functions import Lower
from rapidfuzz import fuzz, process
from django.utils.translation import gettext as _
from django.shortcuts import get_object_or_404

from tournaments.models import Club, Player
from tournaments.rules import may_read_national_id, may_see_player, players_visible_to
from tournaments.text import fold, posted_id, search_words


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
        ratio = max(fuzz.ratio(wanted, fold(text)) / 100
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
    return posted_id(text)


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


# --- one person, one record ----------------------------------------------------------------------------

def known_label(player):
    """'Paolo Barbieri, Tana dei Goblin': a known player as a question about namesakes names them."""
    return f"{player.full_name}, {player.club}" if player.club_id else player.full_name


def clubs_of(players):
    """'Tana dei Goblin, no club': the clubs of namesakes, for the question "which one?"."""
    return ", ".join(str(p.club) if p.club_id else _("no club") for p in players)


# --- the one matching of a person: national ID, then name and club, then the near misses ---------------

NEAR_SCORE = 90       # rapidfuzz's token_sort_ratio: one letter wrong in a name of ten, or the order swapped
CLUB_NEAR_SCORE = 90  # token_set_ratio: "Gufo" is "Il Gufo", "Lariano" is "Club Lariano"


@dataclass
class PersonMatch:
    """Who a typed person is. `player`: the one known player; `candidates`: several known by this name
    (and club), which one?; `elsewhere`: known by this name in another club, the same person now at
    `club_name`?; `near`: near misses (a typo, accents, the order of the names, the club written
    differently), did you mean?; `refusal`: why the person cannot be matched at all."""
    player: object = None
    candidates: list = field(default_factory=list)
    elsewhere: list = field(default_factory=list)
    near: list = field(default_factory=list)
    refusal: str = ""
    club: object = None        # the club named, as known (None: none named, or not in the list yet)
    club_name: str = ""

    @property
    def question(self):
        """"choose", "elsewhere", "near", or "" when nothing is to be asked."""
        if self.player is not None or self.refusal:
            return ""
        return "choose" if self.candidates else "elsewhere" if self.elsewhere else "near" if self.near else ""

    @property
    def asked(self):
        return self.candidates or self.elsewhere or self.near

    def answer(self, pick):
        """The match once the organiser answered (`pick`: a player id among those asked, or "new")."""
        if pick == "new" or not self.question:
            return PersonMatch(player=self.player, club=self.club, club_name=self.club_name, refusal=self.refusal)
        chosen = next((p for p in self.asked if str(p.pk) == str(pick)), None)
        if chosen is None:
            return self
        return PersonMatch(player=chosen, club=self.club, club_name=self.club_name)


def club_named(name):
    """The known club of this name, case aside, or None."""
    name = (name or "").strip()
    return Club.objects.annotate(lname=Lower("name")).filter(lname=name.lower()).first() if name else None


class PersonMatcher:
    """`match` for many people at once: the known players `viewer` may see (everyone's, for `viewer`
    None) and the clubs are read once for the near misses."""

    def __init__(self, viewer):
        self.viewer = viewer
        self._pool = None
        self._clubs = None

    def visible(self, players):
        return players if self.viewer is None else players_visible_to(self.viewer, players)

    def pool(self):
        if self._pool is None:
            self._pool = dict(self.visible(Player.objects.all()).values_list("pk", "name_key"))
        return self._pool

    def clubs(self):
        if self._clubs is None:
            self._clubs = {pk: fold(name) for pk, name in Club.objects.values_list("pk", "name")}
        return self._clubs

    def match(self, *, first_name, last_name, club_name="", national_id="", readings=()):
        """See PersonMatch. A national ID first: held by a player `viewer` may see, that player; held by
        one they may not see, it is left aside (never attached, never revealed) and the name decides.
        Then the name (and its other `readings`) in the club named; a name known only in other clubs
        asks whether it is the same person; no name known, the near misses."""
        club = club_named(club_name)
        found = PersonMatch(club=club, club_name=(club_name or "").strip())
        if national_id:
            holder = Player.objects.filter(national_id=national_id).first()
            if holder is not None and (self.viewer is None or may_see_player(self.viewer, holder)):
                found.player = holder
                return found
        named = []
        for first, last in [(first_name, last_name), *[r for r in readings if r]]:
            named = list(self.visible(Player.objects.select_related("club").filter(
                name_key=fold(f"{first} {last}"))).order_by("pk")[:10])
            if named:
                break
        if named:
            here = named if not club_name else [p for p in named if club is not None and p.club_id == club.pk]
            if national_id:
                # Someone known by another national ID is someone else.
                other = [p for p in here if p.national_id and p.national_id != national_id]
                here = [p for p in here if p not in other]
                named = [p for p in named if not (p.national_id and p.national_id != national_id)]
                if other and club is not None and not here:
                    if may_read_national_id(self.viewer, other[0]):
                        found.refusal = _("%(player)s is known with the national ID %(known)s, not %(id)s") % {
                            "player": known_label(other[0]), "known": other[0].national_id, "id": national_id}
                    else:   # another organiser's player: their national ID stays on their card
                        found.refusal = _("%(player)s is known with another national ID, not %(id)s") % {
                            "player": known_label(other[0]), "id": national_id}
                    return found
            if len(here) == 1:
                found.player = here[0]
            elif here:
                found.candidates = here
            elif named:
                guessed = self.near_clubs(club_name)
                near = [p for p in named if p.club_id in guessed]
                if near:
                    found.near = near               # the club written differently: "Gufo" for "Il Gufo"
                else:
                    found.elsewhere = named         # the same person, now at another club?
            return found
        found.near = self.near_players(f"{first_name} {last_name}")
        return found

    def near_clubs(self, name):
        wanted = fold(name)
        if not wanted:
            return set()
        return {pk for _name, _score, pk in process.extract(wanted, self.clubs(), scorer=fuzz.token_set_ratio,
                                                             score_cutoff=CLUB_NEAR_SCORE, limit=5)}

    def near_players(self, name):
        """The known players whose name is nearly this one, the nearest first, at most 3."""
        wanted = fold(name)
        if not wanted or not self.pool():
            return []
        hits = process.extract(wanted, self.pool(), scorer=fuzz.token_sort_ratio, score_cutoff=NEAR_SCORE, limit=3)
        players = Player.objects.select_related("club").in_bulk([pk for _name, _score, pk in hits])
        return [players[pk] for _name, _score, pk in hits if pk in players]


def match_person(*, viewer, first_name, last_name, club_name="", national_id="", readings=()):
    """One person matched with the known players (see PersonMatcher.match)."""
    return PersonMatcher(viewer).match(first_name=first_name, last_name=last_name, club_name=club_name,
                                       national_id=national_id, readings=readings)
