-- Each table publishes from one games file (its SQLite), named by a random origin the file keeps: events from
-- another file under the same table name are refused, so a table's file replaced cannot overwrite its games.
ALTER TABLE club_tables ADD COLUMN origin text;
