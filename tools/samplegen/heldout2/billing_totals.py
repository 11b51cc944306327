"""A monthly billing report whose totals disagree with the ledger: two causes, a delegated choice, a fix."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import H, Scenario
from samplegen.heldout2._kit import a, ed, gr, rd, sh, todo, wr

CWD = "/home/dev/fin/billing-reports"

MONTHS = [
    ("2026-06", "912,004.18", "912,004.18"),
    ("2026-07", "948,310.42", "948,311.07"),
    ("2026-08", "1,002,118.90", "1,003,402.66"),
    ("2026-09", "1,110,245.03", "1,110,245.88"),
    ("2026-10", "1,283,092.75", "1,284,377.12"),
]
month_diffs = [
    a(
        f"{m}: report vs. ledger.",
        sh(
            f"python -m reports.monthly --month {m} --compare-ledger",
            f"report_total={r}\nledger_total={led}",
        ),
    )
    for m, r, led in MONTHS
]

customers = [
    a(
        f"Per-customer drill-down for {cid} (October).",
        sh(
            f"python -m reports.monthly --month 2026-10 --customer {cid} --compare-ledger",
            f"invoices={n} report={rep} ledger={led}",
        ),
    )
    for cid, n, rep, led in [
        ("acct_00412", 31, "48,211.09", "48,211.40"),
        ("acct_01877", 212, "121,930.55", "121,933.12"),
        ("acct_02210", 8, "9,118.00", "9,118.00"),
        ("acct_03391", 1044, "302,115.77", "303,361.50"),
    ]
]

verify = [
    a(
        f"Re-running {m} with both fixes.",
        sh(
            f"python -m reports.monthly --month {m} --compare-ledger",
            f"report_total={led}\nledger_total={led}\ndiff=0.00",
        ),
    )
    for m, _, led in MONTHS
]

regress_tests = [
    ("test_line_rounding_half_even_matches_ledger", "a 3-line invoice at 1/3 unit prices"),
    ("test_month_boundary_uses_account_timezone", "an invoice issued 2026-10-31T23:30-05:00"),
    ("test_credit_notes_negative", "a credit note crossing the month boundary"),
    ("test_multi_currency_converted_at_issue_date", "EUR invoice on a rate-change day"),
]
test_steps = [
    a(
        f"Regression test: {desc}.",
        ed(
            f"{CWD}/tests/test_monthly.py",
            "# regression tests",
            f"def {name}(ledger_fixture):\n    ...\n\n# regression tests",
        ),
        sh(f"pytest tests/test_monthly.py -q -k {name}", "1 passed in 0.4s"),
    )
    for name, desc in regress_tests
]

day_checks = [
    a(
        f"Invoices for acct_03391 issued on {d} (UTC vs. America/Chicago).",
        sh(
            f"psql $BILLING_DB -c \"select count(*) filter (where issued_at::date = '{d}') as utc_day, count(*) filter (where (issued_at at time zone 'America/Chicago')::date = '{d}') as local_day from invoices where account_id='acct_03391'\"",
            f" utc_day | local_day\n---------+-----------\n      {u} |        {lo}",
        ),
    )
    for d, u, lo in [
        ("2026-10-28", 34, 34),
        ("2026-10-29", 33, 33),
        ("2026-10-30", 35, 35),
        ("2026-10-31", 1, 36),
        ("2026-11-01", 35, 0),
    ]
]
rounding = [
    a(
        f"Rounding check on invoice line {line}.",
        sh(
            f"python -c \"from decimal import *; q,p={q},'{p}'; print(round(q*float(p),2), (Decimal(q)*Decimal(p)).quantize(Decimal('0.01'), ROUND_HALF_EVEN))\"",
            f"{fl} {dec}",
        ),
    )
    for line, q, p, fl, dec in [
        ("il_88120", 3, "0.335", "1.0", "1.00"),
        ("il_90412", 7, "2.145", "15.01", "15.02"),
        ("il_91003", 1, "19.995", "19.99", "20.00"),
    ]
]
dashboards = [
    a(
        f"Metabase card `{card}` after the switch.",
        sh(
            f"python scripts/metabase_card.py --id {cid} --month 2026-10",
            f"{card}: {val} (ledger {val})",
        ),
    )
    for card, cid, val in [
        ("Revenue by month", 41, "1,284,377.12"),
        ("Revenue by plan", 44, "1,284,377.12"),
        ("Top accounts", 52, "303,361.50 (acct_03391)"),
        ("Refund ratio", 57, "1.92%"),
    ]
]


steps = [
    H(
        "finance says the october billing report is off vs the ledger by $1,284.37. can you find out why? report code is reports/monthly.py"
    ),
    a(
        "Reproducing first.",
        sh(
            "python -m reports.monthly --month 2026-10 --compare-ledger",
            "report_total=1,283,092.75\nledger_total=1,284,377.12\ndiff=-1,284.37",
        ),
        todo(
            ("Reproduce the October diff", "completed"),
            ("Check other months", "in_progress"),
            ("Find cause(s)", "pending"),
        ),
    ),
    *month_diffs,
    a(
        "June matches; July–October are off by varying amounts (0.65, 1,283.76, 0.85, 1,284.37). Two sizes of error: cents and ~$1.3k. Likely two different causes.",
        rd(
            f"{CWD}/reports/monthly.py",
            "def total_for(month):\n    rows = db.fetch(SQL, start=month.start_utc, end=month.end_utc)\n    return sum(round(r.qty * r.unit_price, 2) for r in rows)",
        ),
    ),
    a(
        "",
        gr(
            "round\\(",
            f"{CWD}/../ledger/ledger/posting.py",
            "ledger/posting.py:58:    amount = (qty * unit_price).quantize(CENT, rounding=ROUND_HALF_EVEN)",
        ),
        gr(
            "month.start_utc|end_utc",
            f"{CWD}/reports",
            "reports/period.py:12:    start_utc = datetime(y, m, 1, tzinfo=UTC)\nreports/period.py:13:    end_utc = start_utc + relativedelta(months=1)",
        ),
    ),
    *customers,
    *day_checks,
    *rounding,
    a(
        "Found both.\n\n1. **Rounding (the cents):** the report rounds each line with Python's float `round()` on float products; the ledger uses `Decimal` with ROUND_HALF_EVEN. Float error flips some half-cent lines.\n"
        "2. **Month boundary (the ~$1.3k):** the report cuts months at UTC midnight; the ledger books by the account's timezone. acct_03391 (America/Chicago, 1,044 invoices) issues a daily batch at 23:30 local, which lands in the next UTC day — on Oct 31 that's November for the report.\n\n"
        "I can fix the boundary either in the **report** (cut by account timezone, like the ledger) or in the **invoice generator** (issue the batch before 23:00 local). Which would you prefer?",
        todo(("Check other months", "completed"), ("Find cause(s)", "completed")),
    ),
    # `other`: not a dead end, not a milestone, not the person's proposal; the agent asked an open
    # either/or question and the silence leaves the choice to it. It decides and acts.
    H("", expect=("other", "empty")),
    a(
        "I'll fix it in the report: the ledger is the system of record and already books by account timezone, so the report should follow it; moving the invoice batch would change what customers see. Starting with the rounding.",
        ed(
            f"{CWD}/reports/monthly.py",
            "    return sum(round(r.qty * r.unit_price, 2) for r in rows)",
            "    return sum(\n        (Decimal(r.qty) * Decimal(r.unit_price)).quantize(CENT, rounding=ROUND_HALF_EVEN) for r in rows\n    )",
        ),
        ed(
            f"{CWD}/reports/monthly.py",
            'SQL = "select qty, unit_price',
            'SQL = "select qty::text as qty, unit_price::text as unit_price',
        ),
        todo(
            ("Decimal half-even rounding", "in_progress"),
            ("Month boundary by account timezone", "pending"),
        ),
    ),
    a(
        "",
        sh(
            "python -m reports.monthly --month 2026-07 --compare-ledger",
            "report_total=948,311.07\nledger_total=948,311.07\ndiff=0.00",
        ),
        sh(
            "python -m reports.monthly --month 2026-10 --compare-ledger",
            "report_total=1,283,093.39\nledger_total=1,284,377.12\ndiff=-1,283.73",
        ),
    ),
    a(
        "Rounding fixed (July now exact). Now the boundary: filter per account using the account's timezone.",
        ed(
            f"{CWD}/reports/period.py",
            "    start_utc = datetime(y, m, 1, tzinfo=UTC)\n    end_utc = start_utc + relativedelta(months=1)",
            "    # bounds are applied per account in SQL: (issued_at at time zone a.tz) within the local month\n    start_local = date(y, m, 1)\n    end_local = start_local + relativedelta(months=1)",
        ),
        ed(
            f"{CWD}/reports/monthly.py",
            "where i.issued_at >= %(start)s and i.issued_at < %(end)s",
            "where (i.issued_at at time zone a.tz)::date >= %(start)s and (i.issued_at at time zone a.tz)::date < %(end)s",
        ),
        todo(
            ("Decimal half-even rounding", "completed"),
            ("Month boundary by account timezone", "in_progress"),
        ),
    ),
    *verify[:3],
    # Deliberate negative: a thumbs-up in the middle of the month-by-month re-run; same work continues.
    H("👍"),
    *verify[3:],
    a(
        "Every month since June now matches the ledger to the cent:\n\n| month | report (before) | ledger | diff now |\n|---|---|---|---|\n"
        + "\n".join(f"| {m} | {r} | {led} | 0.00 |" for m, r, led in MONTHS)
        + "\n\nOctober's $1,284.37 was $0.64 of rounding and $1,283.73 of Oct 31 late-evening invoices counted in November.",
        todo(("Month boundary by account timezone", "completed")),
    ),
    # Milestone: the numbers reconcile everywhere; "go on" and the agent starts guarding it on its own.
    H("go on", expect=("continue_after_milestone", "ack")),
    a(
        "Reconciled. Next I'll make sure it stays that way: regression tests for both causes plus a couple of neighbours (credit notes, FX), then a nightly reconciliation check.",
        todo(("Regression tests", "in_progress"), ("Nightly report-vs-ledger check", "pending")),
    ),
    *test_steps,
    a(
        "",
        sh("pytest -q", "87 passed in 6.12s"),
        wr(
            f"{CWD}/jobs/reconcile_nightly.py",
            '"""Compare month-to-date report totals with the ledger; alert #fin-data if they differ by a cent."""\n...',
        ),
    ),
    a(
        "Adding it to the scheduler.",
        ed(
            f"{CWD}/deploy/cron.yaml",
            "jobs:",
            'jobs:\n  - name: billing-reconcile\n    schedule: "15 6 * * *"\n    command: python -m jobs.reconcile_nightly',
        ),
        todo(("Regression tests", "completed"), ("Nightly report-vs-ledger check", "completed")),
    ),
    a(
        "Tests (87) pass and the nightly reconciliation job is scheduled. Finance will want the restated reports; I can regenerate the PDFs for July–October."
    ),
    H("continue but skip june, that one was already right and finance signed it off"),
    *[
        a(
            f"Regenerating the {m} report PDF.",
            sh(
                f"python -m reports.monthly --month {m} --pdf out/billing-{m}-restated.pdf",
                f"wrote out/billing-{m}-restated.pdf (total {led})",
            ),
        )
        for m, _, led in MONTHS[1:]
    ],
    a("Restated July–October PDFs are in `out/` (June untouched)."),
    H(
        "should we also switch the report table to store integer cents instead of numeric? someone mentioned floats in the BI layer"
    ),
    a(
        "Checking how the report table is defined and who reads it.",
        sh(
            "psql $REPORTS_DB -c '\\d report_lines' | sed -n '1,8p'",
            '            Table "public.report_lines"\n   Column    |       Type       \n-------------+------------------\n invoice_id  | text\n amount      | double precision\n currency    | character(3)\n issued_at   | timestamptz',
        ),
        sh(
            "psql $REPORTS_DB -c \"select usename, count(*) from pg_stat_statements s join pg_user u on u.usesysid=s.userid where query ilike '%report_lines%' group by 1\"",
            " usename  | count\n----------+-------\n metabase |   214\n reports  |    12\n finance_export | 3",
        ),
    ),
    a(
        "",
        gr(
            "report_lines",
            f"{CWD}/..",
            "billing-reports/reports/store.py:21\nbi/metabase/models/billing.yml:4\nfinance-export/export.py:33",
        ),
        rd(
            f"{CWD}/../finance-export/export.py",
            "    for r in cur.execute('select amount from report_lines ...'):\n        out.write(f'{r.amount:.2f}')",
        ),
    ),
    a(
        "The column is `double precision`, so yes, BI sees floats.\n\n**Plan**\n1. Add `amount_minor bigint` (+ currency exponent) to `report_lines`, backfill from Decimal totals, write both for one release.\n"
        "2. Switch the Metabase model and finance-export to `amount_minor / 10^exp`.\n3. Drop `amount` in the following release.\n\n"
        "**Risks:** three readers (Metabase 214 queries, reports, finance_export); a missed reader would break when the column is dropped, hence the two-release split. JPY has exponent 0.\n\nProceed?"
    ),
    # Implicit approval: the person's question, researched, with a staged plan and risks on the table.
    H("yep, go ahead", expect=("implicit_approval", "ack")),
    a(
        "Migration step 1.",
        wr(
            f"{CWD}/migrations/0031_amount_minor.sql",
            "alter table report_lines add column amount_minor bigint, add column currency_exponent smallint;\nupdate report_lines set currency_exponent = case currency when 'JPY' then 0 when 'KRW' then 0 else 2 end;",
        ),
        sh("psql $REPORTS_DB -f migrations/0031_amount_minor.sql", "ALTER TABLE\nUPDATE 4817220"),
        todo(
            ("amount_minor column + backfill", "in_progress"),
            ("Dual write", "pending"),
            ("Switch readers", "pending"),
        ),
    ),
    a(
        "",
        sh(
            "python -m reports.backfill_minor --batch 50000",
            "backfilled 4,817,220 rows in 97 batches; mismatch vs Decimal recompute: 0",
        ),
        ed(
            f"{CWD}/reports/store.py",
            "    row['amount'] = float(total)",
            "    row['amount'] = float(total)\n    row['amount_minor'] = int(total.scaleb(exp))\n    row['currency_exponent'] = exp",
        ),
    ),
    a(
        "Switching the readers.",
        ed(
            f"{CWD}/../bi/metabase/models/billing.yml",
            "expression: amount",
            "expression: amount_minor / power(10, currency_exponent)",
        ),
        ed(
            f"{CWD}/../finance-export/export.py",
            "select amount from report_lines",
            "select amount_minor, currency_exponent from report_lines",
        ),
        sh(
            "pytest -q && (cd ../finance-export && pytest -q)",
            "89 passed in 6.40s\n23 passed in 1.12s",
        ),
        todo(
            ("amount_minor column + backfill", "completed"),
            ("Dual write", "completed"),
            ("Switch readers", "completed"),
        ),
    ),
    *dashboards,
    a(
        "Step 1–2 done: `amount_minor` backfilled (4.8M rows, 0 mismatches), dual-written, Metabase and finance-export switched. Dropping `amount` is for the next release."
    ),
    # Deliberate negative: a silence after which the agent only asks; nothing else happens.
    H(""),
    a(
        "Anything else for this? The `amount` column drop is ready to go in the next release whenever you want me to open that PR."
    ),
]

SCENARIOS = [
    Scenario(
        name="h2_billing_totals",
        title="October billing report off vs. ledger",
        cwd=CWD,
        steps=steps,
        model="gemini-3.8-flash",
        start="2026-11-10T09:30:00Z",
    )
]
FORMATS = ["gemini", "codex", "aider"]
