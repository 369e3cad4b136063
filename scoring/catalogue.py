"""Help-page metadata of every formula: names, rules and interpretations in Italian and English,
sources, parameters and worked examples that the help page runs through the engine live.

`CATALOGUE[name]` is a `FormulaInfo`; `FormulaInfo.run_example(i)` scores example i.
Interpretations (SCORING.md: "Every interpretation must be visible to organisers") are listed per
formula, plus `help_common.GENERAL_INTERPRETATIONS` that apply to all of them.
"""
from __future__ import annotations

from .formulas import FORMULAS
from .help_common import (
    COMMON_PARAMETERS,
    COMO_EXAMPLE,
    FIVE_PLAYER_EXAMPLE,
    RISIKO_EXAMPLE,
    RUNNING_EXAMPLE,
    SEED_FIRK,
    SEED_RTU,
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
        parameters=COMMON_PARAMETERS,
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, COMO_EXAMPLE),
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
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, punti tavolo con "bonus per la vittoria"'),),
        interpretations=(TABLE_TIE_BREAK,),
        parameters=COMMON_PARAMETERS + ("bonus",),
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, TIE_EXAMPLE),
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
        parameters=COMMON_PARAMETERS + ("bonus",),
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
        sources=(Source(SEED_RTU, 'Formule Punteggio, metodo dei "punti standard"'),),
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
            SHARED_PLACES),
        parameters=COMMON_PARAMETERS,
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, RISIKO_EXAMPLE),
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
        ),
        sources=(Source(SEED_RTU, 'Formule Punteggio, formula "Spartaco"'),),
        interpretations=(
            Text("Interpretazione: con RisiKo! il vincitore prende 186 e ogni altro giocatore 100 meno "
                 "il malus (86 con il malus di 14, modificabile).",
                 "Interpretation: with RisiKo! the winner gets 186 and every other player 100 minus the "
                 "malus (86 with the default malus of 14, adjustable)."),
            SHARED_PLACES),
        parameters=COMMON_PARAMETERS + ("spartaco_malus",),
        examples=(RUNNING_EXAMPLE, FIVE_PLAYER_EXAMPLE, RISIKO_EXAMPLE),
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
)

CATALOGUE: dict[str, FormulaInfo] = {info.key: info for info in _ENTRIES}

assert tuple(CATALOGUE) == tuple(FORMULAS), "catalogue and registry list the same formulas"
