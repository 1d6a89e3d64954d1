"""The twelve games played on a layout (docs/rules.md): their rules as data, the round and
the match, the scoring policies, the views, the records, the bots and the terminal."""
