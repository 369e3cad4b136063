"""Help-page metadata of every formula: names, rules and interpretations in Italian and English,
sources, parameters and worked examples that the help page runs through the engine live.

`CATALOGUE[name]` is a `FormulaInfo`; `FormulaInfo.run_example(i)` scores example i.
Interpretations (SCORING.md: "Every interpretation must be visible to organisers") are listed per
formula, plus `help_common.GENERAL_INTERPRETATIONS` that apply to all of them.
"""
from __future__ import annotations

from .formulas import FORMULAS
from .help_common import (
    CLUB_BARLETTA,
    CLUB_GT_CODE,
    CLUB_GT_MANUAL,
    CLUB_MODENA,
    CLUB_N04,
    COMMON_PARAMETERS,
    COMO_EXAMPLE,
    CORRECTIVE_SCORE_EXAMPLE,
    CORRECTIVE_TABLE_POINTS,
    FINAL_2004_EXAMPLE,
    GUFO_EXAMPLE,
    GUFO_SHARED_PLACE,
    MILLESIMI_SHARED_TOP,
    PREVIOUS_ROUND_EXAMPLE,
    RADUNO_EXAMPLE,
    SPARTACO_FLAT_EXAMPLE,
    SPARTACO_OWN_TP_EXAMPLE,
    SPARTACO_OWN_TP_NOT_ADOPTED,
    FIVE_PLAYER_EXAMPLE,
    MILLESIMI_FIVE_EXAMPLE,
    MILLESIMI_TWO_ROUNDS_EXAMPLE,
    MODENA_EXAMPLE,
    RISIKO_EXAMPLE,
    RUNNING_EXAMPLE,
    SEED_FIRK,
    SEED_RTU,
    SETTLED_TIE_EXAMPLE,
    SHARED_PLACES,
    SHARED_WIN,
    TABLE_TIE_BREAK,
    TIE_EXAMPLE,
    TWO_ROUNDS_EXAMPLE,
    FormulaInfo,
    Source,
    Text,
    conversione_rules,
    PLACE_TABLES,
)

_ENTRIES = (
    FormulaInfo(
        key="punti_tavolo",
        name=Text("Punti tavolo", "Table points"),
        summary=Text("I punti-torneo sono i punti tavolo.", "Tournament points are the table points."),
        rules=(
            Text("Punti tavolo: la somma dei valori (Tab. D) dei territori del proprio obiettivo "
                 "posseduti a fine partita. Chi fa RisiKo! conta 100; un eliminato 0.",
                 "Table points: the sum of the values (Tab. D) of the objective territories held at the "
                 "end. A RisiKo! counts 100; an eliminated player 0."),
            Text("Torneo di Como: migliori 3 serate su 4, tavoli da 5, correttivi 3/5, 4/5, 6/5, "
                 "spareggio sui migliori risultati.",
                 "Como tournament: best 3 evenings of 4, 5-player tables, correctives 3/5, 4/5, 6/5, "
                 "tie-break on the best results."),
        ),
        sources=(Source(SEED_FIRK, "art. 46-47, Tab. D"), Source(SEED_FIRK, "Variante 51.1, regole 3-5")),
        interpretations=(),
        parameters=COMMON_PARAMETERS + ("risiko_total",),
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, COMO_EXAMPLE, PREVIOUS_ROUND_EXAMPLE),
    ),
    FormulaInfo(
        key="conversione150",
        name=Text("Conversione 150", "Conversion 150"),
        summary=Text("150 al vincitore, poi punti per piazzamento meno il distacco, con un minimo.",
                     "150 to the winner, then place points minus the gap, with a minimum."),
        rules=conversione_rules(150),
        sources=(Source(SEED_RTU, 'Formule Punteggio, "conversione 150"'),),
        interpretations=(PLACE_TABLES, SHARED_PLACES),
        parameters=COMMON_PARAMETERS,
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, RISIKO_EXAMPLE),
    ),
    FormulaInfo(
        key="conversione200",
        name=Text("Conversione 200", "Conversion 200"),
        summary=Text("Come la conversione 150, ma il vincitore prende 200: una vittoria vale più di due "
                     "ottimi secondi posti.",
                     "Like conversion 150, but the winner gets 200: one win is worth more than two "
                     "excellent second places."),
        rules=conversione_rules(200),
        sources=(Source(SEED_RTU, 'Formule Punteggio, "conversione 200"'),),
        interpretations=(
            Text("Interpretazione: con RisiKo! il vincitore prende 201 meno i punti tavolo del secondo "
                 "in centesimi, per analogia con la conversione 150.",
                 "Interpretation: with RisiKo! the winner gets 201 minus the second's table points in "
                 "hundredths, by analogy with conversion 150."),
            PLACE_TABLES, SHARED_PLACES),
        parameters=COMMON_PARAMETERS,
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, RISIKO_EXAMPLE),
    ),
    FormulaInfo(
        key="bonus50",
        name=Text("Punti tavolo + bonus vittoria", "Table points + win bonus"),
        summary=Text("Punti tavolo, più un bonus (di solito 50) al vincitore.",
                     "Table points, plus a bonus (usually 50) for the winner."),
        rules=(
            Text("I punti-torneo sono i punti tavolo; il vincitore aggiunge un bonus (di solito 50). "
                 "Con RisiKo! 100 più il bonus, quindi 150.",
                 "Tournament points are the table points; the winner adds a bonus (usually 50). With "
                 "RisiKo! 100 plus the bonus, so 150."),
            Text("Due primi con gli stessi punti tavolo si dividono il bonus (25 a testa); se la parità "
                 "riguarda più di due giocatori il bonus non viene assegnato.",
                 "Two players first with the same table points split the bonus (25 each); when more "
                 "than two are tied, no bonus is given."),
            Text("Usata ai Nazionali EG e ai Raduni.", "Used at the EG Nationals and the Raduni."),
            Text("Raduni e Open di RCU Roma: ai tavoli da 5 i punti tavolo si moltiplicano per 1,25 (da 3 per "
                 "0,75) prima del bonus; il 100 di un RisiKo! non si aumenta.",
                 "RCU Rome's Raduni and Open: at 5-player tables the table points are multiplied by 1.25 (at "
                 "3 by 0.75) before the bonus; a RisiKo!'s 100 is not raised."),
            Text("Finale nazionale 2004: bonus 20, e chi fa RisiKo! prende esattamente 110.",
                 "2004 national final: bonus 20, and a RisiKo! is worth exactly 110."),
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, punti tavolo con "bonus per la vittoria"'),
                 Source(CLUB_GT_MANUAL, "Tipi di Tornei contemplati, Raduno, Open, NazionaleRisiKo"),
                 Source(CLUB_N04, "regolamento della finale")),
        interpretations=(TABLE_TIE_BREAK, CORRECTIVE_TABLE_POINTS),
        parameters=COMMON_PARAMETERS + ("bonus", "risiko_total"),
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, TIE_EXAMPLE, RADUNO_EXAMPLE, CORRECTIVE_SCORE_EXAMPLE,
                  FINAL_2004_EXAMPLE),
    ),
    FormulaInfo(
        key="vittorie",
        name=Text("Numero di vittorie", "Number of wins"),
        summary=Text("In classifica conta prima il numero di partite vinte, poi i punti.",
                     "The standings count games won first, then points."),
        rules=(
            Text("Punti di ogni partita come con il bonus vittoria: punti tavolo più il bonus al "
                 "vincitore.",
                 "Points of each game as with the win bonus: table points plus the bonus for the winner."),
            Text("La classifica ordina per numero di partite vinte e solo dopo per punti totali.",
                 "The standings order by number of games won and only then by total points."),
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, "numero di vittorie"'),),
        interpretations=(SHARED_WIN, TABLE_TIE_BREAK),
        parameters=COMMON_PARAMETERS + ("bonus", "risiko_total"),
        examples=(TWO_ROUNDS_EXAMPLE, RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE),
    ),
    FormulaInfo(
        key="triestino",
        name=Text("Metodo triestino", "Trieste method"),
        summary=Text("Vittorie prima; poi la quota dei punti tavolo fatta al proprio tavolo.",
                     "Wins first; then the share of the table's points a player made."),
        rules=(
            Text("La classifica ordina per numero di partite vinte.",
                 "The standings order by number of games won first."),
            Text("Poi conta la percentuale dei punti tavolo fatta al tavolo: fatto 400 il totale di un "
                 "tavolo da 4 (500 da 5), punti = punti tavolo x 400 / somma dei punti tavolo.",
                 "Then the share of the table's points: with the total of a 4-player table made 400 "
                 "(500 at 5), points = table points x 400 / sum of the table points."),
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, metodo "triestino"'),),
        interpretations=(
            Text("Interpretazione: RisiKo! conta 100 punti tavolo; tavoli da 3 e da 6 valgono 300 e "
                 "600; se la somma del tavolo è 0 tutti prendono 0.",
                 "Interpretation: RisiKo! counts 100 table points; 3- and 6-player tables are worth 300 "
                 "and 600; when the table's sum is 0 everyone gets 0."),
            SHARED_WIN),
        parameters=COMMON_PARAMETERS,
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, TWO_ROUNDS_EXAMPLE),
    ),
    FormulaInfo(
        key="standard",
        name=Text("Punteggio standard", "Standard points"),
        summary=Text("12, 7, 5, 3 per piazzamento, più i punti tavolo in centesimi.",
                     "12, 7, 5, 3 by place, plus the table points as hundredths."),
        rules=(
            Text("Primo 12, secondo 7, terzo 5, quarto 3 punti-torneo, più i propri punti tavolo in "
                 "centesimi. RisiKo!: 13.",
                 "1st 12, 2nd 7, 3rd 5, 4th 3 tournament points, plus one's table points as hundredths. "
                 "RisiKo!: 13."),
            Text("Eliminati: 1 al primo eliminato, 2 al secondo, 3 al terzo (4 al quarto ai tavoli "
                 "da 5 e da 6).",
                 "Eliminated: 1 to the first eliminated, 2 to the second, 3 to the third (4 to the "
                 "fourth at 5- and 6-player tables)."),
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, metodo dei "punti standard"'),
                 Source(CLUB_GT_MANUAL, "Tipi di Tornei contemplati, Torneo Gufo")),
        interpretations=(
            Text("Un eliminato prende il proprio ordine di eliminazione a ogni dimensione del tavolo: "
                 "1 al primo eliminato, 2 al secondo, 3 al terzo, 4 al quarto (tavoli da 5 e da 6).",
                 "An eliminated player gets their elimination order at every table size: 1 to the "
                 "first eliminated, 2 to the second, 3 to the third, 4 to the fourth (5- and 6-player "
                 "tables)."),
            Text("Interpretazione: ai tavoli da 5 un quinto non eliminato prende 2 più i centesimi, "
                 "ai tavoli da 6 un sesto non eliminato 1 più i centesimi.",
                 "Interpretation: at 5-player tables a surviving 5th gets 2 plus hundredths, at "
                 "6-player tables a surviving 6th 1 plus hundredths."),
            Text("Interpretazione (Torneo Gufo, RCU Roma: eliminati per posizione, correttivo sui punti "
                 "tavolo): RisiKo! resta 13; i centesimi moltiplicati si mostrano e si confrontano "
                 "arrotondati a 2 decimali (5,375 diventa 5,38).",
                 "Interpretation (Torneo Gufo, RCU Rome: eliminated players by position, corrective on "
                 "table points): RisiKo! stays 13; the scaled hundredths are shown and compared rounded "
                 "to 2 decimals (5.375 becomes 5.38)."),
            GUFO_SHARED_PLACE, CORRECTIVE_TABLE_POINTS, SHARED_PLACES),
        parameters=COMMON_PARAMETERS + ("standard_eliminated",),
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, RISIKO_EXAMPLE, GUFO_EXAMPLE),
    ),
    FormulaInfo(
        key="faentino",
        name=Text("Metodo faentino", "Faenza method"),
        summary=Text("100 al vincitore, 50 a chi resta entro 15 punti, 10 agli altri.",
                     "100 to the winner, 50 to those within 15 points, 10 to the others."),
        rules=(
            Text("Vincitore 100 punti-torneo (110 con RisiKo!); sconfitti distaccati fino a 15 punti "
                 "tavolo 50; distaccati di oltre 15 punti 10; eliminati 0.",
                 "Winner 100 tournament points (110 with RisiKo!); losers within 15 table points 50; "
                 "further behind 10; eliminated 0."),
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, metodo "faentino"'),),
        interpretations=(
            Text("Interpretazione: con RisiKo! il distacco si misura da 100 punti tavolo.",
                 "Interpretation: with RisiKo! the gap is measured from 100 table points."),
            SHARED_PLACES),
        parameters=COMMON_PARAMETERS,
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, TIE_EXAMPLE),
    ),
    FormulaInfo(
        key="spartaco",
        name=Text("Formula Spartaco", "Spartaco formula"),
        summary=Text("100 più i punti tavolo al vincitore, 100 meno il distacco agli altri.",
                     "100 plus table points to the winner, 100 minus the gap to the others."),
        rules=(
            Text("Vincitore: 100 più i punti tavolo (con RisiKo! 186). Sconfitti: 100 meno il distacco "
                 "dal vincitore; un eliminato ha 0 punti tavolo.",
                 "Winner: 100 plus table points (with RisiKo! 186). Losers: 100 minus the gap to the "
                 "winner; an eliminated player has 0 table points."),
            Text("In caso di RisiKo! subito si prende un malus di 14 punti-torneo.",
                 "A RisiKo! suffered costs a malus of 14 tournament points."),
            Text("Campionato Gufo (RCU Roma): dopo un RisiKo! gli sconfitti possono prendere i propri "
                 "punti tavolo invece di 86.",
                 "Campionato Gufo (RCU Rome): after a RisiKo! the losers may get their own table points "
                 "instead of 86."),
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, formula "Spartaco"'),
                 Source(CLUB_GT_MANUAL, 'Tipi di Tornei contemplati, Campionato Gufo: "verranno attribuiti '
                                        '186 punti anziché 200"')),
        interpretations=(
            Text("Interpretazione: con RisiKo! il vincitore prende 200 meno il malus e ogni altro "
                 "giocatore 100 meno il malus (186 e 86 con il malus di 14, modificabile).",
                 "Interpretation: with RisiKo! the winner gets 200 minus the malus and every other "
                 "player 100 minus the malus (186 and 86 with the default malus of 14, adjustable)."),
            SPARTACO_OWN_TP_NOT_ADOPTED, SHARED_PLACES),
        parameters=COMMON_PARAMETERS + ("spartaco_malus", "spartaco_risiko_losers"),
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, RISIKO_EXAMPLE, SPARTACO_FLAT_EXAMPLE,
                  SPARTACO_OWN_TP_EXAMPLE),
    ),
    FormulaInfo(
        key="maialino",
        name=Text("Formula Maialino", "Maialino formula"),
        summary=Text("Metà dei punti tavolo più un bonus di 60, 10, 5 ai primi tre.",
                     "Half the table points plus a bonus of 60, 10, 5 to the first three."),
        rules=(
            Text("Punti tavolo dimezzati più un bonus: 60 al vincitore, 10 al secondo, 5 al terzo. "
                 "RisiKo! conta 100 punti tavolo (50 più 60); eliminati 0.",
                 "Half the table points plus a bonus: 60 to the winner, 10 to the second, 5 to the "
                 "third. RisiKo! counts 100 table points (50 plus 60); eliminated 0."),
            Text("Parità fra due giocatori: il bonus del posto si divide (due primi 30 a testa, il "
                 "successivo prende il bonus del terzo). Tre primi a pari merito: 10 a testa. Ogni "
                 "altra parità fra tre o più: nessun bonus.",
                 "Tie between two players: the place's bonus is split (two first 30 each, the next "
                 "player takes the third-place bonus). Three tied first: 10 each. Any other tie of "
                 "three or more: no bonus."),
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, formula "maialino" (RCU I Maialini, Modena)'),),
        interpretations=(TABLE_TIE_BREAK,),
        parameters=COMMON_PARAMETERS,
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, TIE_EXAMPLE),
    ),
    FormulaInfo(
        key="veronese",
        name=Text("Formula veronese (Verona/Trento)", "Verona/Trento formula"),
        summary=Text("Punti tavolo più 100, 60, 40, 20 per piazzamento.",
                     "Table points plus 100, 60, 40, 20 by place."),
        rules=(
            Text("Primo: punti tavolo + 100; secondo + 60; terzo + 40; quarto + 20.",
                 "1st: table points + 100; 2nd + 60; 3rd + 40; 4th + 20."),
            Text("Gli eliminati hanno 0 punti tavolo e prendono il bonus del loro piazzamento finale.",
                 "Eliminated players have 0 table points and get the bonus of their final place."),
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, formula "veronese/trentina"'),),
        interpretations=(
            Text("Interpretazione: quinto e sesto posto + 0.", "Interpretation: 5th and 6th place + 0."),
            SHARED_PLACES),
        parameters=COMMON_PARAMETERS,
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, RISIKO_EXAMPLE),
    ),
    FormulaInfo(
        key="medagliere",
        name=Text("Medagliere olimpico", "Olympic medal table"),
        summary=Text("Classifica per numero di primi posti, poi di secondi, terzi, quarti.",
                     "Standings by number of first places, then seconds, thirds, fourths."),
        rules=(
            Text("La classifica tiene conto del numero di vittorie, poi dei secondi posti, poi dei terzi "
                 "e infine dei quarti (e dei quinti) ottenuti in tutto il torneo.",
                 "The standings count wins, then second places, then thirds and finally fourths (and "
                 "fifths) over the whole tournament."),
            Text("I punti mostrati per ogni partita sono i punti tavolo.",
                 "The points shown for each game are the table points."),
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, "medagliere olimpico"'),),
        interpretations=(
            Text("Interpretazione: un posto condiviso conta per ciascuno come quel posto (due primi: "
                 "due ori, nessun argento); i giocatori con lo stesso medagliere condividono la "
                 "posizione se non sono configurati spareggi; il sesto posto non entra nel medagliere.",
                 "Interpretation: a shared place counts as that place for each player (two firsts: two "
                 "golds, no silver); players with the same medal counts share the rank unless "
                 "tie-breaks are configured; a 6th place is not a medal."),),
        parameters=COMMON_PARAMETERS,
        examples=(TWO_ROUNDS_EXAMPLE, RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE),
    ),
    FormulaInfo(
        key="millesimi",
        name=Text("Millesimi (Master)", "Thousandths (Master)"),
        summary=Text("Punti tavolo in millesimi più un'unità al vincitore: una vittoria con 50 punti vale "
                     "1,050.",
                     "Table points in thousandths plus one unit for the winner: a win with 50 points is "
                     "worth 1.050."),
        rules=(
            Text("I punti tavolo si convertono in millesimi (41 punti tavolo: 0,041) e il vincitore del "
                 "tavolo aggiunge un'unità (50 punti tavolo: 1,050). Con RisiKo! si ottiene sempre 1,100; "
                 "un eliminato 0.",
                 "Table points become thousandths (41 table points: 0.041) and the table winner adds one "
                 "unit (50 table points: 1.050). A RisiKo! always gives 1.100; an eliminated player 0."),
            Text("Ai tavoli da 5 i punti tavolo si moltiplicano per 1,25 fino a un massimo di 100: da 80 "
                 "punti tavolo in su si ottiene lo stesso punteggio (1,100 per il vincitore).",
                 "At 5-player tables the table points are multiplied by 1.25 up to 100: from 80 table "
                 "points up the score is the same (1.100 for the winner)."),
            Text("Gli arrotondamenti alla terza cifra sono sempre per eccesso (21 punti tavolo a un tavolo "
                 "da 5: 0,02625, cioè 0,027); punteggi e classifica si mostrano con 3 decimali.",
                 "Rounding to the third decimal is always up (21 table points at a 5-player table: 0.02625, "
                 "so 0.027); scores and standings show 3 decimals."),
            Text("A pari punti tavolo al primo posto, se il tavolo non ha deciso il piazzamento, tutti i "
                 "primi prendono l'unità.",
                 "When players tie for first on table points and the table did not settle the place, "
                 "every one of them gets the unit."),
            Text("Nei tornei Master gli spareggi sono i migliori risultati, poi la posizione al turno "
                 "precedente; il correttivo di Como non si applica.",
                 "In Master tournaments the tie-breaks are the best results, then the position after the "
                 "previous round; the Como corrective does not apply."),
        ),
        sources=(Source(CLUB_GT_MANUAL, 'Tipi di Tornei contemplati, MasterRisiko e Victory: "conversione '
                                        'in millesimi"'),
                 Source(CLUB_GT_CODE, "punteggio delle qualificazioni nazionali"),
                 Source(CLUB_BARLETTA, "esempio: 1,050 + 0,041 = 1,091")),
        interpretations=(
            Text("Interpretazione: i punti tavolo con decimali non vengono troncati (41,5 dà 0,0415, "
                 "arrotondato per eccesso a 0,042).",
                 "Interpretation: table points with decimals are not truncated (41.5 gives 0.0415, rounded "
                 "up to 0.042)."),
            MILLESIMI_SHARED_TOP),
        parameters=("discard_worst", "best_of", "tiebreak"),
        examples=(RUNNING_EXAMPLE, MILLESIMI_TWO_ROUNDS_EXAMPLE, MILLESIMI_FIVE_EXAMPLE, TIE_EXAMPLE),
    ),
    FormulaInfo(
        key="maialino_2024",
        name=Text("Formula Maialino 2024 (Modena)", "Maialino 2024 formula (Modena)"),
        summary=Text("200 al vincitore (201 con RisiKo!), 100 meno il distacco agli altri.",
                     "200 to the winner (201 with RisiKo!), 100 minus the gap to the others."),
        rules=(
            Text("Vincitore: 200 punti-torneo, 201 con RisiKo!. Altri giocatori: 100 meno la differenza "
                 "dei punti tavolo dal primo; dopo un RisiKo! (100 punti tavolo) ognuno prende quindi i "
                 "propri punti tavolo.",
                 "Winner: 200 tournament points, 201 with RisiKo!. Other players: 100 minus the difference "
                 "in table points from the first; after a RisiKo! (100 table points) each therefore gets "
                 "their own table points."),
            Text("A un giocatore eliminato non vengono assegnati punti; chi resta in gioco con 0 punti "
                 "tavolo prende comunque 100 meno la differenza.",
                 "An eliminated player gets no points; a player still in the game with 0 table points "
                 "still gets 100 minus the difference."),
            Text("Il vincitore è uno solo: una parità di punti tavolo al primo posto si decide al tavolo "
                 "(punti fuori obiettivo, ordine inverso di gioco) e si registra con il piazzamento.",
                 "There is one winner: a tie on table points for first is settled at the table (points "
                 "outside the objective, reverse order of play) and recorded as the place."),
            Text("Coppe Maialino: contano i migliori 6 risultati su 8 giornate; la classifica annuale somma "
                 "i migliori 30 risultati, pesati secondo il torneo.",
                 "Coppe Maialino: the best 6 results of 8 evenings count; the annual ranking adds the best "
                 "30 results, weighted by tournament."),
        ),
        sources=(Source(CLUB_MODENA, "Coppe Maialino, punteggio e note"),),
        interpretations=(TABLE_TIE_BREAK,),
        parameters=COMMON_PARAMETERS,
        examples=(RUNNING_EXAMPLE, MODENA_EXAMPLE, RISIKO_EXAMPLE, SETTLED_TIE_EXAMPLE),
    ),
)

CATALOGUE: dict[str, FormulaInfo] = {info.key: info for info in _ENTRIES}

assert tuple(CATALOGUE) == tuple(FORMULAS), "catalogue and registry list the same formulas"
