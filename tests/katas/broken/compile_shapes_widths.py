# Broken on purpose: the shapes counted as the distinct widths, as if a
# last batch of fewer rows were no new shape.
import json, sys

case = json.load(sys.stdin)["inputs"]
lengths, bs, strategy, bounds = case["lengths"], case["batch_size"], case["strategy"], case["boundaries"]
widths = []
if strategy == "bucket_longest":
    buckets = {}
    for L in lengths:
        buckets.setdefault(sum(b <= L for b in bounds), []).append(L)
    for k in sorted(buckets):
        rows = buckets[k]
        widths += [max(rows)] * (-(-len(rows) // bs))
else:
    for a in range(0, len(lengths), bs):
        w = max(lengths[a:a + bs])
        widths.append(-(-w // 8) * 8 if strategy == "multiple_of_8" else w)
print(json.dumps({"width": widths, "shapes": len(set(widths))}))
