"""The evaluation kit: collections of real texts other than the test collections' sources, with
near-duplicates as editors meet them in six classes (script, markup, long, mixed, short, combined) and
form texts filled from templates (template: fills of one template must not group, a fill's copy must), with
hard negatives, and a scorer that runs simdesk and its peers on the same collection in the same run and
prints precision, recall and F1 per class.

    python -m bench.quality run [--size small|full] [--seed 11]   # make the kit's collection, score it
    python -m bench.quality kit OUT [--size small|full] [--seed 11] [--classes template,...]
    python -m bench.quality score DIR [--no-peers] [--json FILE]  # any collection with a truth.json
    python -m bench.quality features DIR                          # simdesk's feature options, one by one
"""
