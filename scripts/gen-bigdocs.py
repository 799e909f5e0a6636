#!/usr/bin/env python3
"""gen-bigdocs.py FORMAT MB SEED > FILE

Writes a JSON document of about MB megabytes in FORMAT (gemini,
gemini-cli, codex, swe-agent, openhands, long-memory, har), made by
repeating the records of the sample in testdata/transcripts/FORMAT with
their text fields ("text", "content", "output", "thought") lengthened by
words drawn from a random.Random(SEED). The output is one line, written
as it is made (the generator holds one record at a time).
"""
import json
import os
import random
import sys

here = os.path.dirname(os.path.abspath(__file__))
samples = os.path.join(here, "..", "testdata", "transcripts")
# FORMAT -> (sample file, path to the repeated array)
spec = {
    "gemini": ("gemini/contents.json", ["contents"]),
    "gemini-cli": ("gemini-cli/session.json", ["messages"]),
    "codex": ("codex/responses-request.json", ["input"]),
    "swe-agent": ("swe-agent/fix-issue.traj", ["history"]),
    "openhands": ("openhands/events.json", []),
    "long-memory": ("long-memory/sessions.json", []),
    "har": ("har/streamed.har", ["log", "entries"]),
}
WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split()


def lengthen(v, rng):
    if isinstance(v, dict):
        return {k: (x + " " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 60)))
                    if k in ("text", "content", "output", "thought") and isinstance(x, str) and k != "text" or
                    k == "text" and isinstance(x, str) and not x.lstrip().startswith(("{", "data:"))
                    else lengthen(x, rng)) for k, x in v.items()}
    if isinstance(v, list):
        return [lengthen(x, rng) for x in v]
    return v


def main():
    fmt, mb, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    path, key = spec[fmt]
    doc = json.load(open(os.path.join(samples, path)))
    arr = doc
    for k in key:
        arr = arr[k]
    records = list(arr)
    arr[:] = ["\0HOLE\0"]
    head, tail = json.dumps(doc, separators=(",", ":")).split('"\\u0000HOLE\\u0000"')
    out = sys.stdout
    out.write(head)
    size, n, target = len(head), 0, mb * 1000 * 1000
    while size < target:
        for r in records:
            s = ("," if n else "") + json.dumps(lengthen(r, rng), separators=(",", ":"))
            out.write(s)
            size += len(s)
            n += 1
    out.write(tail + "\n")


main()
