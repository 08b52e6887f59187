#!/usr/bin/env python3
"""A turn-level RAG memory method for PAL Studio, as an external method (standard library only).

Memory: each session phase hands its logs or dialogue utterances back to PAL Studio as entries (with
their embeddings, made through the run's endpoint); PAL Studio stores them and sends the entries an answer
may see with each /respond. Answering retrieves the top-k entries by cosine similarity and asks the run's
model for the task's JSON keys. Start: python3 method.py --port 8765 (see README.md).
"""
import argparse
import json
import math
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TASKS = ["query", "requirement", "selection", "dialogue", "question"]
K = 3
MAX_BODY = 64 * 1024 * 1024


def call_llm(llm, path, body):
    """One request to the run's OpenAI-compatible endpoint (its key is valid while PAL Studio waits for us)."""
    req = urllib.request.Request(
        llm["baseUrl"] + path,
        data=json.dumps(body).encode("utf-8"),
        headers={"Authorization": "Bearer " + llm["apiKey"], "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.load(r)


def embed(llm, texts):
    if not texts:
        return []
    out = call_llm(llm, "/embeddings", {"model": llm["models"]["embedding"], "input": texts})
    return [d["embedding"] for d in sorted(out["data"], key=lambda d: d["index"])]


def chat(llm, messages, json_object=False):
    body = {"model": llm["models"]["assistant"], "messages": messages}
    if json_object:  # the run's endpoint then asks its model for a JSON object (its JSON mode), not prose
        body["response_format"] = {"type": "json_object"}
    out = call_llm(llm, "/chat/completions", body)
    return out["choices"][0]["message"]["content"]


def cosine(a, b):
    na = math.sqrt(sum(x * x for x in a)) or 1.0
    nb = math.sqrt(sum(x * x for x in b)) or 1.0
    return sum(x * y for x, y in zip(a, b)) / (na * nb)


def parse_json(text):
    """The first JSON object in a reply (models often wrap it in prose or a code fence)."""
    start = text.find("{")
    while start != -1:
        for end in range(len(text), start, -1):
            if text[end - 1] != "}":
                continue
            try:
                return json.loads(text[start:end])
            except ValueError:
                pass
        start = text.find("{", start + 1)
    raise ValueError("no JSON object in the reply")


def session_entries(body):
    """This phase's texts as entries: logs in the logs phase, each user and assistant utterance after."""
    s, llm = body["session"], body["llm"]
    if body["phase"] == "logs":
        items = [("log", "%d:log:%d" % (s["seq"], i), l["timestamp"] + " " + l["content"]) for i, l in enumerate(s["logs"])]
    else:
        items = []
        for i, t in enumerate(s.get("dialogue", [])):
            items.append(("utterance", "%d:turn_%d:user" % (s["seq"], i), "user: " + t["user"]))
            items.append(("utterance", "%d:turn_%d:assistant" % (s["seq"], i), "assistant: " + t["assistant"]))
    vectors = embed(llm, [text for _, _, text in items])
    return [{"kind": k, "key": key, "content": {"text": text, "vector": v}} for (k, key, text), v in zip(items, vectors)]


def query_text(task):
    if task["type"] == "query":
        return task["query"]
    if task["type"] in ("requirement", "selection"):
        return task["requirement"]
    if task["type"] == "dialogue":
        return task["turns"][-1]["user"] if task["turns"] else ""
    return task["question"]


def task_prompt(task, zh):
    t = task["type"]
    if t == "query":
        return "The user asked: %s\nRestate the need behind it. Answer in JSON only: {\"requirement\": \"...\"}" % task["query"]
    if t == "requirement":
        return "The user needs: %s\nPropose a solution that fits this user. Answer in JSON only: {\"solution\": \"...\"}" % task["requirement"]
    if t == "selection":
        options = "\n".join("%s. %s" % (c["id"], c["solution"]) for c in task["candidates"])
        return ("The user needs: %s\nOptions:\n%s\nPick the two that fit this user best. Answer in JSON only: "
                "{\"analysis\": \"...\", \"selected_solutions\": [\"id\", \"id\"]}" % (task["requirement"], options))
    if t == "dialogue":
        turns = "\n".join("user: %s\nassistant: %s" % (x["user"], x.get("assistant", "")) for x in task["turns"])
        return ("The conversation so far:\n%s\nReply type for this turn: %s\nWrite the assistant's next turn. "
                "Answer in JSON only: {\"content\": \"...\"}" % (turns, task["action"]))
    return "Question: %s\nAnswer it for this user." % task["question"]


def respond(body):
    task, llm, zh = body["input"], body["llm"], body["language"] == "zh"
    if task["type"] not in TASKS:
        raise ValueError("unknown task type " + str(task["type"]))
    entries = [e for e in body["memory"] if isinstance(e.get("content"), dict) and "vector" in e["content"]]
    hits = []
    if entries:
        q = embed(llm, [query_text(task)])[0]
        hits = sorted(((cosine(q, e["content"]["vector"]), e) for e in entries), key=lambda h: -h[0])[:K]
    logs = "\n".join(l["timestamp"] + " " + l["content"] for l in body["session"]["logs"])
    memory = "\n".join(e["content"]["text"] for _, e in hits) or "(nothing yet)"
    user = "You are this user's personal assistant; write in %s.\n\nWhat you remember of them:\n%s\n\nTheir recent activity:\n%s\n\n%s" % (
        "Chinese" if zh else "English", memory, logs or "(none)", task_prompt(task, zh))
    messages = [{"role": "user", "content": user}]
    reply = chat(llm, messages, json_object=task["type"] != "question")
    if task["type"] == "question":
        output = {"answer": reply.strip()}
    else:
        output = parse_json(reply)
        if task["type"] == "selection":
            ids = list(dict.fromkeys(str(i) for i in output.get("selected_solutions", [])))
            if len(ids) != 2:  # ask once more, saying what was wrong
                messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": "Pick exactly two different ids."}]
                output = parse_json(chat(llm, messages, json_object=True))
        keys = {"query": ["requirement"], "requirement": ["solution"], "selection": ["analysis", "selected_solutions"], "dialogue": ["content"]}
        output = {k: output[k] for k in keys[task["type"]]}
    retrieved = [{"kind": e["kind"], "key": e["key"], "text": e["content"]["text"], "score": round(s, 4)} for s, e in hits]
    return {"output": output, "retrieved": retrieved}


class Handler(BaseHTTPRequestHandler):
    def send(self, status, obj):
        data = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.rstrip("/") == "":
            return self.send(200, {"name": "turn-rag-example", "version": "1", "tasks": TASKS, "outsideModels": [], "memory": "returned"})
        self.send(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self.send(413, {"error": "request too large"})
        try:
            body = json.loads(self.rfile.read(length))
            if self.path == "/sessions":
                return self.send(200, {"entries": session_entries(body)})
            if self.path == "/respond":
                return self.send(200, respond(body))
            self.send(404, {"error": "not found"})
        except urllib.error.HTTPError as e:
            self.send(502, {"error": "the run's model endpoint answered %d: %s" % (e.code, e.read()[:500].decode("utf-8", "replace"))})
        except Exception as e:  # the message reaches PAL Studio's record of the failed job
            self.send(500, {"error": "%s: %s" % (type(e).__name__, e)})

    def log_message(self, fmt, *args):
        pass


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    a = p.parse_args()
    server = ThreadingHTTPServer((a.host, a.port), Handler)
    print("listening on http://%s:%d" % (a.host, server.server_address[1]), flush=True)
    server.serve_forever()
