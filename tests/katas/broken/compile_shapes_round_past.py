# Broken on purpose: (w // 8 + 1) * 8 rounds a width already at a multiple
# of 8 up to the next one.
import json, sys

case = json.load(sys.stdin)["inputs"]
lengths, bs, strategy, bounds = case["lengths"], case["batch_size"], case["strategy"], case["boundaries"]
batches = []
if strategy == "bucket_longest":
    buckets = {}
    for L in lengths:
        buckets.setdefault(sum(b <= L for b in bounds), []).append(L)
    for k in sorted(buckets):
        rows = buckets[k]
        for a in range(0, len(rows), bs):
            batches.append((len(rows[a:a + bs]), max(rows)))
else:
    for a in range(0, len(lengths), bs):
        rows = lengths[a:a + bs]
        w = max(rows)
        if strategy == "multiple_of_8":
            w = (w // 8 + 1) * 8
        batches.append((len(rows), w))
print(json.dumps({"width": [w for _, w in batches], "shapes": len(set(batches))}))
