"""The parts every formula's help page shares (`scoring.catalogue` assembles the pages): the bilingual
text type, the rulebooks cited, the worked examples, the parameters and the general interpretations."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from .engine import score_tournament
from .formulas import FORMULAS
from .model import DEFAULT_PARAMS, Game, Params, PlayerResult, Result

SEED_FIRK = "seeds/000_a7942d4744a6b9ce.txt"
SEED_TEAMS = "seeds/001_18de2188b0a5f530.txt"
SEED_BOX = "seeds/002_67dc180d12b8b9c6.txt"
SEED_FIRENZE = "seeds/003_4a543a8b0dba345f.txt"
SEED_RTU = "seeds/004_03decf7dfad5da76.txt"
# Club documents of the variants (SCORING.md section 13), by the tag the specification cites them with.
CLUB_GT_MANUAL = "GT-M"
CLUB_GT_CODE = "GT-C"
CLUB_BARLETTA = "BAR"
CLUB_MODENA = "MO24"
CLUB_N04 = "N04"
RULEBOOKS = {
    SEED_FIRK: "Regolamento F.I.RK. (torneo di Como)",
    SEED_TEAMS: "Regolamento 2vs2 Rahal Maut",
    SEED_BOX: "Regole Time Attack, Editrice Giochi",
    SEED_FIRENZE: "Regolamento del torneo città di Firenze",
    SEED_RTU: "R.T.U. Editrice Giochi",
    CLUB_GT_MANUAL: "Manuale GestioneTorneo V2.4 (RCU Roma)",
    CLUB_GT_CODE: "GestioneTorneo, il programma dei tornei (RCU Roma)",
    CLUB_BARLETTA: "RCU Barletta, Giocatore dell'anno Risik'Arè 2022",
    CLUB_MODENA: "RCU Modena, Coppe Maialino 2024",
    CLUB_N04: "Campionato Nazionale RisiKo! 2004",
}
CLUB_SOURCES = (CLUB_GT_MANUAL, CLUB_GT_CODE, CLUB_BARLETTA, CLUB_MODENA, CLUB_N04)


@dataclass(frozen=True)
class Text:
    """The same text in Italian (the default language) and English."""
    it: str
    en: str

    def get(self, language: str) -> str:
        return self.en if language.startswith("en") else self.it


@dataclass(frozen=True)
class Source:
    document: str   # seed file, or a club document's tag (CLUB_SOURCES)
    section: str    # article or heading in that document

    @property
    def rulebook(self):
        """The document's name as clubs know it: never the file name."""
        return RULEBOOKS[self.document]


@dataclass(frozen=True)
class Example:
    title: Text
    games: tuple[Game, ...]
    params: Params = DEFAULT_PARAMS


@dataclass(frozen=True)
class ParameterInfo:
    name: str
    label: Text
    help: Text
    default: object


@dataclass(frozen=True)
class FormulaInfo:
    key: str
    name: Text
    summary: Text
    rules: tuple[Text, ...]
    sources: tuple[Source, ...]
    interpretations: tuple[Text, ...]
    parameters: tuple[str, ...]
    examples: tuple[Example, ...] = field(default_factory=tuple)

    @property
    def ranking(self) -> str:
        return FORMULAS[self.key].ranking

    def run_example(self, index: int = 0) -> Result:
        """Score worked example `index` with the engine."""
        example = self.examples[index]
        return score_tournament(self.key, example.params, example.games)


def _p(pid, tp, **kw):
    return PlayerResult(pid, Decimal(tp), **kw)


RUNNING_EXAMPLE = Example(
    Text("Tavolo da 4: A 62, B 48, C 30, D eliminato per primo",
         "4-player table: A 62, B 48, C 30, D eliminated first"),
    (Game(1, 1, (_p("A", 62), _p("B", 48), _p("C", 30), _p("D", 0, eliminated=1))),))
FIVE_PLAYER_EXAMPLE = Example(
    Text("Tavolo da 5: A 70, B 66, C 51, D 20, E eliminato per primo",
         "5-player table: A 70, B 66, C 51, D 20, E eliminated first"),
    (Game(1, 1, (_p("A", 70), _p("B", 66), _p("C", 51), _p("D", 20), _p("E", 0, eliminated=1))),))
RISIKO_EXAMPLE = Example(
    Text("RisiKo! di A (40 punti tavolo registrati); B 55, C 20, D 12",
         "A makes RisiKo! (40 table points recorded); B 55, C 20, D 12"),
    (Game(1, 1, (_p("A", 40, risiko=True), _p("B", 55), _p("C", 20), _p("D", 12))),))
TIE_EXAMPLE = Example(
    Text("Parità al primo posto: A 50, B 50, C 31, D 9", "Tie for first: A 50, B 50, C 31, D 9"),
    (Game(1, 1, (_p("A", 50), _p("B", 50), _p("C", 31), _p("D", 9))),))
TWO_ROUNDS_EXAMPLE = Example(
    Text("Due turni, otto giocatori", "Two rounds, eight players"),
    (Game(1, 1, (_p("A", 62), _p("B", 48), _p("C", 30), _p("D", 0, eliminated=1))),
     Game(1, 2, (_p("E", 40), _p("F", 39), _p("G", 2), _p("H", 1))),
     Game(2, 1, (_p("A", 10), _p("E", 50), _p("C", 45), _p("G", 0, eliminated=1))),
     Game(2, 2, (_p("B", 70), _p("F", 20), _p("D", 30), _p("H", 10)))))
MILLESIMI_TWO_ROUNDS_EXAMPLE = Example(
    Text("Barletta 2022: Carlo vince il primo turno con 50 e perde il secondo con 41",
         "Barletta 2022: Carlo wins round 1 with 50 and loses round 2 with 41"),
    (Game(1, 1, (_p("Carlo", 50), _p("A", 41), _p("B", 20), _p("C", 10))),
     Game(2, 1, (_p("D", 60), _p("Carlo", 41), _p("E", 20), _p("F", 10)))))
MILLESIMI_FIVE_EXAMPLE = Example(
    Text("Tavolo da 5: A 83, B 79, C 21, D 1, E eliminato per primo",
         "5-player table: A 83, B 79, C 21, D 1, E eliminated first"),
    (Game(1, 1, (_p("A", 83), _p("B", 79), _p("C", 21), _p("D", 1), _p("E", 0, eliminated=1))),))
MODENA_EXAMPLE = Example(
    Text("L'esempio di Modena: Franco 45, Luigi 44, Marco 23, Annalisa 20",
         "The Modena example: Franco 45, Luigi 44, Marco 23, Annalisa 20"),
    (Game(1, 1, (_p("Annalisa", 20), _p("Marco", 23), _p("Luigi", 44), _p("Franco", 45))),))
SETTLED_TIE_EXAMPLE = Example(
    Text("Parità al primo posto decisa al tavolo: B primo, A secondo con 44; C 30, D 12",
         "Tie for first settled at the table: B first, A second on 44; C 30, D 12"),
    (Game(1, 1, (_p("A", 44, place=2), _p("B", 44, place=1), _p("C", 30), _p("D", 12))),))
COMO_EXAMPLE = Example(
    Text("Como: la stessa partita a 4 (correttivo 4/5) e a 5 giocatori",
         "Como: the same game at 4 players (corrective 4/5) and at 5"),
    RUNNING_EXAMPLE.games + (Game(1, 2, FIVE_PLAYER_EXAMPLE.games[0].players),),
    Params(como_reference=5))

COMMON_PARAMETERS = ("discard_worst", "best_of", "como_reference", "corrective_scope", "tiebreak")

PARAMETERS = {p.name: p for p in (
    ParameterInfo("discard_worst",
                  Text("Scarti", "Discards"),
                  Text("Quanti risultati peggiori di ogni giocatore non contano.",
                       "How many of each player's worst results do not count."), 0),
    ParameterInfo("best_of",
                  Text("Migliori risultati", "Best results"),
                  Text("Se indicato, contano solo gli N risultati migliori (Como: i migliori 3 su 4).",
                       "When set, only the N best results count (Como: best 3 of 4)."), None),
    ParameterInfo("como_reference",
                  Text("Correttivo di Como", "Como corrective"),
                  Text("Se indicato (di solito 5), i punti di una partita sono moltiplicati per "
                       "giocatori al tavolo / riferimento: 3/5, 4/5, 6/5 (regolamento F.I.RK., torneo di "
                       "Como, regola 5).",
                       "When set (usually 5), a game's points are multiplied by players at the table / "
                       "reference: 3/5, 4/5, 6/5 (F.I.RK. rules, Como tournament, rule 5)."), None),
    ParameterInfo("corrective_scope",
                  Text("Correttivo sui punti tavolo", "Corrective on table points"),
                  Text("Con il correttivo di Como indicato: sui punti (predefinito) moltiplica i punti "
                       "della partita; sui punti tavolo moltiplica invece i punti tavolo prima della "
                       "formula, bonus e punti fissi esclusi (Raduni e Open di Roma: riferimento 4, "
                       "quindi ×1,25 ai tavoli da 5 e ×0,75 ai tavoli da 3). Il 100 di un RisiKo! non "
                       "viene mai aumentato (75 a un tavolo da 3). Interpretazione: ai tavoli da 6 il "
                       "fattore è 1,5; i punti tavolo con decimali si usano come registrati.",
                       "With the Como corrective set: on points (the default) it multiplies the game's "
                       "points; on table points it multiplies the table points before the formula "
                       "instead, bonuses and fixed points excluded (Rome's Raduni and Open: reference 4, "
                       "so ×1.25 at 5-player tables and ×0.75 at 3-player tables). A RisiKo!'s 100 is "
                       "never raised (75 at a 3-player table). Interpretation: at 6-player tables the "
                       "factor is 1.5; table points with decimals are used as entered."), "score"),
    ParameterInfo("tiebreak",
                  Text("Spareggi", "Tie-breaks"),
                  Text("Criteri applicati in ordine ai giocatori a pari merito: migliori risultati, "
                       "vittorie, punti tavolo, scontro diretto, posizione al turno precedente (chi era "
                       "davanti resta davanti).",
                       "Criteria applied in order to tied players: best results, wins, table points, "
                       "head to head, position after the previous round (who was ahead stays ahead)."), ()),
    ParameterInfo("bonus",
                  Text("Bonus vittoria", "Win bonus"),
                  Text("Punti aggiunti al vincitore del tavolo.", "Points added to the table winner."), 50),
    ParameterInfo("spartaco_malus",
                  Text("Malus RisiKo! subito", "Malus for a RisiKo! suffered"),
                  Text("Con un RisiKo! al tavolo il vincitore prende 200 meno questo valore e ogni altro "
                       "giocatore 100 meno questo valore.",
                       "With a RisiKo! at the table the winner gets 200 minus this value and every other "
                       "player 100 minus this value."), 14),
    ParameterInfo("spartaco_risiko_losers",
                  Text("Sconfitti dopo un RisiKo!", "Losers after a RisiKo!"),
                  Text("Fisso (predefinito): ogni altro giocatore prende 100 meno il malus. Propri punti "
                       "tavolo (Campionato Gufo, RCU Roma): ognuno prende i propri punti tavolo, un "
                       "eliminato 0.",
                       "Flat (the default): every other player gets 100 minus the malus. Own table points "
                       "(Campionato Gufo, RCU Rome): each gets their own table points, an eliminated "
                       "player 0."), "flat"),
    ParameterInfo("risiko_total",
                  Text("Punti per un RisiKo!", "Points for a RisiKo!"),
                  Text("Se indicato, chi fa RisiKo! prende esattamente questi punti invece di 100 più il "
                       "bonus (finale nazionale 2004: bonus 20, RisiKo! 110).",
                       "When set, the player who makes RisiKo! gets exactly these points instead of 100 "
                       "plus the bonus (2004 national final: bonus 20, RisiKo! 110)."), None),
    ParameterInfo("standard_eliminated",
                  Text("Punti degli eliminati", "Points of eliminated players"),
                  Text("Per ordine (predefinito): l'ordine di eliminazione, 1 al primo eliminato, 2 al "
                       "secondo, ... Per posizione (Torneo Gufo, RCU Roma): 5 meno il piazzamento finale, "
                       "mai sotto 0, quindi il primo eliminato di un tavolo da 5 prende 0.",
                       "By order (the default): the elimination order, 1 to the first eliminated, 2 to the "
                       "second, ... By position (Torneo Gufo, RCU Rome): 5 minus the final place, never "
                       "below 0, so the first eliminated of a 5-player table gets 0."), "order"),
)}

SHARED_PLACES = Text(
    "Interpretazione: i giocatori a pari merito (stessi punti tavolo, non separati dagli spareggi "
    "del tavolo) si dividono in parti uguali la somma dei punti delle posizioni che occupano insieme.",
    "Interpretation: players who share a place (same table points, not separated by the table's "
    "tie-break) share equally the sum of the points of the positions they jointly occupy.")
TABLE_TIE_BREAK = Text(
    "Interpretazione: una parità risolta al tavolo con il piazzamento esplicito (criteri di spareggio "
    "del R.T.U.) non è più una parità: conta il piazzamento deciso.",
    "Interpretation: a tie settled at the table with an explicit place (the R.T.U. tie-break list) is "
    "no longer a tie: the decided place counts.")
SHARED_WIN = Text(
    "Interpretazione: un primo posto condiviso conta come vittoria per ciascuno dei giocatori.",
    "Interpretation: a shared first place counts as a win for each of the tied players.")

GENERAL_INTERPRETATIONS = (
    SHARED_PLACES,
    Text("Interpretazione: senza spareggi configurati, i giocatori con lo stesso totale (arrotondato a "
         "2 decimali) condividono la posizione.",
         "Interpretation: with no tie-breaks configured, players with the same total (rounded to 2 "
         "decimals) share the rank."),
    Text("Interpretazione: lo scontro diretto guarda l'ultima partita giocata insieme da tutti i "
         "giocatori a pari merito; se non ce n'è una, si passa al criterio successivo.",
         "Interpretation: head to head looks at the latest game played together by all the tied "
         "players; when there is none, the next criterion applies."),
    Text("Interpretazione: il confronto dei migliori risultati usa i risultati che contano (dopo scarti "
         "e migliori N), dal migliore in giù.",
         "Interpretation: best results compares the counted results (after discards and best-of), "
         "best first."),
    Text("Interpretazione: lo spareggio sui punti tavolo somma i punti tavolo di tutte le partite, "
         "anche quelle scartate (RisiKo! vale 100).",
         "Interpretation: the table points tie-break adds the table points of every game, discarded "
         "ones included (RisiKo! counts 100)."),
    Text("Un giocatore squalificato da una partita è considerato il primo eliminato del tavolo "
         "(casistica R.T.U.).",
         "A player disqualified from a game is treated as the first eliminated of the table (R.T.U. "
         "casebook)."),
    Text("Un'assenza o una sconfitta a tavolino vale 0 per quel turno e conta come risultato giocato "
         "per gli scarti; chi non ha un risultato in un turno giocato è assente in quel turno.",
         "An absence or a forfeit scores 0 for that round and counts as a played result for discards; a "
         "player with no result in a round that was played is absent in that round."),
    Text("Ordine: formula, poi correttivo di Como, poi penalità; una penalità non porta mai un "
         "risultato sotto 0.",
         "Order: formula, then Como corrective, then penalties; a penalty never takes a result below 0."),
)

PLACE_TABLES = Text(
    "Interpretazione: i tavoli da 3 usano i valori dei tavoli da 4 per i posti 1-3; i tavoli da 6 "
    "usano i valori dei tavoli da 5 più il sesto: 40 meno il distacco, minimo 30; eliminati fino a 50 "
    "(scalini di 10).",
    "Interpretation: 3-player tables use the 4-player values for places 1-3; 6-player tables use the "
    "5-player values plus 6th: 40 minus the gap, at least 30; eliminated up to 50 (steps of 10).")


def conversione_rules(top: int) -> tuple[Text, ...]:
    return (
        Text("Un secondo di un tavolo è sempre davanti ai terzi e ai quarti degli altri tavoli: conta "
             "prima il piazzamento, poi il distacco.",
             "A second of one table is always ahead of the thirds and fourths of other tables: place "
             "first, then the gap."),
        Text(f"Primo: {top} punti più il distacco dal secondo in centesimi. Secondo: 100 meno il "
             "distacco dal vincitore, minimo 80. Terzo: 80 meno il distacco, minimo 60. Quarto: 60 "
             "meno il distacco, minimo 40.",
             f"1st: {top} plus the gap to the second in hundredths. 2nd: 100 minus the gap to the "
             "winner, at least 80. 3rd: 80 minus the gap, at least 60. 4th: 60 minus the gap, at "
             "least 40."),
        Text("Tavoli da 5: secondo 100 meno il distacco (minimo 90), terzo 80 (minimo 70), quarto 60 "
             "(minimo 50), quinto 50 (minimo 40).",
             "5-player tables: 2nd 100 minus the gap (at least 90), 3rd 80 (at least 70), 4th 60 (at "
             "least 50), 5th 50 (at least 40)."),
        Text("Eliminati: 10 al primo eliminato, 20 al secondo, 30 al terzo (40 al quarto in un tavolo "
             "da 5).",
             "Eliminated: 10 to the first eliminated, 20 to the second, 30 to the third (40 to a "
             "fourth at a 5-player table)."),
        Text(f"RisiKo!: {top + 1} meno i punti tavolo del secondo in centesimi; gli altri sono piazzati "
             "normalmente con 100 punti tavolo al vincitore.",
             f"RisiKo!: {top + 1} minus the second's table points in hundredths; the others are placed "
             "normally with 100 table points for the winner."),
    )


# Club variants (SCORING.md section 13): the worked examples of its running 5-player table
# (A 60, B 48, C 30, D 12, E eliminated first) and of its sections, with the parameters they need.
_CLUB_FIVE = (Game(1, 1, (_p("A", 60), _p("B", 48), _p("C", 30), _p("D", 12), _p("E", 0, eliminated=1))),)
RADUNO_EXAMPLE = Example(
    Text("Raduno / Open (RCU Roma), correttivo sui punti tavolo con riferimento 4: tavolo da 5 A 60, B 48, C 30, "
         "D 12, E eliminato per primo (A: 60 × 1,25 + 50 = 125)",
         "Raduno / Open (RCU Rome), corrective on table points with reference 4: 5-player table A 60, B 48, "
         "C 30, D 12, E eliminated first (A: 60 × 1.25 + 50 = 125)"),
    _CLUB_FIVE, Params(como_reference=4, corrective_scope="table_points"))
CORRECTIVE_SCORE_EXAMPLE = Example(
    Text("Lo stesso tavolo con il correttivo sui punti (Como, riferimento 4): A (60 + 50) × 1,25 = 137,5",
         "The same table with the corrective on the score (Como, reference 4): A (60 + 50) × 1.25 = 137.5"),
    _CLUB_FIVE, Params(como_reference=4, corrective_scope="score"))
FINAL_2004_EXAMPLE = Example(
    Text("Finale nazionale 2004, bonus 20 e RisiKo! a 110: A fa RisiKo!, B 44, C 30, D 12",
         "2004 national final, bonus 20 and RisiKo! worth 110: A makes RisiKo!, B 44, C 30, D 12"),
    (Game(1, 1, (_p("A", 40, risiko=True), _p("B", 44), _p("C", 30), _p("D", 12))),),
    Params(bonus=Decimal("20"), risiko_total=Decimal("110")))
_SPARTACO_RISIKO = (Game(1, 1, (_p("A", 40, risiko=True), _p("B", 40), _p("C", 25), _p("D", 0, eliminated=1))),)
SPARTACO_FLAT_EXAMPLE = Example(
    Text("RisiKo! di A; B 40, C 25, D eliminato: gli altri prendono 100 meno il malus (86)",
         "A makes RisiKo!; B 40, C 25, D eliminated: the others get 100 minus the malus (86)"),
    _SPARTACO_RISIKO)
SPARTACO_OWN_TP_EXAMPLE = Example(
    Text("Campionato Gufo (RCU Roma), lo stesso tavolo: gli altri prendono i propri punti tavolo, l'eliminato 0",
         "Campionato Gufo (RCU Rome), the same table: the others get their own table points, the eliminated "
         "player 0"),
    _SPARTACO_RISIKO, Params(spartaco_risiko_losers="own_tp"))
GUFO_EXAMPLE = Example(
    Text("Torneo Gufo (RCU Roma), eliminati per posizione e centesimi × 5/4: tavolo da 5 A 60, B 48, C 30, D 12, "
         "E eliminato per primo (C: 5 + 0,375, mostrato 5,38; E quinto: 0)",
         "Torneo Gufo (RCU Rome), eliminated players by position and hundredths × 5/4: 5-player table A 60, "
         "B 48, C 30, D 12, E eliminated first (C: 5 + 0.375, shown 5.38; E fifth: 0)"),
    _CLUB_FIVE, Params(standard_eliminated="position", como_reference=4, corrective_scope="table_points"))
PREVIOUS_ROUND_EXAMPLE = Example(
    Text("Spareggio sul turno precedente: A 60 poi 40, B 40 poi 60; pari anche nei migliori risultati, A era "
         "davanti dopo il primo turno e resta davanti",
         "Tie-break on the previous round: A 60 then 40, B 40 then 60; level on best results too, A was ahead "
         "after round 1 and stays ahead"),
    (Game(1, 1, (_p("A", 60), _p("B", 40), _p("C", 20), _p("D", 10))),
     Game(2, 1, (_p("B", 60), _p("A", 40), _p("D", 25), _p("C", 5)))),
    Params(tiebreak=("best_results", "previous_round")))

# SCORING.md section 13's interpretations, each on the page of the formula it concerns.
CORRECTIVE_TABLE_POINTS = Text(
    "Interpretazione (correttivo sui punti tavolo, Raduni e Open di RCU Roma): ai tavoli da 6 il fattore è 1,5 "
    "(il programma del club non ha il caso); i punti tavolo con decimali si usano come registrati (il programma "
    "li tronca agli interi e usa i decimali per segnare chi è davanti: qui lo fa il piazzamento).",
    "Interpretation (corrective on table points, RCU Rome's Raduni and Open): at 6-player tables the factor is "
    "1.5 (the club's program has no such case); table points with decimals are used as entered (the program "
    "truncates them and uses the decimals to mark who is ahead: here the place does that).")
SPARTACO_OWN_TP_NOT_ADOPTED = Text(
    "Campionato Gufo: dopo un RisiKo! il vincitore prende 186 come dice il manuale del club (il suo programma "
    "dà 200). Non adottato: il programma tratta come un RisiKo! anche una vittoria con 86 punti tavolo o più, e "
    "ai tavoli da 5 moltiplica solo i punti del vincitore; qui decide solo il RisiKo!.",
    "Campionato Gufo: after a RisiKo! the winner gets 186 as the club's manual says (its program gives 200). "
    "Not adopted: the program also treats a win with 86 table points or more as a RisiKo!, and at 5-player "
    "tables scales only the winner's points; here only the RisiKo! decides.")
MILLESIMI_SHARED_TOP = Text(
    "Interpretazione: a pari punti tavolo al primo posto, senza un piazzamento deciso al tavolo, ogni primo "
    "prende l'unità (come il programma di RCU Roma; il manuale tace).",
    "Interpretation: players level on top table points, with no place decided at the table, each get the unit "
    "(as RCU Rome's program does; the manual is silent).")
GUFO_SHARED_PLACE = Text(
    "Torneo Gufo: i giocatori in gioco che condividono un posto si dividono i punti dei posti (non adottato: il "
    "programma del club dà a ciascuno il posto migliore).",
    "Torneo Gufo: players still in the game who share a place share the places' points (not adopted: the club's "
    "program gives each the better place).")
# Formats of the club rules (SCORING.md 13.8, 13.9): shown with the club rules (the formulas' list).
FORMAT_INTERPRETATIONS = (
    Text("Interpretazione (Master, finale diretta): \"da solo in testa\" vuol dire l'unico primo della classifica "
         "dopo le due partite, con entrambe vinte; altrimenti semifinali dei primi 16.",
         "Interpretation (Master, straight to the final): \"alone at the top\" means the only player ranked first "
         "after the two games, having won both; otherwise semifinals of the top 16."),
    Text("Raduno oltre 76 giocatori: finali parallele; i vincitori delle finali condividono il 1° posto, i "
         "secondi il posto successivo, e così via; il numero di finali segue le soglie del programma di RCU Roma "
         "(76, 116, 156, 196 giocatori), non la tabella del manuale.",
         "Raduno above 76 players: parallel finals; the finals' winners share 1st place, the seconds the next "
         "place, and so on; the number of finals follows the thresholds of RCU Rome's program (76, 116, 156, 196 "
         "players), not the manual's table."),
)
