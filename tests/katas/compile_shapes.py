# Reference solution: the batches as the strategy cuts them, each one's
# width, and the set of (rows, width) pairs.
import bisect, json, sys

case = json.load(sys.stdin)["inputs"]
lengths, bs, strategy, bounds = case["lengths"], case["batch_size"], case["strategy"], case["boundaries"]
batches = []  # (rows, width)
if strategy == "bucket_longest":
    buckets = [[] for _ in range(len(bounds) + 1)]
    for L in lengths:
        buckets[bisect.bisect_right(bounds, L)].append(L)
    for rows in buckets:
        for a in range(0, len(rows), bs):
            batches.append((len(rows[a:a + bs]), max(rows)))
else:
    for a in range(0, len(lengths), bs):
        rows = lengths[a:a + bs]
        w = max(rows)
        if strategy == "multiple_of_8":
            w = -(-w // 8) * 8
        batches.append((len(rows), w))
print(json.dumps({"width": [w for _, w in batches], "shapes": len(set(batches))}))
