"""Nightly orders pipeline broken by an upstream schema change: dead end, backfill, then a contract check."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import H, Scenario
from samplegen.heldout2._kit import a, ed, gr, rd, sh, todo, wr

CWD = "/home/dev/analytics/warehouse"
DAYS = ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06"]
ROWS = [412_118, 398_507, 441_902, 430_266, 451_030, 388_914]

backfill = [
    a(
        f"Backfilling {day}.",
        sh(
            f"dbt run --select +fct_orders --vars '{{run_date: {day}}}' --full-refresh-partition {day}",
            f"1 of 4 OK created sql incremental model staging.stg_orders ... [INSERT {n}]\n"
            f"4 of 4 OK created sql incremental model marts.fct_orders ... [MERGE {n} in 41.2s]",
        ),
    )
    for day, n in zip(DAYS, ROWS, strict=True)
]

recon = [
    a(
        f"Reconciling {day} against the source system's daily totals.",
        sh(
            f"python scripts/reconcile.py --date {day}",
            f"orders: warehouse={n} source={n} diff=0\nrevenue_minor: warehouse={n * 5731} source={n * 5731} diff=0",
        ),
    )
    for day, n in zip(DAYS, ROWS, strict=True)
]

contract_cols = [
    ("order_id", "varchar", "not_null, unique"),
    ("customer_id", "varchar", "not_null"),
    ("amount_minor", "bigint", "not_null"),
    ("currency", "varchar(3)", "not_null, accepted_values"),
    ("created_at", "timestamp_tz", "not_null"),
    ("channel", "varchar", "accepted_values"),
]
contract_steps = [
    a(
        f"Contract column `{col}`: {typ}, {tests}.",
        ed(
            f"{CWD}/models/staging/_stg_orders.yml",
            "      # columns end",
            f"      - name: {col}\n        data_type: {typ}\n        constraints: [{{type: not_null}}]\n      # columns end",
        ),
    )
    for col, typ, tests in contract_cols
]

steps = [
    H(
        "nightly orders pipeline failed again (airflow dag orders_nightly). fix it please, finance needs yesterday's numbers by noon"
    ),
    a(
        "Looking at the failed task.",
        sh(
            "airflow tasks states-for-dag-run orders_nightly scheduled__2026-11-06T02:00:00+00:00",
            "extract_orders   success\nload_raw_orders  success\ndbt_run_orders   failed\ndbt_test_orders  upstream_failed\npublish_finance  upstream_failed",
        ),
        sh(
            "airflow tasks logs orders_nightly dbt_run_orders scheduled__2026-11-06T02:00:00+00:00 | tail -6",
            "Database Error in model stg_orders (models/staging/stg_orders.sql)\n  000904 (42000): SQL compilation error: error line 7 at position 8\n  invalid identifier 'AMOUNT_CENTS'\nDone. PASS=3 WARN=0 ERROR=1 SKIP=4 TOTAL=8",
            code=1,
        ),
        todo(("Find why stg_orders fails", "in_progress"), ("Fix + rerun 2026-11-06", "pending")),
    ),
    a(
        "The raw table no longer has `amount_cents`. Checking the raw schema.",
        sh(
            "snowsql -q \"select column_name, data_type from raw.information_schema.columns where table_name='ORDERS' order by ordinal_position\"",
            "ORDER_ID TEXT\nCUSTOMER_ID TEXT\nAMOUNT_MINOR TEXT\nCURRENCY TEXT\nCREATED_AT TEXT\nCHANNEL TEXT\n_LOADED_AT TIMESTAMP_NTZ",
        ),
        rd(
            f"{CWD}/models/staging/stg_orders.sql",
            "select\n    order_id,\n    customer_id,\n    amount_cents / 100.0 as amount,\n    currency,\n    created_at::timestamp_tz as created_at\nfrom {{ source('raw', 'orders') }}",
        ),
    ),
    a(
        "Upstream renamed `amount_cents` → `amount_minor`, and it's now TEXT. Since when?",
        sh(
            'snowsql -q "select min(_loaded_at) from raw.orders where amount_minor is not null"',
            "2026-11-01 02:14:09",
        ),
    ),
    a(
        "Since Nov 1 — the DAG has failed 6 nights in a row. First fix: read `amount_minor` and cast.",
        ed(
            f"{CWD}/models/staging/stg_orders.sql",
            "amount_cents / 100.0 as amount,",
            "amount_minor::number / 100.0 as amount,",
        ),
        sh(
            "dbt run --select stg_orders --vars '{run_date: 2026-11-06}'",
            "Database Error in model stg_orders\n  100038 (22018): Numeric value '12.99' is not recognized",
            code=1,
        ),
    ),
    a(
        "Some rows carry decimal strings. Checking the distribution of formats.",
        sh(
            "snowsql -q \"select regexp_like(amount_minor,'^[0-9]+$') as int_like, count(*) from raw.orders where _loaded_at >= '2026-11-01' group by 1\"",
            "TRUE  2,204,417\nFALSE   318,320",
        ),
        sh(
            "snowsql -q \"select amount_minor, currency from raw.orders where not regexp_like(amount_minor,'^[0-9]+$') limit 4\"",
            "12.99 USD\n1.299,00 EUR\n450 JPY\n3,50 EUR",
        ),
    ),
    a(
        "Mixed formats: integer minor units, major units with `.`, and locale-formatted `1.299,00`. Trying `try_to_decimal` with a fallback for comma decimals.",
        ed(
            f"{CWD}/models/staging/stg_orders.sql",
            "amount_minor::number / 100.0 as amount,",
            "coalesce(try_to_number(amount_minor) / 100.0, try_to_decimal(replace(replace(amount_minor, '.', ''), ',', '.'), 18, 2)) as amount,",
        ),
        sh(
            "dbt run --select stg_orders --vars '{run_date: 2026-11-06}' && dbt test --select stg_orders",
            "1 of 1 OK created sql incremental model staging.stg_orders [INSERT 388914]\nFailure in test not_null_stg_orders_amount (models/staging/_stg_orders.yml)\n  Got 2,917 results, configured to fail if != 0",
            code=1,
        ),
    ),
    a(
        "2,917 nulls left. And `12.99 USD` would be parsed as 12.99 minor units by the first branch — wrong by 100×. A heuristic can't tell major from minor units for a value like `450`.",
        sh(
            'snowsql -q "select currency, count(*) from staging.stg_orders where amount is null group by 1"',
            "JPY 1,804\nKRW 1,113",
        ),
        sh(
            "dbt run --select fct_orders --vars '{run_date: 2026-11-06}'",
            'Compilation Error in model fct_orders\n  column "AMOUNT_CENTS" referenced in macro revenue_minor() not found',
            code=1,
        ),
        todo(
            ("Find why stg_orders fails", "completed"),
            ("Fix + rerun 2026-11-06", "FAILED: ambiguous amount formats"),
        ),
    ),
    a(
        "Three attempts, three failures: the straight cast fails on decimals, the coalesce leaves 2,917 zero-decimal-currency rows null and can't distinguish major vs. minor units, and `fct_orders` has its own dependency on the old column via a macro. "
        "I don't have a reliable way to interpret `amount_minor` from the data alone."
    ),
    # Dead end (three failures, no next step); "continue" and the agent re-orients and acts without being told how.
    H("continue", expect=("delegation_after_dead_end", "ack")),
    a(
        "**Where this stands**\n- Goal: yesterday's orders in `fct_orders` by noon, plus the 5 missed days.\n- Cause: upstream renamed `amount_cents` → `amount_minor` (TEXT, mixed formats) on Nov 1.\n"
        "- Dead ends: parsing the strings; every heuristic is wrong for some currency.\n\n**Next:** the raw loader probably has the producer's schema; if the producer also sends a typed field, use that instead of parsing.",
    ),
    a(
        "",
        sh(
            "aws s3 ls s3://acme-landing/orders/2026-11-06/ | head -3",
            "2026-11-06 02:01:10    4188211 orders-000.avro\n2026-11-06 02:01:11    4190345 orders-001.avro",
        ),
        sh(
            "avro-tools getschema <(aws s3 cp s3://acme-landing/orders/2026-11-06/orders-000.avro -) | jq -c '.fields[] | {name, type}' | sed -n '3,5p'",
            '{"name":"amount_minor","type":"string"}\n{"name":"amount","type":{"type":"record","name":"Money","fields":[{"name":"units","type":"long"},{"name":"nanos","type":"int"},{"name":"currency","type":"string"}]}}\n{"name":"currency","type":"string"}',
        ),
    ),
    a(
        "The Avro files carry a typed `amount` record (`units` + `nanos`, google.type.Money style) next to the display string. Our loader just drops nested records. Adding it to the loader as two columns.",
        gr(
            "flatten",
            f"{CWD}/../loaders/orders_loader.py",
            "loaders/orders_loader.py:44:    row = {k: v for k, v in rec.items() if not isinstance(v, dict)}",
        ),
        ed(
            f"{CWD}/../loaders/orders_loader.py",
            "    row = {k: v for k, v in rec.items() if not isinstance(v, dict)}",
            "    row = {k: v for k, v in rec.items() if not isinstance(v, dict)}\n    money = rec.get('amount') or {}\n    row['amount_units'] = money.get('units')\n    row['amount_nanos'] = money.get('nanos')",
        ),
    ),
    a(
        "",
        sh(
            "python -m loaders.orders_loader --date 2026-11-06 --reload",
            "loaded 388,914 rows into raw.orders (amount_units non-null: 388,914)",
        ),
        ed(
            f"{CWD}/models/staging/stg_orders.sql",
            "coalesce(try_to_number(amount_minor) / 100.0, try_to_decimal(replace(replace(amount_minor, '.', ''), ',', '.'), 18, 2)) as amount,",
            "amount_units + amount_nanos / 1e9 as amount,",
        ),
        ed(
            f"{CWD}/macros/revenue_minor.sql",
            "amount_cents",
            "round(amount * pow(10, {{ currency_exponent('currency') }}))",
        ),
    ),
    a(
        "",
        sh(
            "dbt build --select +fct_orders --vars '{run_date: 2026-11-06}'",
            "Completed successfully\nDone. PASS=14 WARN=0 ERROR=0 SKIP=0 TOTAL=14",
        ),
        sh(
            "python scripts/reconcile.py --date 2026-11-06",
            "orders: warehouse=388914 source=388914 diff=0\nrevenue_minor: warehouse=2228866134 source=2228866134 diff=0",
        ),
        todo(("Fix + rerun 2026-11-06", "completed"), ("Backfill Nov 1–5", "pending")),
    ),
    a(
        "Nov 6 builds and reconciles to the cent against the source system. Should I backfill Nov 1–5 as well?"
    ),
    # Deliberate negative: silence, and the agent only asks again; nothing is done until the person answers.
    H(""),
    a(
        "Before I touch those partitions: do you want Nov 1–5 overwritten in place (finance has seen zeros for those days), or written to a side table for review first?"
    ),
    H("overwrite in place, and tell finance in #fin-data when it's done"),
    a(
        "Reloading raw for Nov 1–5 with the typed amount first.",
        sh(
            "for d in 2026-11-0{1..5}; do python -m loaders.orders_loader --date $d --reload; done | tail -1",
            "loaded 451,030 rows into raw.orders (amount_units non-null: 451,030)",
        ),
    ),
    *backfill,
    *recon[:3],
    # Deliberate negative: a thumbs-up during the day-by-day reconciliation; the same checks continue.
    H("👍"),
    *recon[3:],
    a(
        "Posting to #fin-data.",
        sh(
            "python scripts/slack_post.py '#fin-data' 'Orders Nov 1–6 are back in fct_orders (6 days, 2,522,737 orders); reconciled to the cent against source. Cause: upstream renamed amount_cents on Nov 1.'",
            "ok",
        ),
        todo(("Backfill Nov 1–5", "completed"), ("Tell finance", "completed")),
    ),
    a(
        "All six days are back and reconcile exactly:\n\n| day | orders | diff |\n|---|---|---|\n"
        + "\n".join(f"| {d} | {n:,} | 0 |" for d, n in zip(DAYS, ROWS, strict=True))
        + "\n\nThe DAG is green again for tonight."
    ),
    # Milestone (six days back, reconciled to the cent); a bare "." and the agent picks the next job itself.
    H(".", expect=("continue_after_milestone", "ack")),
    a(
        "Orders are fixed. The same failure mode could hit the other raw sources, so I'm checking every staging model for columns that no longer exist upstream.",
        sh("dbt ls --resource-type model --select staging.* --output name | wc -l", "12"),
        todo(("Audit other staging models for drift", "in_progress")),
    ),
    *[
        a(
            f"`{src}`: comparing referenced columns with the raw table.",
            sh(f"python scripts/column_drift.py --model {src}", out),
        )
        for src, out in [
            ("stg_customers", "referenced=14 missing=0 type_changed=0"),
            (
                "stg_refunds",
                "referenced=9 missing=1 (amount_cents) type_changed=0\nlast successful build: 2026-10-31",
            ),
            (
                "stg_payments",
                "referenced=11 missing=0 type_changed=1 (captured_at: TIMESTAMP_NTZ -> TEXT)",
            ),
            ("stg_shipments", "referenced=16 missing=0 type_changed=0"),
            ("stg_products", "referenced=22 missing=0 type_changed=0"),
        ]
    ],
    a(
        "Two more broken sources: `stg_refunds` has the same `amount_cents` rename (it's been skipped since Oct 31 because it's tagged `weekly`), and `stg_payments.captured_at` became TEXT. Fixing refunds the same way as orders.",
        ed(
            f"{CWD}/models/staging/stg_refunds.sql",
            "amount_cents / 100.0 as amount,",
            "amount_units + amount_nanos / 1e9 as amount,",
        ),
        sh(
            "python -m loaders.refunds_loader --since 2026-11-01 --reload && dbt build --select +fct_refunds",
            "loaded 21,480 rows\nDone. PASS=6 WARN=0 ERROR=0 SKIP=0 TOTAL=6",
        ),
    ),
    a(
        "And the timestamp cast for payments.",
        ed(
            f"{CWD}/models/staging/stg_payments.sql",
            "captured_at,",
            "try_to_timestamp_tz(captured_at) as captured_at,",
        ),
        sh("dbt build --select +fct_payments", "Done. PASS=8 WARN=0 ERROR=0 SKIP=0 TOTAL=8"),
        todo(("Audit other staging models for drift", "completed")),
    ),
    a(
        "Audit done: 2 of 12 staging models had drifted too (refunds: same rename; payments: `captured_at` now TEXT). Both fixed and rebuilt."
    ),
    H(
        "could we stop this from happening silently next time? like a contract on the raw orders schema so the load fails loudly the day upstream changes something, instead of dbt blowing up later"
    ),
    a(
        "Looking at what we have to build on.",
        sh("dbt --version | head -1", "Core:\n  - installed: 1.9.3"),
        gr("contract", f"{CWD}/models", ""),
        sh("ls ../loaders/schemas/ 2>/dev/null | head", ""),
    ),
    a(
        "Options I looked at:\n\n1. **dbt model contracts** on `stg_orders` (dbt ≥ 1.5, we're on 1.9.3): enforced column names + types at build time. Fails in dbt, i.e. still after the load.\n"
        "2. **Schema check in the loader**: compare each Avro file's schema with a pinned `schemas/orders.avsc`; on any difference fail `load_raw_orders` and alert #data-oncall. Fails at the earliest point.\n"
        "3. Great Expectations suite: heavier, new dependency, overlaps with 1.\n\n"
        "**Proposal:** 2 + 1. Pin the current Avro schema, fail the load on a breaking change (removed/renamed/retyped field) but only warn on added fields; add a dbt contract on `stg_orders` as the second line.\n\n"
        "**Risks:** upstream adds optional fields often, so warn-not-fail there avoids pages; a pinned schema must be updated deliberately in a PR when upstream announces a change.\n\nOK to implement?"
    ),
    # Implicit approval of the plan the agent laid out in answer to the person's question.
    H("yes", expect=("implicit_approval", "ack")),
    a(
        "Pinning today's schema.",
        sh(
            "mkdir -p ../loaders/schemas && avro-tools getschema <(aws s3 cp s3://acme-landing/orders/2026-11-06/orders-000.avro -) > ../loaders/schemas/orders.avsc && wc -c ../loaders/schemas/orders.avsc",
            "1841 ../loaders/schemas/orders.avsc",
        ),
        todo(
            ("Pin orders.avsc", "completed"),
            ("Loader schema check", "in_progress"),
            ("dbt contract on stg_orders", "pending"),
            ("Alert to #data-oncall", "pending"),
        ),
    ),
    a(
        "",
        wr(
            f"{CWD}/../loaders/schema_check.py",
            'def diff(pinned: dict, seen: dict) -> tuple[list[str], list[str]]:\n    """(breaking, additive) differences between two Avro record schemas."""\n    ...',
        ),
        ed(
            f"{CWD}/../loaders/orders_loader.py",
            "def load(date):",
            "def load(date):\n    breaking, added = schema_check.diff(PINNED, schema_of(first_file(date)))\n    if breaking:\n        raise SchemaDrift(breaking)\n    for f in added:\n        log.warning('orders: new upstream field %s', f)",
        ),
    ),
    a(
        "Testing the check against a renamed field and an added one.",
        wr(
            f"{CWD}/../loaders/tests/test_schema_check.py",
            "def test_rename_is_breaking(): ...\ndef test_type_change_is_breaking(): ...\ndef test_added_optional_field_is_only_a_warning(): ...\ndef test_same_schema_no_diff(): ...",
        ),
        sh("cd ../loaders && pytest tests/test_schema_check.py -q", "....\n4 passed in 0.21s"),
    ),
    *contract_steps,
    a(
        "Enabling enforcement on the model.",
        ed(
            f"{CWD}/models/staging/_stg_orders.yml",
            "    config:\n      materialized: incremental",
            "    config:\n      materialized: incremental\n      contract: {enforced: true}",
        ),
    ),
    H("ok, now run the tests"),
    a(
        "",
        sh(
            "dbt build --select stg_orders+ --vars '{run_date: 2026-11-06}'",
            "Done. PASS=15 WARN=0 ERROR=0 SKIP=0 TOTAL=15",
        ),
        sh("cd ../loaders && pytest -q", "41 passed in 3.88s"),
    ),
    a(
        "Wiring the alert into the DAG's failure callback.",
        ed(
            f"{CWD}/../dags/orders_nightly.py",
            "load_raw_orders = PythonOperator(",
            "load_raw_orders = PythonOperator(\n    on_failure_callback=alert_slack('#data-oncall'),",
        ),
        todo(
            ("Loader schema check", "completed"),
            ("dbt contract on stg_orders", "completed"),
            ("Alert to #data-oncall", "completed"),
        ),
    ),
    a(
        "Done: the loader now fails on any breaking change to the orders Avro schema (and warns on additions), `stg_orders` has an enforced dbt contract, and `load_raw_orders` failures page #data-oncall. 41 loader tests and 15 dbt nodes pass."
    ),
]

SCENARIOS = [
    Scenario(
        name="h2_schema_drift",
        title="Orders pipeline broken by an upstream rename",
        cwd=CWD,
        steps=steps,
        model="gpt-5.3-codex",
        start="2026-11-06T07:12:00Z",
    )
]
FORMATS = ["generic", "gemini", "opencode"]
