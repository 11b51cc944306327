"""A payment-webhook bug (customers charged twice): fix, then a refund audit, then a proposed hardening."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import H, Interrupt, Scenario
from samplegen.heldout2._kit import a, ed, gr, rd, sh, todo, wr

CWD = "/srv/checkout-api"
EVENT_TYPES = [
    "payment_intent.succeeded",
    "payment_intent.payment_failed",
    "charge.refunded",
    "invoice.paid",
    "customer.subscription.updated",
]

replays = []
for i, ev in enumerate(EVENT_TYPES):
    dup = [37, 0, 4, 11, 0][i]
    replays.append(
        a(
            f"Replaying 1000 `{ev}` deliveries with retries enabled.",
            sh(
                f"python scripts/replay_webhooks.py --type {ev} --n 1000 --retry-after 2s",
                f"delivered=1000 retried={212 + 7 * i} handler_ok=1000\nside_effects: distinct={1000 - dup} duplicated={dup}",
            ),
        )
    )

regress = []
for i, ev in enumerate(EVENT_TYPES):
    regress.append(
        a(
            f"Re-running the replay for `{ev}` with the fix.",
            sh(
                f"python scripts/replay_webhooks.py --type {ev} --n 1000 --retry-after 2s",
                f"delivered=1000 retried={205 + 9 * i} handler_ok=1000\nside_effects: distinct=1000 duplicated=0",
            ),
        )
    )

WEEKS = [
    ("2026-10-14", 9, 701.12),
    ("2026-10-21", 17, 1490.03),
    ("2026-10-28", 21, 1811.70),
    ("2026-11-04", 18, 1655.41),
    ("2026-11-11", 6, 690.03),
]
weekly = [
    a(
        f"Week of {wk}: checking each pair against the order ledger.",
        sh(
            f"python scripts/check_refunds.py /tmp/double.csv --only-same-order --week {wk}",
            f"pairs={n} same_order={n} amount_usd={amt:.2f} ledger_mismatch=0",
        ),
    )
    for wk, n, amt in WEEKS
]

FIXTURES = [
    "pi_succeeded_pretty",
    "pi_succeeded_compact",
    "invoice_paid_unicode_name",
    "charge_refunded_partial",
    "sub_updated_nested",
]
fixture_checks = [
    a(
        f"Checking that `{f}` verifies against the raw bytes.",
        sh(
            f"python scripts/psp_sig.py verify tests/fixtures/psp/{f}.json --header-from tests/fixtures/psp/{f}.hdr",
            "v1 signature OK (timestamp skew 0 s)",
        ),
    )
    for f in FIXTURES
]

steps = [
    H(
        "support says a handful of customers got charged twice for the same order last week. "
        "pretty sure it's the webhook handler. can you find out why"
    ),
    a(
        "Looking at the webhook handler first.",
        rd(
            f"{CWD}/app/webhooks/handler.py",
            "@router.post('/webhooks/psp')\nasync def receive(request: Request):\n    payload = await request.json()\n    event = Event.parse(payload)\n    await dispatch(event)\n    return {'ok': True}",
        ),
        todo(
            ("Reproduce double charge", "in_progress"),
            ("Find root cause", "pending"),
            ("Fix + regression test", "pending"),
        ),
    ),
    a(
        "No dedupe on `event.id` at all. Checking dispatch.",
        rd(
            f"{CWD}/app/webhooks/dispatch.py",
            "async def dispatch(event):\n    if event.type == 'payment_intent.succeeded':\n        order = await orders.get(event.data['metadata']['order_id'])\n        await fulfil(order)\n        await capture_remaining(order)  # split tender\n",
        ),
        gr(
            "capture_remaining",
            f"{CWD}/app",
            "app/webhooks/dispatch.py:5:        await capture_remaining(order)  # split tender\napp/payments/capture.py:12:async def capture_remaining(order):",
        ),
    ),
    a(
        "",
        rd(
            f"{CWD}/app/payments/capture.py",
            "async def capture_remaining(order):\n    due = order.total - order.paid\n    if due > 0:\n        await psp.charges.create(amount=due, customer=order.customer_id)\n",
        ),
    ),
    a(
        "`capture_remaining` reads `order.paid` before the first delivery's write commits. If the PSP retries (our handler takes >2 s under load), two deliveries both see `due > 0`. Checking production logs for retried deliveries.",
        sh(
            "kubectl logs deploy/checkout-api --since=168h | grep -c 'webhook retry attempt=2'",
            "1843",
        ),
        sh(
            "psql $REPLICA_URL -c \"select count(*) from charges c join charges d on c.order_id=d.order_id and c.id<d.id and abs(extract(epoch from d.created_at-c.created_at))<10 where c.created_at > now()-interval '7 days'\"",
            " count \n-------\n    29\n(1 row)",
        ),
    ),
    a(
        "Handler latency under load, since the retries depend on it.",
        sh(
            "kubectl exec deploy/checkout-api -- curl -s localhost:9100/metrics | grep 'webhook_handler_seconds_bucket{le=\"2.0\"}'",
            'webhook_handler_seconds_bucket{le="2.0"} 88213',
        ),
        sh(
            "kubectl exec deploy/checkout-api -- curl -s localhost:9100/metrics | grep 'webhook_handler_seconds_count'",
            "webhook_handler_seconds_count 93871",
        ),
    ),
    a(
        "6% of deliveries take over 2 s, which is when the PSP retries. Writing a replay harness run against a local stack to reproduce.",
        sh(
            "docker compose up -d postgres psp-fake && alembic upgrade head",
            "Container checkout-postgres-1  Started\nContainer checkout-psp-fake-1  Started\nINFO  [alembic] Running upgrade 0140 -> 0141",
        ),
    ),
    *replays,
    a(
        "Reproduced: 37/1000 duplicated side effects for payment_intent.succeeded, 11 for invoice.paid, 4 for charge.refunded.",
        todo(
            ("Reproduce double charge", "completed"),
            ("Find root cause", "completed"),
            ("Fix + regression test", "in_progress"),
        ),
    ),
    a(
        "Adding a processed-events table keyed by the PSP event id, checked and written in the same transaction as the side effects.",
        wr(
            f"{CWD}/migrations/0142_processed_webhook_events.sql",
            "create table processed_webhook_events (\n  event_id text primary key,\n  received_at timestamptz not null default now()\n);",
        ),
        ed(
            f"{CWD}/app/webhooks/handler.py",
            "    await dispatch(event)",
            "    async with db.transaction():\n        inserted = await db.execute(\n            'insert into processed_webhook_events(event_id) values ($1) on conflict do nothing', event.id\n        )\n        if inserted == 'INSERT 0 0':\n            return {'ok': True, 'duplicate': True}\n        await dispatch(event)",
        ),
    ),
    a(
        "And an idempotency key on the PSP charge itself, so even a race can't create two charges.",
        ed(
            f"{CWD}/app/payments/capture.py",
            "await psp.charges.create(amount=due, customer=order.customer_id)",
            "await psp.charges.create(\n            amount=due, customer=order.customer_id, idempotency_key=f'capture-{order.id}-{order.version}'\n        )",
        ),
    ),
    a(
        "Regression test that fires two concurrent deliveries of the same event.",
        wr(
            f"{CWD}/tests/webhooks/test_duplicate_delivery.py",
            "async def test_same_event_twice_charges_once(client, psp_fake):\n    ev = make_event('payment_intent.succeeded', order_total=12999, paid=5000)\n    await asyncio.gather(client.post('/webhooks/psp', json=ev), client.post('/webhooks/psp', json=ev))\n    assert psp_fake.charges == [7999]",
        ),
        sh(
            "alembic upgrade head && pytest tests/webhooks -q",
            "Running upgrade 0141 -> 0142, processed_webhook_events\n..........................\n26 passed in 4.81s",
        ),
    ),
    *regress,
    a(
        "Lint and types.",
        sh(
            "ruff check app tests && mypy app",
            "All checks passed!\nSuccess: no issues found in 143 source files",
        ),
    ),
    a(
        "Full suite.",
        sh("pytest -q -p no:randomly", "412 passed, 3 skipped in 96.40s"),
        todo(
            ("Reproduce double charge", "completed"),
            ("Find root cause", "completed"),
            ("Fix + regression test", "completed"),
        ),
    ),
    a(
        "The fix works.\n\n| event type | duplicated before | after |\n|---|---|---|\n| payment_intent.succeeded | 37 / 1000 | 0 |\n| invoice.paid | 11 / 1000 | 0 |\n| charge.refunded | 4 / 1000 | 0 |\n\n"
        "412 tests pass, including the new concurrent-delivery test. Root cause: no dedupe on event id + a read-then-charge race in `capture_remaining` when the PSP retries after our 2 s timeout. "
        "In production, 29 order pairs in the last 7 days have two charges within 10 s of each other."
    ),
    # Milestone (fix verified, numbers reported); the person says nothing and the agent moves to the customer cleanup.
    H("", expect=("continue_after_milestone", "empty")),
    a(
        "## Where we are\n- **Fixed:** duplicate webhook processing (dedupe table + PSP idempotency key), 412 tests green.\n"
        "- **Still open:** the customers who were already double-charged. Support knows of a handful; the replica shows 29 candidate pairs in 7 days.\n\n"
        "## Next\n1. Pull every double charge since the bug shipped (PR #1289, 2026-10-14).\n2. Separate true duplicates from legitimate second purchases.\n3. Prepare the refund list for review.",
        todo(
            ("List affected customers since 2026-10-14", "in_progress"),
            ("Classify true duplicates", "pending"),
            ("Refund plan", "pending"),
        ),
    ),
    a(
        "",
        sh(
            "psql $REPLICA_URL -f scripts/sql/double_charges.sql -v since=2026-10-14 > /tmp/double.csv && wc -l /tmp/double.csv",
            "84 /tmp/double.csv",
        ),
        sh(
            "python - <<'PY'\nimport csv\nrows=list(csv.DictReader(open('/tmp/double.csv')))\nsame=[r for r in rows if r['amount_a']==r['amount_b'] and r['order_a']==r['order_b']]\nprint(len(rows), len(same), sum(int(r['amount_b']) for r in same)/100)\nPY",
            "83 71 6348.29",
        ),
    ),
    a(
        "83 pairs since Oct 14; 71 are the same order charged twice (total $6,348.29). The other 12 are different orders, so legitimate.",
        sh(
            "python scripts/check_refunds.py /tmp/double.csv --only-same-order",
            "already refunded by support: 9 ($812.40)\nstill owed: 62 ($5,535.89)",
        ),
        todo(
            ("List affected customers since 2026-10-14", "completed"),
            ("Classify true duplicates", "completed"),
            ("Refund plan", "in_progress"),
        ),
    ),
    *weekly[:3],
    # Deliberate negative: an ack while the agent works through the weeks; the same work goes on.
    H("ok"),
    *weekly[3:],
    a(
        "62 customers are still owed $5,535.89 in total. Two ways to handle it:\n\n"
        "- **Option A:** I write a script that issues the 62 refunds through the PSP API with idempotency keys (dry-run first).\n"
        "- **Option B:** I produce a CSV for finance/support to review and refund from the dashboard, with a customer email template.\n\nWhich do you prefer?"
    ),
    # Deliberate negative: a short reply that names the choice; directed, not silent.
    H("go with option B"),
    a(
        "Building the finance CSV and the email template.",
        sh(
            "python scripts/check_refunds.py /tmp/double.csv --only-same-order --owed --format finance > reports/double_charge_refunds_2026-11.csv && head -3 reports/double_charge_refunds_2026-11.csv",
            "customer_id,email,order_id,charge_to_refund,amount,currency,charged_at\ncus_R81kQ,...,ord_99812,ch_3Q9...,89.90,USD,2026-10-15T18:22:04Z\ncus_T02mA,...,ord_99840,ch_3QA...,129.99,USD,2026-10-15T19:01:37Z",
        ),
        wr(
            f"{CWD}/reports/double_charge_email.md",
            "Subject: We charged you twice — your refund is on its way\n\nHi {first_name},\n\nOn {charged_at:%b %d} a fault on our side charged your card twice for order {order_id}. We've refunded {amount}; it will show in 5–10 business days.",
        ),
    ),
    a(
        "Done: `reports/double_charge_refunds_2026-11.csv` (62 rows, $5,535.89) and the email template. Nothing has been refunded by me.",
        todo(("Refund plan", "completed")),
    ),
    H(
        "one more thing. should we verify the PSP signature on the raw body in a middleware instead of in the handler? "
        "I think right now we json-parse first"
    ),
    a(
        "Checking how the signature is verified today.",
        gr(
            "verify_signature",
            f"{CWD}/app",
            "app/webhooks/security.py:8:def verify_signature(payload: dict, header: str) -> bool:\napp/webhooks/handler.py:3:from .security import verify_signature",
        ),
        rd(
            f"{CWD}/app/webhooks/security.py",
            "def verify_signature(payload: dict, header: str) -> bool:\n    body = json.dumps(payload, separators=(',', ':'))\n    expected = hmac.new(SECRET, f'{ts}.{body}'.encode(), sha256).hexdigest()\n    return hmac.compare_digest(expected, sig)",
        ),
    ),
    a(
        "",
        gr("verify_signature\\(", f"{CWD}/app/webhooks/handler.py", ""),
        sh(
            "git log -S'verify_signature(' --oneline -- app/webhooks/handler.py",
            "a71c0de remove sig check temporarily (psp sandbox sends pretty json)",
        ),
        think="It re-serialises the parsed JSON, which only matches if key order and spacing are the PSP's. And the handler I saw earlier never calls it. Let me confirm.",
    ),
    a(
        "Research summary:\n\n- The handler **doesn't verify signatures at all** since a71c0de (\"remove sig check temporarily\"), because re-serialising parsed JSON never matched the sandbox's pretty-printed bodies.\n"
        "- Verifying on the raw bytes fixes that: the PSP signs `timestamp.raw_body`.\n\n"
        "**Plan**\n1. ASGI middleware on `/webhooks/psp` that reads the raw body once, checks `PSP-Signature` (v1 HMAC-SHA256, 300 s tolerance) and stores the bytes on `request.state`.\n"
        "2. Handler parses from `request.state.raw_body`.\n3. Tests with real captured sandbox payloads (pretty and compact).\n\n"
        "**Risks**\n- If `PSP_WEBHOOK_SECRET` in prod is stale, every webhook gets 400 → PSP retries for 3 days, so nothing is lost, but fulfilment stalls. I'd ship it in log-only mode first.\n"
        "- Body size: cap at 1 MB.\n\nShall I go ahead with it?"
    ),
    # Implicit approval: the person asked, the agent researched and laid out a plan with risks; "sounds good" releases it.
    H("sounds good", expect=("implicit_approval", "ack")),
    a(
        "Implementing the middleware in log-only mode first.",
        wr(
            f"{CWD}/app/webhooks/signature_mw.py",
            "class PspSignatureMiddleware:\n    def __init__(self, app, secret: bytes, enforce: bool, tolerance_s: int = 300, max_body: int = 1 << 20): ...\n    async def __call__(self, scope, receive, send): ...  # buffers body, verifies v1=HMAC(ts.raw)",
        ),
        ed(
            f"{CWD}/app/main.py",
            "app.include_router(webhooks.router)",
            "app.add_middleware(PspSignatureMiddleware, secret=settings.psp_webhook_secret, enforce=settings.psp_sig_enforce)\napp.include_router(webhooks.router)",
        ),
        todo(
            ("Signature middleware (log-only)", "in_progress"),
            ("Handler reads raw body", "pending"),
            ("Tests with captured payloads", "pending"),
            ("Enforce in prod", "pending"),
        ),
    ),
    a(
        "",
        ed(
            f"{CWD}/app/webhooks/handler.py",
            "    payload = await request.json()",
            "    payload = json.loads(request.state.psp_raw_body)",
        ),
        sh("ls tests/fixtures/psp/*.json | wc -l", "14"),
    ),
    *fixture_checks,
    a(
        "Tests for valid, tampered, stale-timestamp, pretty-printed and oversized bodies.",
        wr(
            f"{CWD}/tests/webhooks/test_signature_mw.py",
            "@pytest.mark.parametrize('fixture', FIXTURES)\ndef test_valid_signature_passes(fixture): ...\ndef test_tampered_body_rejected(): ...\ndef test_stale_timestamp_rejected(): ...\ndef test_body_over_1mb_413(): ...",
        ),
        sh(
            "pytest tests/webhooks -q",
            "FAILED tests/webhooks/test_signature_mw.py::test_stale_timestamp_rejected - assert 200 == 400\n1 failed, 44 passed in 5.02s",
            code=1,
        ),
    ),
    a(
        "In log-only mode stale timestamps pass (by design); the test needs `enforce=True`.",
        ed(
            f"{CWD}/tests/webhooks/test_signature_mw.py",
            "def test_stale_timestamp_rejected(): ...",
            "def test_stale_timestamp_rejected(enforcing_app): ...",
        ),
        sh("pytest tests/webhooks -q", "45 passed in 4.97s"),
    ),
    a(
        "Deploying to staging in log-only mode and replaying the captured sandbox events.",
        sh(
            "make deploy ENV=staging PSP_SIG_ENFORCE=false",
            "deployment.apps/checkout-api configured\nrollout complete (3/3)",
        ),
        sh(
            "python scripts/replay_webhooks.py --target staging --from-fixtures tests/fixtures/psp",
            "delivered=14 handler_ok=14",
        ),
    ),
    a(
        "",
        sh(
            "kubectl -n staging logs deploy/checkout-api --since=5m | grep -c 'psp_signature=valid'",
            "14",
        ),
        sh(
            "kubectl -n staging logs deploy/checkout-api --since=5m | grep -c 'psp_signature=invalid'",
            "0",
        ),
        todo(
            ("Signature middleware (log-only)", "completed"),
            ("Handler reads raw body", "completed"),
            ("Tests with captured payloads", "completed"),
            ("Enforce in prod", "in_progress"),
        ),
    ),
    a(
        "All 14 staging deliveries verify. Deploying to production, still log-only.",
        sh(
            "make deploy ENV=prod PSP_SIG_ENFORCE=false",
            "deployment.apps/checkout-api configured\nWaiting for rollout: 2 of 6 updated replicas are available...",
        ),
    ),
    Interrupt(),
    H("hold off on prod until the freeze ends on thursday, staging is enough for today"),
    a(
        "Stopped. Rolling prod back to the previous image so nothing half-rolled stays out there.",
        sh(
            "kubectl rollout undo deploy/checkout-api -n prod && kubectl rollout status deploy/checkout-api -n prod",
            'deployment.apps/checkout-api rolled back\ndeployment "checkout-api" successfully rolled out',
        ),
        todo(("Enforce in prod", "pending")),
    ),
    a(
        "Prod is back on the previous image. Summary:\n- dedupe + idempotency fix: merged, in prod since this morning\n- refunds: CSV for finance (62 customers, $5,535.89)\n"
        "- signature middleware: on staging, log-only, 14/14 valid; prod after Thursday's freeze, then flip `PSP_SIG_ENFORCE=true` after a day of clean logs."
    ),
    # Deliberate negative: a bare "k" at the very end; the work is done, nothing changes.
    H("k"),
    a("👍 I'll leave it here."),
]

SCENARIOS = [
    Scenario(
        name="h2_payment_webhook",
        title="Customers charged twice by the webhook handler",
        cwd=CWD,
        steps=steps,
        model="claude-sonnet-4-6",
        start="2026-11-03T13:20:00Z",
    )
]
FORMATS = ["codex", "gemini", "generic"]
