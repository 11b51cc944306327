# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: a slow catalogue search in Postgres, with an automatic compaction at the dead end (Claude Code).

Labelled: one pivot with no person in it — the agent runs out of working ideas mid-turn, Claude
Code compacts the context automatically, and after the summary the agent changes approach on its
own (delegation after a dead end, silence `compaction`). Negatives: "yes but build it
CONCURRENTLY" (directed), a `<system-reminder>` injection, "ok" during a benchmark loop, an
interrupt with a correction, "👍" after which the agent only asks, and "." at the very end.
"""

from __future__ import annotations

from samplegen.heldout._kit import A, Compact, H, Interrupt, Kit, Meta, Scenario

FORMATS = ["claude"]

CWD = "/home/nora/work/shopfront-api"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

QUERY = """SELECT p.id, p.name, p.price_cents, p.popularity
FROM products p
WHERE p.active AND (p.name ILIKE '%' || $1 || '%' OR p.brand ILIKE '%' || $1 || '%')
ORDER BY p.popularity DESC
LIMIT 24 OFFSET $2"""

PLAN_SEQ = """Limit  (cost=0.43..18812.07 rows=24 width=61) (actual time=2204.118..2210.553 rows=24 loops=1)
  ->  Index Scan using products_popularity_idx on products p  (cost=0.43..1310622.91 rows=1672 width=61) (actual time=2204.115..2210.541 rows=24 loops=1)
        Filter: (active AND ((name ~~* '%trail shoe%'::text) OR (brand ~~* '%trail shoe%'::text)))
        Rows Removed by Filter: 3988114
Planning Time: 0.311 ms
Execution Time: 2210.602 ms"""

SUMMARY = """This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:
Analysis:
The user asked why /search p95 is 2.3 s since the catalogue grew to ~4M products, and to fix it.

Summary:
1. Primary Request and Intent: bring /search p95 under 200 ms on the staging copy (4.0M products) without changing results.
2. Key Technical Concepts: pg_trgm GIN indexes, ILIKE with leading wildcard, planner choosing products_popularity_idx for ORDER BY … LIMIT, n_distinct/statistics, CREATE INDEX CONCURRENTLY.
3. Files and Code Sections:
   - app/search/repository.py: the search SQL (ILIKE on name OR brand, ORDER BY popularity DESC LIMIT 24)
   - migrations/0087_trgm_indexes.sql: GIN trigram indexes on name and brand (built CONCURRENTLY)
4. Errors and fixes:
   - first CREATE INDEX CONCURRENTLY failed: "could not extend file … No space left on device" → removed 31 GB of old WAL archives on staging, rebuilt (left an INVALID index, dropped).
   - planner still walks products_popularity_idx and filters 3.99M rows: p95 2.1 s; `SET enable_indexscan = off` makes it use the trigram indexes (140 ms) but that is not a fix.
   - raising statistics target to 1000 + ANALYZE: no change; rewriting OR as UNION: 1.3 s (sort of 180k candidates for common terms).
   - pg_hint_plan is not installed (nor on RDS); a partial popularity index on active rows: no change (2.1 s).
5. Pending Tasks: make the planner use the trigram indexes for rare terms without the sort blowing up for common terms.
6. Current Work: comparing plans for rare ("trail shoe", 1,672 rows) vs common ("shirt", 181,204 rows) terms.
7. Optional Next Step: none decided."""

STATUS = """## Picking up after the context reset

**Goal**: /search p95 < 200 ms at 4.0M products, same results.

**What didn't work**: trigram indexes alone (planner prefers the popularity index and filters 3.99M rows),
higher statistics (no change), `OR` → `UNION` (1.3 s for common terms because of the sort), no
`pg_hint_plan`, a partial index on active rows (no change).

**Why**: for `ORDER BY popularity LIMIT 24` the planner bets that matching rows are spread evenly
through the popularity order. For rare terms that bet is terrible; for common terms it is right.

**New approach**
1. Count candidates cheaply from the trigram index first (capped at 5,000).
2. Few candidates → fetch them via the trigram indexes and sort (small sort).
3. Many candidates → the current popularity-index walk is already fast (rows are everywhere).
4. Benchmark both paths with the 200 real queries from yesterday's log."""

TERMS = [
    ("trail shoe", 1672, 38),
    ("shirt", 181204, 12),
    ("merino", 4210, 61),
    ("usb-c hub", 311, 22),
    ("kids rain jacket", 908, 44),
]


def steps() -> list:
    s: list = [
        H(
            "/search p95 went from ~150ms to 2.3s since the catalogue passed 4M products. find out why and "
            "fix it, staging has a copy of prod from last night"
        ),
        A(
            "Starting with the query and its plan on staging.",
            tools=[
                grep(
                    "ILIKE",
                    "app/search",
                    "app/search/repository.py:31:    WHERE p.active AND (p.name ILIKE '%' || :q || '%' OR p.brand ILIKE '%' || :q || '%')",
                )
            ],
        ),
        A(tools=[rd("app/search/repository.py", QUERY)]),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -c "EXPLAIN (ANALYZE, BUFFERS OFF) '
                    + QUERY.replace("$1", "'trail shoe'")
                    .replace("$2", "0")
                    .replace("\n", " ")
                    .replace("'", "''")
                    + '"',
                    PLAN_SEQ,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "curl -s 'http://grafana.internal/api/ds/query' -d @dash/search_p95_30d.json | jq -r '.results.A.frames[0].data.values | [.[0][-30:], .[1][-30:]] | transpose | map(\"\\(.[0] / 1000 | strftime(\"%m-%d\")) \\(.[1] * 1000 | floor)\") | .[18:24][]'",
                    "11-19 161\n11-20 158\n11-21 874\n11-22 1911\n11-23 2240\n11-24 2302",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -Atc "select round(mean_exec_time)::int, calls, left(query, 60) from pg_stat_statements order by total_exec_time desc limit 3"',
                    "2214|48211|SELECT p.id, p.name, p.price_cents, p.popularity FROM produc\n38|1201877|SELECT * FROM carts WHERE session_id = $1\n12|911023|UPDATE products SET stock = stock - $1 WHERE id = $2",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -Atc "select indexname, indexdef from pg_indexes where tablename = \'products\'"',
                    "products_pkey|CREATE UNIQUE INDEX products_pkey ON public.products USING btree (id)\nproducts_popularity_idx|CREATE INDEX products_popularity_idx ON public.products USING btree (popularity DESC)\nproducts_sku_key|CREATE UNIQUE INDEX products_sku_key ON public.products USING btree (sku)",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -Atc "select count(*), pg_size_pretty(pg_relation_size(\'products\')) from products"',
                    "4002118|3112 MB",
                )
            ]
        ),
        A(
            "The plan walks the popularity index and filters out 3,988,114 rows to find 24 matches (2.2 s). "
            "`ILIKE '%…%'` can't use a btree, so the fix is a trigram GIN index on `name` and `brand`.",
            tools=[
                todo(
                    [
                        ("Trigram GIN indexes on name, brand", "in_progress"),
                        ("Check the planner uses them", "pending"),
                        ("Benchmark 200 logged queries, p95", "pending"),
                    ]
                )
            ],
        ),
        H(
            "yes but build it CONCURRENTLY, staging gets the replay traffic and I don't want it locked"
        ),
        # ^ NOT silent: a directed constraint.
        A(
            tools=[
                wr(
                    "migrations/0087_trgm_indexes.sql",
                    "-- ILIKE '%term%' needs trigram indexes; CONCURRENTLY so replay traffic keeps flowing\nCREATE EXTENSION IF NOT EXISTS pg_trgm;\n"
                    "CREATE INDEX CONCURRENTLY IF NOT EXISTS products_name_trgm ON products USING gin (name gin_trgm_ops);\n"
                    "CREATE INDEX CONCURRENTLY IF NOT EXISTS products_brand_trgm ON products USING gin (brand gin_trgm_ops);\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -f migrations/0087_trgm_indexes.sql',
                    'CREATE EXTENSION\npsql:migrations/0087_trgm_indexes.sql:3: ERROR:  could not extend file "base/16384/2188112": No space left on device\n'
                    "HINT:  Check free disk space.",
                    code=3,
                    ms=412000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "ssh staging-db 'df -h /var/lib/postgresql && du -sh /var/lib/postgresql/wal-archive'",
                    "Filesystem      Size  Used Avail Use% Mounted on\n/dev/nvme1n1    200G  196G  4.1G  98% /var/lib/postgresql\n31G\t/var/lib/postgresql/wal-archive",
                )
            ]
        ),
        A(
            "The staging disk is 98 % full, 31 GB of it old WAL archives (staging doesn't need PITR). Removing archives older than 2 days.",
            tools=[
                sh(
                    "ssh staging-db 'sudo find /var/lib/postgresql/wal-archive -type f -mtime +2 -delete && df -h /var/lib/postgresql | tail -1'",
                    "/dev/nvme1n1    200G  166G   35G  83% /var/lib/postgresql",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -Atc "select indexrelid::regclass, indisvalid from pg_index where indexrelid::regclass::text like \'%trgm%\'"',
                    "products_name_trgm|f",
                )
            ]
        ),
        A(
            "The failed concurrent build left an INVALID index behind; dropping it before retrying.",
            tools=[
                sh(
                    'psql "$STAGING_URL" -c \'DROP INDEX CONCURRENTLY products_name_trgm\' && psql "$STAGING_URL" -f migrations/0087_trgm_indexes.sql',
                    "DROP INDEX\nCREATE EXTENSION\nCREATE INDEX\nCREATE INDEX",
                    ms=1104000,
                )
            ],
        ),
        Meta(
            "<system-reminder>\nThe TodoWrite tool hasn't been used recently. If you're working on tasks that would benefit from tracking progress, consider using the TodoWrite tool to track your progress.\n</system-reminder>"
        ),
        # ^ NOT human: an injected reminder.
        A(
            tools=[
                todo(
                    [
                        ("Trigram GIN indexes on name, brand", "completed"),
                        ("Check the planner uses them", "in_progress"),
                        ("Benchmark 200 logged queries, p95", "pending"),
                    ]
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -c "EXPLAIN ANALYZE '
                    + QUERY.replace("$1", "'trail shoe'")
                    .replace("$2", "0")
                    .replace("\n", " ")
                    .replace("'", "''")
                    + '" | tail -4',
                    "        Rows Removed by Filter: 3988114\nPlanning Time: 0.402 ms\nExecution Time: 2107.880 ms",
                )
            ]
        ),
        A(
            "Built, but the planner still prefers the popularity index (2.1 s). Checking whether it can use the trigram indexes at all.",
            tools=[
                sh(
                    'psql "$STAGING_URL" -c "SET enable_indexscan = off; EXPLAIN ANALYZE '
                    + QUERY.replace("$1", "'trail shoe'")
                    .replace("$2", "0")
                    .replace("\n", " ")
                    .replace("'", "''")
                    + "\" | rg 'Bitmap|Execution'",
                    "        ->  BitmapOr  (cost=402.11..402.11 rows=1690 width=0) (actual time=131.882..131.884 rows=0 loops=1)\n"
                    "              ->  Bitmap Index Scan on products_name_trgm  (cost=0.00..188.41 rows=1201 width=0) (actual time=101.220..101.220 rows=1588 loops=1)\n"
                    "              ->  Bitmap Index Scan on products_brand_trgm  (cost=0.00..212.86 rows=489 width=0) (actual time=30.660..30.660 rows=96 loops=1)\nExecution Time: 140.224 ms",
                )
            ],
        ),
        A(
            "With the popularity index disabled it takes 140 ms via the trigram indexes, so the cost model is what's wrong. Raising the statistics target on the searched columns.",
            tools=[
                sh(
                    'psql "$STAGING_URL" -c \'ALTER TABLE products ALTER name SET STATISTICS 1000, ALTER brand SET STATISTICS 1000\' -c \'ANALYZE products\' && psql "$STAGING_URL" -c "EXPLAIN ANALYZE '
                    + QUERY.replace("$1", "'trail shoe'")
                    .replace("$2", "0")
                    .replace("\n", " ")
                    .replace("'", "''")
                    + '" | tail -1',
                    "ALTER TABLE\nANALYZE\nExecution Time: 2131.004 ms",
                    ms=96000,
                )
            ],
        ),
        A(
            "No change. Trying `OR` → `UNION` so each branch can use its own index.",
            tools=[
                ed(
                    "app/search/repository.py",
                    "    WHERE p.active AND (p.name ILIKE '%' || :q || '%' OR p.brand ILIKE '%' || :q || '%')",
                    "    WHERE p.id IN (SELECT id FROM products WHERE name ILIKE '%' || :q || '%' UNION SELECT id FROM products WHERE brand ILIKE '%' || :q || '%') AND p.active",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "python bench/search.py --terms 'trail shoe,shirt' --runs 20",
                    "term          rows     p50       p95\ntrail shoe    1672     151 ms    188 ms\nshirt         181204   1204 ms   1317 ms",
                )
            ]
        ),
        A(
            "Rare terms are fast now (188 ms p95), but common terms got slower (1.3 s) because the UNION "
            "materialises 181k ids and sorts them. Neither plan is good for both kinds of term.",
            tools=[
                sh(
                    "python bench/search.py --terms 'shirt' --runs 5 --explain | rg 'Sort|Execution'",
                    "  ->  Sort  (cost=41220.12..41672.13 rows=180804 width=61) (actual time=1102.301..1131.870 rows=24 loops=1)\n        Sort Method: top-N heapsort  Memory: 31kB\nExecution Time: 1207.113 ms",
                )
            ],
        ),
        A(
            "Trying a planner hint before restructuring the query.",
            tools=[
                sh(
                    'psql "$STAGING_URL" -c "LOAD \'pg_hint_plan\'"',
                    'ERROR:  could not access file "pg_hint_plan": No such file or directory',
                    code=1,
                )
            ],
        ),
        A(
            "`pg_hint_plan` isn't installed, and prod is RDS where we haven't enabled it either. A partial index restricted to active products might change the cost estimate instead.",
            tools=[
                sh(
                    "psql \"$STAGING_URL\" -c 'CREATE INDEX CONCURRENTLY products_active_pop ON products (popularity DESC) WHERE active' && python bench/search.py --terms 'trail shoe' --runs 10 | tail -1",
                    "CREATE INDEX\ntrail shoe    1672     2088 ms   2190 ms",
                    ms=301000,
                )
            ],
        ),
        A(
            "No change (2.19 s), dropping it again. Hints, statistics, UNION and a partial index have all failed "
            "to give one plan that is fast for both rare and common terms.",
            tools=[
                sh(
                    "psql \"$STAGING_URL\" -c 'DROP INDEX CONCURRENTLY products_active_pop'",
                    "DROP INDEX",
                )
            ],
        ),
        Compact(SUMMARY, auto=True, expect=("delegation_after_dead_end", "compaction")),
        # ^ mid-turn automatic compaction right where the agent had no working idea left; after the summary it
        #   re-plans (status dump) and acts alone. No person is involved: the record shows a compaction boundary.
        A(STATUS),
        A(
            "Re-reading the query as it is now, since the summary doesn't have the exact SQL.",
            tools=[
                rd(
                    "app/search/repository.py",
                    'SEARCH = text("""\nSELECT p.id, p.name, p.price_cents, p.popularity\nFROM products p\n'
                    "WHERE p.id IN (SELECT id FROM products WHERE name ILIKE '%' || :q || '%' UNION SELECT id FROM products WHERE brand ILIKE '%' || :q || '%') AND p.active\n"
                    'ORDER BY p.popularity DESC\nLIMIT 24 OFFSET :offset\n""")\n\n\ndef search(conn, q: str, offset: int) -> list[Product]:\n    return [Product(**r) for r in conn.execute(SEARCH, {"q": q, "offset": offset}).mappings()]\n',
                )
            ],
        ),
        A(
            tools=[
                todo(
                    [
                        ("Trigram GIN indexes on name, brand", "completed"),
                        ("Candidate count probe (capped at 5,000)", "in_progress"),
                        (
                            "Two query paths: few → trigram + sort, many → popularity walk",
                            "pending",
                        ),
                        ("Benchmark 200 logged queries, p95", "pending"),
                    ]
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "app/search/repository.py",
                    "    WHERE p.id IN (SELECT id FROM products WHERE name ILIKE '%' || :q || '%' UNION SELECT id FROM products WHERE brand ILIKE '%' || :q || '%') AND p.active",
                    "    WHERE p.active AND (p.name ILIKE '%' || :q || '%' OR p.brand ILIKE '%' || :q || '%')",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "app/search/repository.py",
                    "def search(conn, q: str, offset: int) -> list[Product]:",
                    "PROBE_CAP = 5000\n\nPROBE = text(\"\"\"\nSELECT count(*) FROM (\n  SELECT 1 FROM products WHERE name ILIKE '%' || :q || '%'\n  UNION ALL\n"
                    "  SELECT 1 FROM products WHERE brand ILIKE '%' || :q || '%'\n  LIMIT :cap\n) s\n\"\"\")\n\n\n"
                    'def search(conn, q: str, offset: int) -> list[Product]:\n    """Rare terms: trigram indexes + small sort. Common terms: walk the popularity index."""\n'
                    '    few = conn.scalar(PROBE, {"q": q, "cap": PROBE_CAP}) < PROBE_CAP\n    return _search_by_trgm(conn, q, offset) if few else _search_by_popularity(conn, q, offset)',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "python bench/search.py --terms 'trail shoe,shirt,merino,usb-c hub,kids rain jacket' --runs 20",
                    "term              rows     path         p50      p95\ntrail shoe        1672     trgm         41 ms    58 ms\nshirt             181204   popularity   9 ms     14 ms\n"
                    "merino            4210     trgm         66 ms    91 ms\nusb-c hub         311      trgm         23 ms    31 ms\nkids rain jacket  908      trgm         47 ms    63 ms",
                )
            ]
        ),
        A(
            "Checking what the probe itself costs for a very common term, since it runs on every search.",
            tools=[
                sh(
                    "psql \"$STAGING_URL\" -c \"EXPLAIN ANALYZE SELECT count(*) FROM (SELECT 1 FROM products WHERE name ILIKE '%a%' UNION ALL SELECT 1 FROM products WHERE brand ILIKE '%a%' LIMIT 5000) s\" | tail -1",
                    "Execution Time: 412.907 ms",
                )
            ],
        ),
        A(
            "412 ms for a one-letter term: trigram indexes can't help with fewer than 3 characters, so the probe scans. Short terms go straight to the popularity path.",
            tools=[
                ed(
                    "app/search/repository.py",
                    '    few = conn.scalar(PROBE, {"q": q, "cap": PROBE_CAP}) < PROBE_CAP',
                    '    # trigrams need >= 3 characters; shorter terms match almost everything anyway\n    few = len(q.strip()) >= 3 and conn.scalar(PROBE, {"q": q, "cap": PROBE_CAP}) < PROBE_CAP',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "python bench/search.py --terms 'a,tv,shirt,trail shoe' --runs 20 | tail -4",
                    "a                 3311870  popularity   3 ms     6 ms\ntv                402113   popularity   5 ms     9 ms\nshirt             181204   popularity   9 ms     14 ms\ntrail shoe        1672     trgm         41 ms    58 ms",
                )
            ]
        ),
        A(
            "Both paths are fast now. Running the 200 real queries from yesterday's log.",
            tools=[
                sh(
                    "python bench/search.py --from-log logs/search-2026-11-29.jsonl --sample 200 --runs 3 | tail -4",
                    "queries: 200 (trgm path 131, popularity path 69)\np50: 34 ms\np95: 96 ms\np99: 188 ms",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "python bench/search.py --from-log logs/search-2026-11-29.jsonl --sample 200 --compare-results origin/main | tail -2",
                    "identical result pages: 200/200\ndifferences: 0",
                )
            ]
        ),
    ]
    for term, rows, ms in TERMS:
        s.append(
            A(
                tools=[
                    sh(
                        f"python bench/search.py --terms '{term}' --runs 50 --concurrency 16 | tail -1",
                        f"{term:<17} {rows:<8} {'trgm' if rows < 5000 else 'popularity':<12} {ms} ms    {ms * 2 - 5} ms",
                    )
                ]
            )
        )
        if term == "shirt":
            s.append(H("ok"))
            # ^ NOT a pivot: an ack during a loop of identical load runs.
    s += [
        A(
            tools=[
                wr(
                    "tests/search/test_paths.py",
                    "def test_rare_term_uses_trigram_path(db, products_factory):\n    products_factory(n=6000, name='plain tee')\n    products_factory(n=3, name='trail shoe x')\n"
                    "    assert search_path(db, 'trail shoe') == 'trgm'\n\n\ndef test_common_and_short_terms_use_popularity(db, products_factory):\n"
                    "    products_factory(n=6000, name='plain tee')\n    assert search_path(db, 'tee') == 'popularity'\n    assert search_path(db, 'te') == 'popularity'\n\n\n"
                    "def test_both_paths_return_the_same_page(db, products_factory):\n    products_factory(n=6000, name='plain tee')\n"
                    "    assert _search_by_trgm(db, 'tee', 0) == _search_by_popularity(db, 'tee', 0)\n",
                )
            ]
        ),
        A(
            "Checking the write cost: GIN indexes slow down the stock updates that run on every order.",
            tools=[
                sh(
                    "pgbench \"$STAGING_URL\" -n -f bench/stock_update.sql -c 16 -T 60 | rg 'latency average|tps'",
                    "latency average = 2.911 ms\ntps = 5496.120844 (without initial connection time)",
                    ms=61000,
                )
            ],
        ),
        A(
            "Stock updates don't touch `name`/`brand`, so they stay HOT updates and the GIN indexes aren't written: 2.9 ms average, same as yesterday's 2.8 ms baseline.",
            tools=[
                sh(
                    'psql "$STAGING_URL" -Atc "select n_tup_upd, n_tup_hot_upd from pg_stat_user_tables where relname = \'products\'"',
                    "331204|329877",
                )
            ],
        ),
        A(tools=[sh("pytest -q tests/search 2>&1 | tail -1", "41 passed in 6.22s")]),
        A(
            tools=[
                sh(
                    "python bench/search.py --from-log logs/search-2026-11-29.jsonl --sample 2000 --runs 1 --concurrency 32 | tail -3",
                    "queries: 2000\np95: 112 ms\np99: 241 ms",
                    ms=204000,
                )
            ]
        ),
        Interrupt(),
        H(
            "run it against the replay traffic, not the sampled log — that's what the SLO is measured on"
        ),
        # ^ NOT silent: an interrupt with a correction.
        A(
            tools=[
                sh(
                    "curl -s 'http://grafana.internal/api/ds/query' -d @dash/search_p95_staging.json | jq -r '.results.A.frames[0].data.values[1][-6:] | map(. * 1000 | floor) | join(\" \")'",
                    "2288 2301 2297 104 98 101",
                )
            ]
        ),
        A(
            "On the replay traffic, p95 went from ~2.3 s to ~100 ms as soon as the code was deployed to staging (last three 5-minute buckets: 104, 98, 101 ms).",
            tools=[
                todo(
                    [
                        ("Trigram GIN indexes on name, brand", "completed"),
                        ("Candidate count probe (capped at 5,000)", "completed"),
                        (
                            "Two query paths: few → trigram + sort, many → popularity walk",
                            "completed",
                        ),
                        ("Benchmark 200 logged queries, p95", "completed"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "ruff check app/search && mypy app/search",
                    "All checks passed!\nSuccess: no issues found in 4 source files",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -Atc "select indexrelid::regclass, pg_size_pretty(pg_relation_size(indexrelid)) from pg_index where indrelid = \'products\'::regclass"',
                    "products_pkey|86 MB\nproducts_popularity_idx|86 MB\nproducts_sku_key|121 MB\nproducts_name_trgm|1214 MB\nproducts_brand_trgm|702 MB",
                )
            ]
        ),
        A(
            "Summary:\n\n| | before | after |\n|---|---|---|\n| /search p95 (staging replay) | 2.30 s | 0.10 s |\n| p99 (2,000 logged queries) | — | 241 ms |\n"
            "| result pages identical (200 queries) | — | 200/200 |\n| new indexes | — | 2 GIN trigram, 1.9 GB |\n\n"
            "Staging's disk was 98 % full because of WAL archives; I deleted archives older than 2 days there."
        ),
        H("👍"),
        # ^ NOT a pivot: after this the agent only asks whether to prepare the production migration.
        A(
            "Should I prepare the production rollout (the migration runs CONCURRENTLY, ~18 min on prod size), or leave it for the DBA review?"
        ),
        H("leave it for the DBA, write them a note in the PR"),
        # ^ NOT silent.
        A(
            tools=[
                sh(
                    "git checkout -qb perf/search-trgm && git add app/search migrations/0087_trgm_indexes.sql bench/search.py && git commit -qm 'search: trigram indexes and a two-path query for rare vs common terms' && gh pr create --fill --body-file /tmp/pr-dba-note.md",
                    "https://github.com/shopfront/shopfront-api/pull/3310",
                )
            ]
        ),
        A(
            "PR #3310 with a note for the DBA: index sizes (1.9 GB), build time on staging (18 min CONCURRENTLY), and the disk-space check to do first."
        ),
        H("."),
        # ^ NOT a pivot: the last message of the session; nothing comes after it.
    ]
    return s


SCENARIOS = [
    Scenario(
        name="heldout-search-query-tuning",
        title="Slow catalogue search at 4M products",
        cwd=CWD,
        steps=steps(),
        model="claude-opus-4-8",
        start="2026-11-30T08:20:00Z",
        seconds_per_step=40,
        notes="pivot: delegation_after_dead_end anchored at an automatic compaction (no human silence)",
    )
]
