#!/usr/bin/env python3
"""Totals of Claude Code usage with each response counted once, read from
the records independently of harpe (to check `harpe transcript DIR` and
ccusage 20 against; see docs/cost.md, "Each response once").

    python3 scripts/responses-once.py CLAUDE_DIR     # a directory holding projects/

A response is an assistant record's message.id and requestId (message.id
alone when there is no requestId); records whose model is <synthetic> are
not calls. Files are taken in sorted path order. 'last' takes, for each
response, the last record that has usage in the first file that holds it
(harpe's rule; the one whose output is final), 'first' the first record
seen anywhere (ccusage 18's rule, for comparison). Prints input, output,
cache write and cache read tokens."""
import glob
import json
import os
import sys

root = sys.argv[1]
files = sorted(glob.glob(os.path.join(root, 'projects', '**', '*.jsonl'), recursive=True))
first = {}   # response -> usage of its first record seen
lastin = {}  # response -> usage of its last record in the first file that holds it
copies = 0   # responses met again in a later file
for f in files:
    infile = {}
    with open(f, encoding='utf-8', errors='replace') as fh:
        for line in fh:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if not isinstance(r, dict) or r.get('type') != 'assistant':
                continue
            m = r.get('message') or {}
            u = m.get('usage')
            if not u or m.get('model') == '<synthetic>' or not m.get('id'):
                continue
            t = tuple(u.get(k) or 0 for k in ('input_tokens', 'output_tokens',
                                              'cache_creation_input_tokens', 'cache_read_input_tokens'))
            k = (m['id'], r.get('requestId') or None)
            first.setdefault(k, t)
            infile[k] = t
    for k, t in infile.items():
        if k in lastin:
            copies += 1
        else:
            lastin[k] = t


def total(ts):
    return [sum(t[i] for t in ts) for i in range(4)]


print('files', len(files), 'responses', len(lastin), 'copies in later files', copies)
print('last   input, output, cache write, cache read:', *total(lastin.values()))
print('first  input, output, cache write, cache read:', *total(first.values()))
