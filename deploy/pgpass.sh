# Sourced by the scripts that run psql, pg_dump, pg_restore, createdb or dropdb (backup.sh,
# restore-check.sh, restore-db.sh): DATABASE_URL's password moved into the environment (PGPASSWORD,
# which libpq and the application read), DATABASE_URL left without it, so that no command line shows it
# (`ps` during every backup showed it in pg_dump's and psql's arguments). `make env` writes passwords
# of letters and digits; a percent-encoded one is refused by name rather than sent wrong.
case "${DATABASE_URL:-}" in
    *://*@*)
        _pg_scheme=${DATABASE_URL%%://*}
        _pg_rest=${DATABASE_URL#*://}
        _pg_userinfo=${_pg_rest%%@*}
        case "$_pg_userinfo" in
            *:*)
                _pg_password=${_pg_userinfo#*:}
                case "$_pg_password" in
                    *%*)
                        echo "DATABASE_URL: its password holds a percent-encoded character; give the password in PGPASSWORD and DATABASE_URL without it" >&2
                        exit 2 ;;
                esac
                PGPASSWORD=$_pg_password
                export PGPASSWORD
                DATABASE_URL="$_pg_scheme://${_pg_userinfo%%:*}@${_pg_rest#*@}"
                export DATABASE_URL
                ;;
        esac
        unset _pg_scheme _pg_rest _pg_userinfo _pg_password
        ;;
esac
