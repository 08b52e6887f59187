"""A reference of LongMemEval's retrieval scores written for this project's tests (lib/tasks/convqa/scores.test.ts).

Restates, from the published recipe (xiaowu0162/LongMemEval src/retrieval/eval_utils.py, commit 6a92d1a),
recall_any@k, recall_all@k and ndcg_any@k over a corpus of ids, a ranking of corpus indices and the
correct ids, in plain Python (no numpy on this machine).

stdin: [{"corpus": [id, ...], "ranking": [index, ...], "correct": [id, ...], "k": int}, ...]
stdout: [[recall_any, recall_all, ndcg], ...]
"""
import json
import math
import sys


def dcg(rel, k):
    rel = rel[:k]
    if not rel:
        return 0.0
    return rel[0] + sum(r / math.log2(i + 1) for i, r in enumerate(rel) if i > 0)


def scores(c):
    corpus, ranking, correct, k = c["corpus"], c["ranking"], set(c["correct"]), c["k"]
    top = {corpus[i] for i in ranking[:k]}
    rel_all = [1 if d in correct else 0 for d in corpus]
    ranked = [rel_all[i] for i in ranking[:k]]
    ideal = dcg(sorted(rel_all, reverse=True), k)
    ndcg = 0.0 if ideal == 0 else dcg(ranked, k) / ideal
    return [float(any(d in top for d in correct)), float(all(d in top for d in correct)), ndcg]


print(json.dumps([scores(c) for c in json.load(sys.stdin)]))
