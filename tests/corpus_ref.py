#!/usr/bin/python3
"""An independent reading of a TSV corpus, for test_corpus.c's checks of the
parallel loader: the cleaning and splitting text.h describes, the header, BOM,
CR and blank-line rules of corpus_tsv.c, and the ranking of corpus.h (count
descending, ties by first appearance, ids from 3, PL_OOV_ID = 2 from
num_words on), written from those descriptions, not from the C code.
Prints: sequences, positives, total ids (start tokens included), vocab size
(3 reserved ids + distinct words), the sum of the ids and the sum of (k + 1)
* id over the flattened ids k (mod 2^64).
Usage: tests/corpus_ref.py FILE [NUM_WORDS]"""
import sys

FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n\0'


def clean(text):
    """text: str, already UTF-8 repaired byte by byte."""
    text = text.replace("<br />", " ")
    out = []
    for ch in text:
        o = ord(ch)
        if ch in FILTERS:
            out.append(" ")
        elif "A" <= ch <= "Z" or (0xC0 <= o <= 0xDE and o != 0xD7):
            out.append(chr(o + 32))
        else:
            out.append(ch)
    return "".join(out)


def repair(b):
    """Each byte that does not start a valid UTF-8 sequence becomes U+FFFD."""
    out, i = [], 0
    while i < len(b):
        for n in (1, 2, 3, 4):
            try:
                out.append(b[i:i + n].decode("utf-8"))
                i += n
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


def main():
    path = sys.argv[1]
    num_words = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    data = open(path, "rb").read()
    seqs, labels = [], []
    for no, line in enumerate(data.split(b"\n"), 1):
        if line.endswith(b"\r"):
            line = line[:-1]
        if no == 1 and line.startswith(b"\xef\xbb\xbf"):
            line = line[3:]
        if not line or (no == 1 and line.lower() == b"label\ttext"):
            continue
        label, text = line.split(b"\t", 1)
        labels.append(int(label))
        seqs.append(clean(repair(text)).split(" "))
    first, count = {}, {}
    for s in seqs:
        for w in s:
            if w:
                first.setdefault(w, len(first))
                count[w] = count.get(w, 0) + 1
    order = sorted(first, key=lambda w: (-count[w], first[w]))
    rank = {w: r for r, w in enumerate(order)}
    ids = []
    for s in seqs:
        ids.append(1)
        for w in s:
            if w:
                i = rank[w] + 3
                ids.append(i if i < num_words else 2)
    weighted = sum((k + 1) * i for k, i in enumerate(ids)) % 2**64
    print(len(seqs), sum(labels), len(ids), len(first) + 3, sum(ids), weighted)


main()
