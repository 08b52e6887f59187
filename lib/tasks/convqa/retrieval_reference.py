"""A reference of LongMemEval's retrieval scores written for this project's tests (lib/tasks/convqa/scores.test.ts).

Restates, from the published recipe (xiaowu0162/LongMemEval src/retrieval/eval_utils.py, commit 6a92d1a),
recall_any@k, recall_all@k and ndcg_any@k over a corpus of ids, a ranking of corpus indices and the
correct ids, in plain Python (no numpy on this machine).

stdin: [{"corpus": [id, ...], "ranking": [index, ...], "correct": [id, ...], "k": int}, ...]
stdout: [[recall_any, recall_all, ndcg], ...]

A case may instead be one question ({"question": {"haystack": [{"id", "turns": [{"role", "has_answer"?}]}],
"sessions": [retrieved session ids in rank order], "turns": [retrieved turn ids] or null}}): its corpus and
correct ids are built as run_retrieval.py (commit b60a5b7) builds them. Session granularity: an answer session
(id with "answer") none of whose user turns has has_answer is renamed "noans"; turn granularity: the user
turns, `<session>_<n>` (n over all turns, 1-based), an answer session's turn without has_answer renamed
"noans"; correct = the ids with "answer". The question is left out (null) when no user turn of its haystack
has has_answer (cf920ec). The ranking is the retrieved ids first, then the rest of the corpus; k = the
number retrieved. Output {"session": [...], "turn": [...] or null} or null.
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


def question(q):
    hay = q["haystack"]
    users = [(s, i, t) for s in hay for i, t in enumerate(s["turns"]) if t["role"] == "user"]
    if not any(t.get("has_answer") for _, _, t in users):
        return None

    def ranked(corpus, retrieved):
        # The retrieved ids (as the corpus names them, noans or not) first, in rank order, then the rest.
        plain = [c.replace("noans", "answer") for c in corpus]
        first = [plain.index(r) for r in retrieved]
        return first + [i for i in range(len(corpus)) if i not in first]

    def run(corpus, retrieved):
        correct = sorted({c for c in corpus if "answer" in c})
        return scores({"corpus": corpus, "ranking": ranked(corpus, retrieved), "correct": correct, "k": len(retrieved)})

    sess = []
    for s in hay:
        user = [t for t in s["turns"] if t["role"] == "user"]
        sess.append(s["id"].replace("answer", "noans") if "answer" in s["id"] and not any(t.get("has_answer") for t in user) else s["id"])
    out = {"session": run(sess, q["sessions"]), "turn": None}
    if q.get("turns") is not None:
        turns = []
        for s, i, t in users:
            tid = "%s_%d" % (s["id"], i + 1)
            turns.append(tid.replace("answer", "noans") if "answer" in s["id"] and not t.get("has_answer") else tid)
        out["turn"] = run(turns, q["turns"])
    return out


print(json.dumps([question(c["question"]) if "question" in c else scores(c) for c in json.load(sys.stdin)]))
