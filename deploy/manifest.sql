-- Every table of the database: its name, its number of rows and a checksum of its rows (md5 of the
-- rows' text, in a fixed order), one tab-separated line each, sorted by name. Run by psql -X -A -t -F <tab>
-- (deploy/backup.sh, in the snapshot of its dump; deploy/restore-check.sh, on the restored copy):
-- two databases holding the same rows print the same lines.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres';
SET extra_float_digits = 3;
SET bytea_output = 'hex';
SELECT format('SELECT %L, count(*), coalesce(md5(string_agg(md5(r::text), '''' ORDER BY md5(r::text))), ''-'') '
              'FROM %I.%I AS r', tablename, schemaname, tablename)
FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename
\gexec
