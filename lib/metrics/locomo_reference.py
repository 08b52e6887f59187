"""A reference of LoCoMo's QA scoring written for this project's tests (lib/metrics/locomo.test.ts).

It restates, from the published recipe (snap-research/locomo task_eval/evaluation.py, commit 9228632),
the normalisation, token F1, multi-answer F1 and per-category rules in plain Python, so the TypeScript
scores are checked against an independent computation. The Porter stems come in with the cases, or, with
"stems": null, from NLTK's PorterStemmer itself (as the public code stems), where NLTK is installed.

stdin: {"stems": {token: stem} | null, "cases": [{"category": int, "output": str, "answer": str}]}
stdout: [score, ...]
"""
import json
import re
import string
import sys
from collections import Counter


def normalise(s, stems):
    s = s.replace(",", "").lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the|and)\b", " ", s)
    return [stems[w] for w in s.split()]


def token_f1(prediction, reference, stems):
    p = normalise(prediction, stems)
    g = normalise(reference, stems)
    same = sum((Counter(p) & Counter(g)).values())
    if same == 0:
        return 0
    precision = same / len(p)
    recall = same / len(g)
    return 2 * precision * recall / (precision + recall)


def multi_f1(prediction, reference, stems):
    preds = [x.strip() for x in prediction.split(",")]
    refs = [x.strip() for x in reference.split(",")]
    return sum(max(token_f1(p, r, stems) for p in preds) for r in refs) / len(refs)


def score(case, stems):
    cat, out, ans = case["category"], case["output"], str(case["answer"])
    if cat == 3:
        ans = ans.split(";")[0].strip()
    if cat in (2, 3, 4):
        return token_f1(out, ans, stems)
    if cat == 1:
        return multi_f1(out, ans, stems)
    if cat == 5:
        low = out.lower()
        return 1 if ("no information available" in low or "not mentioned" in low) else 0
    raise ValueError(cat)


class NltkStems:
    """token -> NLTK's PorterStemmer stem (its default mode), looked up like the dict of given stems."""

    def __init__(self):
        from nltk.stem import PorterStemmer

        self.ps = PorterStemmer()

    def __getitem__(self, w):
        return self.ps.stem(w)


data = json.load(sys.stdin)
stems = data["stems"] if data["stems"] is not None else NltkStems()
print(json.dumps([score(c, stems) for c in data["cases"]]))
