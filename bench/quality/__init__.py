"""The evaluation kit: collections of real texts other than the test collections' sources, with
near-duplicates as editors meet them in six classes (script, markup, long, mixed, short, combined) and
form texts filled from templates (template: fills of one template must not group, a fill's copy must), with
hard negatives; a collection of copies carrying invisible characters (soft hyphens, zero-width characters,
bidirectional marks, inner byte-order marks) in three classes (english, mixed, chinese); a scorer that runs
simdesk and its peers on the same collection in the same run and prints precision, recall and F1 per class;
and a clean-up measure: `simdesk clean --keep RULE` for each rule on a copy of the collection, scored by the
documents it lost (true groups with no file left) and the share of the redundant copies it removed.

    python -m bench.quality run [--size small|full] [--seed 11]   # make the kit's collection, score it
    python -m bench.quality kit OUT [--size small|full] [--seed 11] [--classes template,...]
    python -m bench.quality invisible OUT [--size small|full] [--seed 11]
    python -m bench.quality score DIR [--no-peers] [--no-clean] [--json FILE]  # any collection with a truth.json
    python -m bench.quality clean DIR [DIR...] [--rules oldest,newest,largest,shortest-path] [--json FILE]
    python -m bench.quality features DIR                          # simdesk's feature options, one by one
"""
