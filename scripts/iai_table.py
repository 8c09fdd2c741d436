#!/usr/bin/env python3
"""Turns the output of `cargo bench --bench instructions` (read from stdin) into a Markdown
table of instructions per URL (each benchmark parses 1,000 lines) with ratios against ada.

    scripts/instructions.sh 2>&1 | python3 scripts/iai_table.py
"""
import re
import sys

SAMPLE = 1000
results = {}
current = None
for line in sys.stdin:
    m = re.match(r"instructions::per_url::(\w+) corpus_\d+:load_sample\(\"(\w+)\"\)", line)
    if m:
        current = (m.group(1), m.group(2))
        continue
    m = re.match(r"instructions::search_params::(\w+) queries", line)
    if m:
        current = (m.group(1), "queries")
        continue
    m = re.match(r"\s+Instructions:\s+(\d+)", line)
    if m and current:
        results[current] = int(m.group(1))
        current = None

funcs = ["rapidurl_parse_ref", "rapidurl_url_parse", "rapidurl_can_parse", "ada_url_parse",
         "ada_can_parse", "url_url_parse"]
corpora = []
for (_, c) in results:
    if c not in corpora:
        corpora.append(c)
print("| corpus | rapidurl parse_ref | rapidurl Url::parse | rapidurl can_parse | ada Url::parse | ada can_parse | url Url::parse | parse_ref vs ada parse | Url::parse vs ada parse | can_parse vs ada can_parse |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for c in corpora:
    v = {f: results.get((f, c)) for f in funcs}
    if None in v.values():
        continue
    per = {f: v[f] / SAMPLE for f in funcs}
    print(f"| {c} | " + " | ".join(f"{per[f]:.0f}" for f in funcs) +
          f" | {v['ada_url_parse'] / v['rapidurl_parse_ref']:.2f}×"
          f" | {v['ada_url_parse'] / v['rapidurl_url_parse']:.2f}×"
          f" | {v['ada_can_parse'] / v['rapidurl_can_parse']:.2f}× |")

q = {f: results.get((f, "queries")) for f in ["rapidurl_search_params", "ada_search_params"]}
if None not in q.values():
    print()
    print("| query strings | rapidurl SearchParams::parse | ada UrlSearchParams::parse | rapidurl vs ada |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| 1,000 from the corpora | {q['rapidurl_search_params'] / SAMPLE:.0f}"
          f" | {q['ada_search_params'] / SAMPLE:.0f}"
          f" | {q['ada_search_params'] / q['rapidurl_search_params']:.2f}× |")
