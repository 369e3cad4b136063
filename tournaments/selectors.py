"""Reads of players and clubs: the accent- and case-insensitive search (tournaments.text.fold)."""
from django.db.models import Q

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


def text_matches(query, text):
    """Every word of `query` is in `text`, accents and case aside (the public "find your table")."""
    folded = fold(text)
    return all(word in folded for word in search_words(query))
