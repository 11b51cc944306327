"""Rebuilding a product search index with a new analyzer: proposal, approval, reindex, relevance work."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import H, Scenario
from samplegen.heldout2._kit import a, ed, rd, sh, todo, wr

CWD = "/home/dev/search-infra"
OS = "curl -s -u $OS_AUTH https://search.internal:9200"

QUERIES = [
    ("Turkish dotted I", "ışık lamba", 0, 7),
    ("German sharp s", "fussball schuhe", 2, 9),
    ("German umlaut fold", "mantel grosse", 1, 8),
    ("French accents", "cafetière électrique", 6, 10),
    ("Polish diacritics", "żelazko parowe", 0, 8),
]

probe = [
    a(
        f"{label}: comparing the current analyzer with icu_folding.",
        sh(
            f"python scripts/compare_analyzers.py --query '{q}' --index products --candidate icu",
            f"current: hits_in_top10_relevant={cur}/10\nicu:     hits_in_top10_relevant={new}/10",
        ),
    )
    for label, q, cur, new in QUERIES
]

progress = [
    a(
        f"Reindex at {pct}%.",
        sh(
            f"{OS}/_tasks/oVf3:48812211 | jq '.task.status | {{created, total}}'",
            f'{{\n  "created": {int(18_412_907 * pct / 100)},\n  "total": 18412907\n}}',
        ),
    )
    for pct in (6, 14, 23, 31, 38, 47, 55, 63, 71, 80, 88, 95, 100)
]

M8 = f"{CWD}/mappings/products_v8.json"
Q = f"{CWD}/queries/product_search.mustache"
regressions = [
    (
        "iphone 15 hülle",
        "the synonym 'hülle' → 'case' is lost because icu_folding runs before synonym_graph",
        "move synonym_graph before icu_folding",
        (
            M8,
            '"filter": ["icu_folding", "synonym_graph"]',
            '"filter": ["synonym_graph", "icu_folding"]',
        ),
    ),
    (
        "usb-c kabel 2m",
        "the icu_tokenizer splits '2m' into '2' and 'm'",
        "mark size tokens as keywords",
        (
            M8,
            '"filter": ["synonym_graph", "icu_folding"]',
            '"filter": ["keyword_marker_sizes", "synonym_graph", "icu_folding"]',
        ),
    ),
    (
        "xbox one s",
        "'s' is dropped as a stopword after folding",
        "use only the per-language stopword lists",
        (M8, '"stopwords": "_all_"', '"stopwords": "_german_"'),
    ),
    (
        "lego 42115",
        "numbers tokenise fine, but the search template lost the sku boost",
        "restore sku^4 in the multi_match",
        (
            Q,
            '"fields": ["title^3", "brand^2", "description"]',
            '"fields": ["title^3", "brand^2", "sku^4", "description"]',
        ),
    ),
]

fixes = []
for q, why, fix, (path, old, new) in regressions:
    fixes.append(
        a(
            f"Regression `{q}`: {why}. Fix: {fix}.",
            sh(
                f"python scripts/explain.py --index products --query '{q}' --top 3",
                "1. score 14.2 (expected doc at rank 4)\n2. score 12.9\n3. score 11.0",
            ),
        )
    )
    fixes.append(a("", ed(path, old, new)))

LIVE = [("5xx rate", "0.00%"), ("search p99", "88 ms"), ("indexer lag", "3 s")]
live_checks = [
    a(
        f"Watching {name} after the swap.",
        sh(
            f"python scripts/grafana_q.py --panel '{name}' --last 10m",
            f"{name}: {value} (baseline unchanged)",
        ),
    )
    for name, value in LIVE
]
LOCALE_CHECKS = [
    ("de-DE", "Straße", '["strasse"]', '["straße"]'),
    ("pl-PL", "Łódź", '["lodz"]', '["łódź"]'),
    ("fr-FR", "Noël", '["noel"]', '["noel"]'),
]
locale_checks = [
    a(
        f"{loc}: indexed vs. query-time tokens for `{word}`.",
        sh(
            f"python scripts/analyze_both.py --index products_v7 --text '{word}'",
            f"index:  {idx}\nsearch: {srch}",
        ),
    )
    for loc, word, idx, srch in LOCALE_CHECKS
]

steps = [
    H(
        "the product search relevance dashboard is red for tr-TR and de-DE again. take a look at what's going on with the queries from the zero-result report"
    ),
    a(
        "Pulling the zero-result report for the last 7 days.",
        sh(
            "python scripts/zero_results.py --days 7 --by-locale",
            "locale  queries  zero_result  rate\nen-US   4,812,004   91,228   1.9%\nde-DE   1,203,557   77,031   6.4%\ntr-TR     402,118   48,254  12.0%\nfr-FR     611,930   14,686   2.4%",
        ),
        todo(("Look at zero-result queries for tr-TR / de-DE", "in_progress")),
    ),
    a(
        "",
        sh(
            "python scripts/zero_results.py --days 7 --locale tr-TR --top 8",
            "ışık (8,204)\nıslak mendil (3,911)\nçamaşır makinesi (2,876)\nşarj aleti (2,114)\nİSTANBUL kartı (1,730)\n...",
        ),
        sh(
            f'{OS}/products/_analyze -H \'content-type: application/json\' -d \'{{"analyzer":"default_search","text":"IŞIK"}}\' | jq -c \'[.tokens[].token]\'',
            '["işik"]',
        ),
    ),
    a(
        "That's the classic Turkish dotless-i problem: the `lowercase` filter maps `I` → `i`, so `IŞIK` becomes `işik`, which doesn't match documents indexed as `ışık`. Checking German.",
        sh(
            f'{OS}/products/_analyze -H \'content-type: application/json\' -d \'{{"analyzer":"default_search","text":"Fußball"}}\' | jq -c \'[.tokens[].token]\'',
            '["fußball"]',
        ),
        sh(
            f'{OS}/products/_analyze -H \'content-type: application/json\' -d \'{{"analyzer":"default_search","text":"Fussball"}}\' | jq -c \'[.tokens[].token]\'',
            '["fussball"]',
        ),
    ),
    a(
        "And German `ß` / `ss` don't meet either. Both are analyzer problems (standard + lowercase + asciifolding), not data problems.",
        rd(
            f"{CWD}/mappings/products_v7.json",
            '"analysis": {"analyzer": {"default": {"tokenizer": "standard", "filter": ["lowercase", "asciifolding", "synonym_graph"]}}}',
        ),
        todo(("Look at zero-result queries for tr-TR / de-DE", "completed")),
    ),
    *locale_checks,
    H(
        "should we just move the product index to the ICU analysis plugin? I remember it handles both of these properly"
    ),
    a(
        "Checking the plugin is installed on the cluster and what it would take.",
        sh(f"{OS}/_cat/plugins?h=component | sort -u", "analysis-icu\nrepository-s3"),
        sh(
            f"{OS}/_cat/indices/products*?h=index,docs.count,store.size,pri,rep",
            "products_v7 18412907 96.3gb 12 1",
        ),
        sh(
            f"{OS}/_cat/allocation?h=node,disk.used,disk.avail,disk.percent",
            "search-data-1 412gb 612gb 40\nsearch-data-2 405gb 619gb 39\nsearch-data-3 418gb 606gb 40",
        ),
    ),
    *probe,
    a(
        "Estimating reindex time on a 1% sample.",
        sh(
            "python scripts/reindex_estimate.py --source products_v7 --sample 0.01 --slices 12",
            "sample 184,129 docs in 33.8 s → full ≈ 56 min at 12 slices (~5,450 docs/s)",
        ),
    ),
    a(
        "Here's what moving to ICU would look like.\n\n**Findings**\n- `analysis-icu` is already installed on all 3 data nodes.\n"
        "- On the 5 worst query families, relevant hits in the top 10 go from 0–6 to 7–10 (Turkish 0→7, German ß 2→9, Polish 0→8).\n\n"
        "**Plan**\n1. Create `products_v8` with `icu_tokenizer` + `icu_folding` (+ Turkish `lowercase` language param on the tr field), synonyms unchanged.\n"
        "2. `_reindex` v7 → v8, 12 slices, ~56 min, refresh_interval -1 and 0 replicas during the copy.\n"
        "3. Restore replicas, run the offline relevance suite (1,200 judged queries), compare nDCG@10.\n"
        "4. Swap the `products` alias atomically; keep v7 for rollback.\n\n"
        "**Risks**\n- Disk: +96 GB primary (+192 GB with replica) — fine at ~40% used.\n- icu_folding also folds things we may want distinct (e.g. `ø`); the relevance suite should catch regressions.\n"
        "- The indexer keeps writing to v7 during the copy; I'd dual-write via the alias's write index for the catch-up.\n\nWant me to do it?"
    ),
    # Implicit approval: the person's own proposal, researched and laid out with risks; "do it" releases it.
    H("do it", expect=("implicit_approval", "ack")),
    a(
        "Creating products_v8.",
        wr(
            f"{CWD}/mappings/products_v8.json",
            '{"settings": {"number_of_shards": 12, "number_of_replicas": 0, "refresh_interval": "-1", "analysis": {"analyzer": {"default": {"tokenizer": "icu_tokenizer", "filter": ["icu_folding", "synonym_graph"]}}}}}',
        ),
        sh(
            f"{OS}/products_v8 -X PUT -H 'content-type: application/json' -d @mappings/products_v8.json",
            '{"acknowledged":true,"shards_acknowledged":true,"index":"products_v8"}',
        ),
        todo(
            ("Create products_v8 (ICU)", "completed"),
            ("Reindex v7 → v8", "in_progress"),
            ("Relevance suite", "pending"),
            ("Alias swap", "pending"),
        ),
    ),
    a("Before I start: 12 slices will use roughly 30% of cluster CPU. Should I throttle it?"),
    # Deliberate negative: a short reply with a concrete instruction in it; not silent.
    H("yes but cap it at 4000 docs/s, it's peak hours in APAC"),
    a(
        "Starting the reindex throttled to 4,000 docs/s (≈ 77 min).",
        sh(
            f'{OS}/_reindex?slices=12&requests_per_second=4000&wait_for_completion=false -H \'content-type: application/json\' -d \'{{"source":{{"index":"products_v7"}},"dest":{{"index":"products_v8"}}}}\'',
            '{"task":"oVf3:48812211"}',
        ),
    ),
    *progress[:6],
    # Deliberate negative: an ack while the agent is only polling a running job; same work continues.
    H("ok"),
    *progress[6:],
    a(
        "Copy finished: 18,412,907 docs, 0 failures. Restoring replicas and refresh, then catching up writes since the start.",
        sh(
            f'{OS}/products_v8/_settings -X PUT -H \'content-type: application/json\' -d \'{{"index":{{"number_of_replicas":1,"refresh_interval":"1s"}}}}\'',
            '{"acknowledged":true}',
        ),
        sh(
            "python scripts/catch_up.py --from products_v7 --to products_v8 --since-task oVf3:48812211",
            "caught up 41,220 updated docs, 318 deletes",
        ),
    ),
    a(
        "Running the offline relevance suite on both indices.",
        sh(
            "python relevance/run_suite.py --judgements relevance/judged_1200.jsonl --index products_v7 --index products_v8",
            "index        nDCG@10  zero_result  p95_ms\nproducts_v7  0.612    7.1%         41\nproducts_v8  0.684    2.2%         44",
        ),
        todo(
            ("Reindex v7 → v8", "completed"),
            ("Relevance suite", "completed"),
            ("Alias swap", "in_progress"),
        ),
    ),
    a(
        "Swapping the alias.",
        sh(
            f'{OS}/_aliases -X POST -H \'content-type: application/json\' -d \'{{"actions":[{{"remove":{{"index":"products_v7","alias":"products"}}}},{{"add":{{"index":"products_v8","alias":"products","is_write_index":true}}}}]}}\'',
            '{"acknowledged":true}',
        ),
        sh(
            "sleep 900; python scripts/zero_results.py --minutes 15 --by-locale",
            "locale  queries  zero_result  rate\nen-US   7,410   118   1.6%\nde-DE   1,822    41   2.3%\ntr-TR     611    14   2.3%\nfr-FR     934    19   2.0%",
        ),
        todo(("Alias swap", "completed")),
    ),
    *live_checks,
    a(
        "The ICU index is live.\n\n| | v7 (old) | v8 (ICU) |\n|---|---|---|\n| nDCG@10 (1,200 judged) | 0.612 | **0.684** |\n| zero-result rate, offline | 7.1% | 2.2% |\n| tr-TR zero results, live 15 min | 12.0% | **2.3%** |\n| de-DE zero results, live 15 min | 6.4% | **2.3%** |\n| p95 latency | 41 ms | 44 ms |\n\n"
        "products_v7 is kept for rollback. 4 judged queries got worse in the suite."
    ),
    # Milestone with figures, plus a few regressions left; "keep going" and the agent turns to relevance tuning.
    H("keep going", expect=("continue_after_milestone", "ack")),
    a(
        "Migration done; moving on to the four queries that regressed, since they're the remaining cost of the switch.",
        sh(
            "python relevance/run_suite.py --judgements relevance/judged_1200.jsonl --index products_v7 --index products_v8 --only-regressions",
            "iphone 15 hülle      0.91 → 0.42\nusb-c kabel 2m       0.88 → 0.61\nxbox one s           0.95 → 0.70\nlego 42115           1.00 → 0.55",
        ),
        todo(
            ("Fix 4 relevance regressions", "in_progress"),
            ("Synonyms before folding", "pending"),
            ("SKU boost", "pending"),
        ),
    ),
    *fixes,
    a(
        "Applying the analyzer change needs a new index again; the query-side fixes are live immediately. Re-running the suite with the query fix first.",
        sh(
            "python relevance/run_suite.py --judgements relevance/judged_1200.jsonl --index products_v8",
            "nDCG@10 0.691 (regressions left: 2)",
        ),
    ),
    a(
        "Synonym order and stopwords need an index rebuild (v9). I've prepared `mappings/products_v9.json`; with throttling it's another ~77 min, so I'll leave it for an off-peak window.",
        wr(
            f"{CWD}/mappings/products_v9.json",
            '{"settings": {"analysis": {"analyzer": {"default": {"tokenizer": "icu_tokenizer", "filter": ["synonym_graph", "icu_folding", "keyword_marker_sizes"]}}}}}',
        ),
        todo(
            ("Fix 4 relevance regressions", "in_progress"),
            ("Synonyms before folding", "completed"),
            ("SKU boost", "completed"),
        ),
    ),
    a(
        "Status: ICU index live (nDCG@10 0.691 with the SKU boost), v9 mapping ready for the remaining two regressions, v7 kept for rollback."
    ),
    # Deliberate negative: a silence after which the agent only asks what to do; nothing changes.
    H(""),
    a(
        "Is there anything else you'd like on this? I can schedule the v9 rebuild for tonight's window or delete products_v7 after a week — your call."
    ),
    H("schedule v9 for 02:00 UTC, leave v7 alone"),
    a(
        "Scheduled.",
        sh(
            "echo 'python scripts/rebuild.py --mapping mappings/products_v9.json --rps 8000 --swap' | at 02:00 UTC",
            "job 41 at Wed Nov  5 02:00:00 2026",
        ),
    ),
]

SCENARIOS = [
    Scenario(
        name="h2_search_reindex",
        title="Product search: move to the ICU analyzer",
        cwd=CWD,
        steps=steps,
        model="gemini-3.8-flash",
        start="2026-11-04T10:05:00Z",
    )
]
FORMATS = ["gemini", "codex", "opencode"]
