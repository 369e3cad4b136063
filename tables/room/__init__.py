"""The room: the big screen, the wall list and poster, the player's own table, the embeddable standings."""
