"""Export one tournament with everything that belongs to it, and import it into another database.

What belongs to a tournament is read from the models' metadata, not listed by hand: the tournament,
every model with a foreign key to it, every model with a foreign key to those, and so on. A model
added later (teams, end rolls...) travels with no change here.

Users, clubs and players are shared between tournaments: they travel by natural key (username;
club name; name, surname and club), are matched on import or created (users without a usable
password). The tournament's own rows keep their primary keys, so printed QR codes, public links
and the ids that club websites read from the JSON API stay valid after a restore; the import
therefore expects a database without those rows.
"""
