"""The room (tables.room): big screen data and its 304, find me, my table and the rank chart,
wall list and poster, CORS on the public JSON, the embeddable widget and its frame-ancestors."""
import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.urls import reverse

from tables.standings import cache as public_cache
from tables.standings.charts import rank_chart_svg
from tables.standings.selectors import rank_after_each_round
from tests.factories import PlayerFactory, RegistrationFactory, report, seat_round
from tests.html import attr, field_errors, one, parse, select, text, texts, tr
from tournaments.models import AuditLog
from tournaments.services import clean_origins, tournament_room_save

TRADEMARK = "RisiKo! è un marchio registrato ® Editrice Giochi Srl - Tutti i diritti riservati."


def _reg(tournament, first, last, **kwargs):
    return RegistrationFactory(tournament=tournament,
                               player=PlayerFactory(first_name=first, last_name=last, **kwargs))


@pytest.fixture
def room(tournament):
    """Two rounds of two tables; round 1 reported and closed, round 2 published with table 1 reported."""
    tournament.formula = "punti_tavolo"
    tournament.save()
    names = [("Mario", "Zeta"), ("Niccolò", "Àlbani"), ("Lia", "Bruni"), ("Ugo", "Conti"),
             ("Eva", "Dori"), ("Ida", "Esposito"), ("Leo", "Ferri"), ("Ada", "Galli")]
    regs = [_reg(tournament, f, last) for f, last in names]
    r1 = seat_round(tournament, [regs[:4], regs[4:]], status="closed")
    t1, t2 = r1.tables.order_by("number")
    report(t1, [(80,), (60,), (40,), (0, 1)])
    report(t2, [(70,), (50,), (30,), (0, 1)])
    r2 = seat_round(tournament, [[regs[0], regs[4], regs[1], regs[5]], [regs[2], regs[6], regs[3], regs[7]]])
    report(r2.tables.get(number=1), [(10,), (90,), (20,), (0, 1)])
    return regs, r1, r2


def test_screen_data_lists_seating_by_surname_results_and_standings(client, tournament, room):
    regs, _r1, r2 = room
    response = client.get(reverse("public:screen_data", args=[tournament.pk]))
    assert response.status_code == 200
    data = response.json()
    assert data["round"] == 2
    assert data["panels"] == ["clock", "seating", "results", "standings"]
    # accents aside: Àlbani before Bruni; surname first
    assert [s["name"] for s in data["seating"]][:3] == ["Àlbani Niccolò", "Bruni Lia", "Conti Ugo"]
    assert {s["name"]: s["table"] for s in data["seating"]}["Zeta Mario"] == 1
    assert [r["table"] for r in data["results"]] == [1]
    assert data["results"][0]["players"][0] == {"name": "Eva Dori", "points": "90"}
    assert len(data["standings"]) == 8
    assert data["clock"] is None


def test_screen_data_answers_304_until_something_changes(client, tournament, room, django_capture_on_commit_callbacks):
    url = reverse("public:screen_data", args=[tournament.pk])
    first = client.get(url)
    etag = first["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        report(room[2].tables.get(number=2), [(50,), (40,), (30,), (0, 1)])
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert [r["table"] for r in changed.json()["results"]] == [2, 1]


def test_screen_page_is_public_and_carries_no_inline_script(client, tournament, room):
    response = client.get(reverse("public:screen", args=[tournament.pk]))
    assert response.status_code == 200
    # every script from a file: the screen's, and the live channel's
    assert attr(response, "script", "src") == ["/static/js/screen.js", "/static/js/live.js"]
    assert text(one(response, "[data-trademark]")) == TRADEMARK


def test_screen_of_an_unpublished_tournament_is_not_found(client, tournament):
    tournament.published = False
    tournament.save()
    assert client.get(reverse("public:screen", args=[tournament.pk])).status_code == 404
    assert client.get(reverse("public:screen_data", args=[tournament.pk])).status_code == 404


def test_room_settings_are_saved_through_the_audited_service(client_for, organiser, tournament):
    response = client_for(organiser).post(reverse("manage:room", args=[tournament.pk]), {
        "screen_panels": ["standings", "seating"], "screen_seconds": "30",
        "embed_origins": "https://www.club.it/\nhttp://localhost:8001"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.screen_panels == "seating,standings"
    assert tournament.screen_seconds == 30
    assert tournament.embed_origin_list == ["https://www.club.it", "http://localhost:8001"]
    entry = AuditLog.objects.get(tournament=tournament, action="tournament.update")
    assert entry.before == {"screen_panels": "clock,seating,results,standings", "screen_seconds": 15,
                            "embed_origins": ""}
    assert entry.after["screen_seconds"] == 30


def test_room_settings_refuse_bad_input_with_a_message(client_for, organiser, tournament):
    response = client_for(organiser).post(reverse("manage:room", args=[tournament.pk]), {
        "screen_panels": ["seating"], "screen_seconds": "2", "embed_origins": "javascript:alert(1)"})
    assert response.status_code == 400
    assert field_errors(response, "screen_seconds") == [
        tr("Ensure this value is greater than or equal to %(limit_value)s.", limit_value=5)]
    response = client_for(organiser).post(reverse("manage:room", args=[tournament.pk]), {
        "screen_panels": ["seating"], "screen_seconds": "20", "embed_origins": "javascript:alert(1)"})
    assert response.status_code == 400
    assert field_errors(response, "embed_origins") == [
        tr("“%(line)s” is not a site address such as https://www.myclub.it", line="javascript:alert(1)")]
    tournament.refresh_from_db()
    assert tournament.embed_origins == "" and tournament.screen_seconds == 15
    assert not AuditLog.objects.filter(tournament=tournament, action="tournament.update").exists()


def test_room_settings_are_the_organisers_alone(client_for, arbiter, tournament):
    assert client_for(arbiter).get(reverse("manage:room", args=[tournament.pk])).status_code == 403


def test_clean_origins_keeps_scheme_host_port_and_refuses_paths():
    assert clean_origins(" https://A.club.it/ \n\nhttps://a.club.it") == "https://a.club.it"
    for bad in ("https://club.it/page", "club.it", "https://*.club.it", "https://club.it 'unsafe-inline'"):
        with pytest.raises(ValidationError):
            clean_origins(bad)


def test_service_refuses_no_panels(organiser, tournament):
    with pytest.raises(ValidationError):
        tournament_room_save(user=organiser, tournament=tournament, data={"screen_panels": []})


def _kept():
    from django.core.cache import cache
    return len([key for key in cache._cache if ":snap:" in key])


def test_standings_search_without_javascript_filters_rows_and_is_not_stored(client, tournament, room):
    url = reverse("public:standings", args=[tournament.pk])
    stored = _kept()
    response = client.get(url, {"q": "albani"})
    assert response.status_code == 200
    [row] = select(response, "tr[data-reg]")
    assert row["data-reg"] == str(room[0][1].pk) and text(row.a) == "Niccolò Àlbani"
    assert response["Cache-Control"] == "no-cache"
    assert _kept() == stored  # nothing filed under the visitor's words
    assert select(client.get(url, {"q": "nobody"}), "tr[data-reg]") == []
    # the whole page, as cached for everybody, still has every row and no query
    full = client.get(url)
    assert len(select(full, "tr[data-reg]")) == 8 and one(full, "input[name=q]")["value"] == ""
    assert "nobody" not in text(parse(full))


def test_every_standings_name_links_to_the_player_page(client, tournament, room):
    page = client.get(reverse("public:standings", args=[tournament.pk]))
    links = {row["data-reg"]: row.a["href"] for row in select(page, "tr[data-reg]")}
    assert links == {str(reg.pk): reverse("public:player", args=[tournament.pk, reg.pk]) for reg in room[0]}


def test_player_page_shows_my_table_result_and_rank_chart(client, tournament, room):
    regs, _r1, r2 = room
    page = client.get(reverse("public:player", args=[tournament.pk, regs[4].pk]))
    mine = one(page, "[data-my-table]")
    assert (mine["data-round"], mine["data-table"]) == ("2", "1")
    assert text(mine.h2) == tr("Round %(r)s — Table %(t)s", r=2, t=1)
    assert text(one(mine, "[data-mates]")).endswith(": Mario Zeta, Niccolò Àlbani, Ida Esposito")
    assert text(one(mine, "[data-my-result] strong")) == "90"
    assert one(mine, "a[data-sheet-link]")["href"] == reverse("public:table_sheet", args=[tournament.pk, 2, 1])
    assert len(select(page, "[data-rank-chart] circle")) == 2
    # table 2 not reported yet: no result, the table still shown
    page = client.get(reverse("public:player", args=[tournament.pk, regs[2].pk]))
    mine = one(page, "[data-my-table]")
    assert (mine["data-round"], mine["data-table"]) == ("2", "2") and not select(page, "[data-my-result]")


def test_no_my_table_once_the_round_is_closed(client, tournament, room):
    regs, _r1, r2 = room
    r2.status = "closed"
    r2.save()
    cache.clear()  # a direct save bumps no version; the services do
    page = client.get(reverse("public:player", args=[tournament.pk, regs[0].pk]))
    assert page.status_code == 200 and select(page, "[data-my-table]") == []


def test_rank_after_each_round_follows_the_standings(tournament, room):
    regs, _r1, _r2 = room
    history = rank_after_each_round(tournament)
    # round 1: Zeta 80 and Dori 70 lead; round 2: Dori 70+90 first
    assert history[regs[0].pk][0] == (1, 1)
    assert history[regs[4].pk] == [(1, 2), (2, 1)]


def test_rank_chart_escapes_and_draws_one_point_per_round():
    svg = rank_chart_svg([(1, 4), (2, 1)], 8)
    assert svg.count("<circle") == 2 and "<polyline" in svg and "<title" in svg
    assert rank_chart_svg([], 8) == ""


def test_table_sheet_is_public_once_published(client, tournament, room):
    url = reverse("public:table_sheet", args=[tournament.pk, 2, 1])
    assert client.get(url).status_code == 200
    seat_round(tournament, [room[0][:4]], status="draft")
    assert client.get(reverse("public:table_sheet", args=[tournament.pk, 3, 1])).status_code == 404


def test_wall_list_sorted_by_surname(client, tournament, room):
    page = client.get(reverse("public:wall_list", args=[tournament.pk, 2]))
    assert texts(page, "[data-wall-list] .wall-name") == [
        "Àlbani Niccolò", "Bruni Lia", "Conti Ugo", "Dori Eva", "Esposito Ida", "Ferri Leo", "Galli Ada", "Zeta Mario"]
    assert "wall-cols-2" in one(page, "[data-wall-list]")["class"]
    assert text(one(page, "[data-trademark]")) == TRADEMARK


def test_poster_has_two_qr_codes_each_with_its_address_in_words(client, tournament):
    page = client.get(reverse("public:poster", args=[tournament.pk]))
    codes = select(page, "figure[data-qr]")
    assert len(codes) == 2 and len(select(page, "svg")) == 2
    urls = [text(one(code, ".poster-url")) for code in codes]
    assert all(url.startswith("http://testserver/") for url in urls)
    assert f"http://testserver/t/{tournament.pk}/schermo/" in urls
    assert [one(code, "[role=img]")["aria-label"] for code in codes] == [tr("QR code of %(url)s", url=u) for u in urls]
    assert [len(select(code, "[role=img] svg")) for code in codes] == [1, 1]


@pytest.mark.parametrize("name,args", [("standings_json", []), ("tables_json", [2]), ("player_json", None)])
def test_public_json_answers_cross_origin_without_credentials(client, tournament, room, name, args):
    args = [room[0][0].pk] if args is None else args
    url = reverse(f"public:{name}", args=[tournament.pk, *args])
    for _ in range(2):  # rendered, then from the cache (the middleware)
        response = client.get(url, HTTP_ORIGIN="https://www.club.it")
        assert response.status_code == 200
        assert response["Access-Control-Allow-Origin"] == "*"
        assert "Access-Control-Allow-Credentials" not in response
    not_modified = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert not_modified.status_code == 304 and not_modified["Access-Control-Allow-Origin"] == "*"


def test_player_json(client, tournament, room):
    regs = room[0]
    data = client.get(reverse("public:player_json", args=[tournament.pk, regs[4].pk])).json()
    assert data["player"] == "Eva Dori"
    assert data["current_table"] == {"round": 2, "table": 1, "label": "Round 2 — Table 1",
                                     "players": ["Mario Zeta", "Niccolò Àlbani", "Ida Esposito"]}
    assert data["straight_to_final"] is False
    assert [g["round"] for g in data["games"]] == [1, 2]


def test_html_pages_stay_same_origin(client, tournament, room):
    response = client.get(reverse("public:standings", args=[tournament.pk]))
    assert "Access-Control-Allow-Origin" not in response


def test_widget_denies_framing_until_the_organiser_names_a_site(client, organiser, tournament, room):
    url = reverse("public:standings_widget", args=[tournament.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    tournament_room_save(user=organiser, tournament=tournament,
                         data={"embed_origins": "https://www.club.it\nhttps://other.org"})
    response = client.get(url)
    assert "X-Frame-Options" not in response
    assert "frame-ancestors https://www.club.it https://other.org" in response["Content-Security-Policy"]
    # every other page keeps DENY
    other = client.get(reverse("public:standings", args=[tournament.pk]))
    assert other["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in other["Content-Security-Policy"]


def test_tournament_page_has_find_your_table_box(client, tournament, room):
    page = client.get(reverse("public:tournament", args=[tournament.pk]))
    assert one(page, "form[data-find-table]")["action"] == reverse("public:round", args=[tournament.pk, 2])


def test_round_page_links_the_big_screen(client_for, organiser, tournament, room):
    page = client_for(organiser).get(reverse("manage:round", args=[tournament.pk, 2]))
    assert one(page, "a[data-screen-link]")["href"] == reverse("public:screen", args=[tournament.pk])


def test_tournament_page_gives_the_widget_snippet(client_for, organiser, tournament):
    page = client_for(organiser).get(reverse("manage:tournament", args=[tournament.pk]))
    widget = reverse("public:standings_widget", args=[tournament.pk])
    assert one(page, "textarea[data-embed-snippet]").string.startswith(f'<iframe src="http://testserver{widget}"')


@pytest.mark.parametrize("page_name", ["manage:tournament", "manage:room"])
def test_widget_snippet_escapes_the_tournament_name_in_its_attributes(client_for, organiser, tournament, page_name):
    name = 'Coppa "Rossi" <b>&'
    tournament.name = name
    tournament.save(update_fields=["name"])
    page = client_for(organiser).get(reverse(page_name, args=[tournament.pk]))
    snippet = one(page, "textarea[data-embed-snippet]").string   # what the organiser copies
    assert 'title="Coppa &quot;Rossi&quot; &lt;b&gt;&amp;"' in snippet
    pasted = parse(snippet)                                      # as the club's page reads it
    assert [node.name for node in pasted.contents] == ["iframe"]
    assert pasted.iframe.attrs == {
        "src": "http://testserver" + reverse("public:standings_widget", args=[tournament.pk]), "title": name,
        "width": "100%", "height": "600", "loading": "lazy", "referrerpolicy": "no-referrer"}
    assert pasted.iframe.contents == []
