"""A Kafka consumer-lag incident: scaling and config tweaks fail, then a root cause, then a waiting hand-off."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import H, Interrupt, Nudge, Scenario
from samplegen.heldout2._kit import a, ed, gr, hang, rd, sh, todo, wr

CWD = "/home/dev/svc/ledger-writer"
LAG = "kafka-consumer-groups --bootstrap-server kafka-1:9092 --describe --group ledger-writer | awk 'NR>1 {s+=$6} END {print s}'"


def lag(value: str, note: str) -> object:
    return a(note, sh(LAG, value))


early = [
    lag("2114870", "Lag now: 2.11M."),
    lag("2150332", "Lag still climbing: 2.15M (+35k in 60 s)."),
    lag("2187905", "2.19M."),
    lag("2224116", "2.22M, ~36k/min."),
]
per_pod = [
    a(
        f"Rebalances seen by pod {i} in the last 30 min.",
        sh(
            f"kubectl -n ledger logs ledger-writer-6c9d-{i} --since=30m | grep -c 'Revoking previously assigned partitions'",
            str(n),
        ),
    )
    for i, n in enumerate([38, 40, 41, 39, 37, 42])
]
after_scale = [lag(v, f"Lag after scaling: {v}.") for v in ("2251764", "2278019", "2300411")]
after_poll = [lag(v, f"Lag with the longer poll interval: {v}.") for v in ("2310554", "2352873")]
drain = [
    lag(v, f"{t}: lag {v}.")
    for t, v in [
        ("09:52", "2288140"),
        ("09:57", "2281902"),
        ("10:02", "2190755"),
        ("10:07", "1884213"),
        ("10:12", "1503877"),
        ("10:17", "1108560"),
    ]
]
tail_drain = [
    lag(v, f"{t}: lag {v}.")
    for t, v in [
        ("10:22", "702118"),
        ("10:27", "301442"),
        ("10:32", "120331"),
        ("10:35", "41208"),
        ("10:37", "9120"),
        ("10:40", "212"),
    ]
]

steps = [
    H(
        "paging: ledger-writer consumer lag on payments.events is at 2M and growing. balances in the app are stale. help"
    ),
    a(
        "Checking the group.",
        sh(
            "kafka-consumer-groups --bootstrap-server kafka-1:9092 --describe --group ledger-writer | head -8",
            "GROUP          TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG     CONSUMER-ID\nledger-writer  payments.events 0          88120311        88208902        88591   ledger-writer-6c9d-0\nledger-writer  payments.events 1          87990124        88079517        89393   ledger-writer-6c9d-0\nledger-writer  payments.events 2          88301440        88390122        88682   -\n...",
        ),
        sh(LAG, "2071388"),
        todo(
            ("Stop lag growth", "in_progress"),
            ("Drain backlog", "pending"),
            ("Root cause", "pending"),
        ),
    ),
    a(
        "Some partitions have no consumer (`-`). Checking the pods and rebalances.",
        sh(
            "kubectl -n ledger get pods -l app=ledger-writer",
            "NAME                          READY   STATUS    RESTARTS   AGE\nledger-writer-6c9d-0          1/1     Running   0          3d\nledger-writer-6c9d-1          1/1     Running   0          3d\nledger-writer-6c9d-2          1/1     Running   4          3d\nledger-writer-6c9d-3          1/1     Running   0          3d\nledger-writer-6c9d-4          1/1     Running   0          3d\nledger-writer-6c9d-5          1/1     Running   3          3d",
        ),
        sh(
            "kubectl -n ledger logs ledger-writer-6c9d-2 --since=30m | grep -c 'Revoking previously assigned partitions'",
            "41",
        ),
    ),
    *per_pod,
    *early,
    a(
        "41 rebalances in 30 minutes on one pod. First attempt: more consumers. The topic has 24 partitions and we run 6, so scaling to 12.",
        sh(
            "kubectl -n ledger scale deploy/ledger-writer --replicas=12",
            "deployment.apps/ledger-writer scaled",
        ),
        todo(("Attempt 1: scale 6 → 12", "in_progress")),
    ),
    *after_scale,
    a(
        "Scaling made it worse: more members, more rebalances (each one pauses the whole group).",
        sh(
            "kubectl -n ledger logs -l app=ledger-writer --since=10m | grep -c 'Revoking previously assigned partitions'",
            "188",
        ),
        sh(
            "kubectl -n ledger logs ledger-writer-6c9d-2 --since=10m | grep -m2 'max.poll.interval.ms'",
            "WARN consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms (300000), which typically implies that the poll loop is spending too much time processing messages.\nWARN Member ledger-writer-6c9d-2-... sending LeaveGroup request to coordinator",
        ),
        todo(
            ("Attempt 1: scale 6 → 12", "FAILED: 188 rebalances / 10 min"),
            ("Attempt 2: max.poll.interval.ms 15 min", "in_progress"),
        ),
    ),
    a(
        "Consumers exceed `max.poll.interval.ms` (5 min) while processing a batch and get kicked out. Attempt 2: scale back to 6 and raise the interval to 15 minutes.",
        sh(
            "kubectl -n ledger scale deploy/ledger-writer --replicas=6",
            "deployment.apps/ledger-writer scaled",
        ),
        ed(
            f"{CWD}/deploy/values-prod.yaml",
            'KAFKA_MAX_POLL_INTERVAL_MS: "300000"',
            'KAFKA_MAX_POLL_INTERVAL_MS: "900000"',
        ),
        sh(
            "helm upgrade ledger-writer deploy/chart -n ledger -f deploy/values-prod.yaml",
            'Release "ledger-writer" has been upgraded. Happy Helming!\nREVISION: 88',
        ),
    ),
    *after_poll,
    a(
        "Fewer rebalances, but lag still grows. Checking broker health in case the problem is on the Kafka side.",
        sh(
            "kafka-topics --bootstrap-server kafka-1:9092 --describe --under-replicated-partitions | wc -l",
            "0",
        ),
        sh(
            "kafka-log-dirs --bootstrap-server kafka-1:9092 --describe --broker-list 1,2,3 | python scripts/disk_summary.py",
            "broker 1: 61% used\nbroker 2: 60% used\nbroker 3: 62% used",
        ),
        todo(
            ("Attempt 2: max.poll.interval.ms 15 min", "FAILED: lag still growing"),
            ("Attempt 3: broker health", "in_progress"),
        ),
    ),
    a(
        "Brokers are healthy. Attempt 3: take a thread dump from a consumer mid-batch to see what it's doing.",
        hang(
            "kubectl -n ledger exec ledger-writer-6c9d-2 -- jcmd 1 Thread.print", "1:\n", ms=120_000
        ),
        todo(
            ("Attempt 3: broker health", "completed: healthy"),
            ("Attempt 4: thread dump", "timed out"),
        ),
    ),
    a(
        "The thread dump timed out after 2 minutes (jcmd attach blocked), so I can't see inside.\n\n"
        "Summary: scaling to 12 → worse (188 rebalances / 10 min); 15-min poll interval → fewer rebalances, lag still +40k/min; brokers healthy; thread dump → timeout. Lag is 2.35M."
    ),
    # Dead end: failures and a timed-out probe, no next step; the person's "ok" hands the incident over.
    H("ok", expect=("delegation_after_dead_end", "ack")),
    a(
        "## Incident state\n- **Impact:** ledger balances stale; lag 2.35M on payments.events, growing ~40k/min.\n- **Ruled out:** broker health, partition count (24 ≥ consumers).\n"
        "- **Known:** each batch sometimes takes > 5 min, which triggered the rebalance storm; the 15-min interval stopped the storm but not the slowness.\n\n"
        "**Next:** the slowness is inside batch processing. Measure where: the consumer exports per-stage timings.",
    ),
    a(
        "",
        sh(
            "kubectl -n ledger exec ledger-writer-6c9d-0 -- curl -s localhost:9404/metrics | grep -E 'ledger_stage_seconds_sum|ledger_stage_seconds_count'",
            'ledger_stage_seconds_sum{stage="deserialize"} 412.1\nledger_stage_seconds_count{stage="deserialize"} 1.2e+06\nledger_stage_seconds_sum{stage="apply_balance"} 98211.4\nledger_stage_seconds_count{stage="apply_balance"} 1.2e+06\nledger_stage_seconds_sum{stage="commit"} 301.7',
        ),
    ),
    a(
        "`apply_balance` averages 82 ms per message vs. 0.3 ms for deserialisation. Looking at the database side.",
        sh(
            "psql $LEDGER_DB -c \"select wait_event_type, wait_event, count(*) from pg_stat_activity where application_name='ledger-writer' group by 1,2 order by 3 desc\"",
            " wait_event_type | wait_event    | count\n-----------------+---------------+-------\n Lock            | transactionid |    41\n                 |               |     7",
        ),
        rd(
            f"{CWD}/src/main/kotlin/ledger/ApplyBalance.kt",
            'fun apply(batch: List<Event>) = db.transaction {\n    for (e in batch) {\n        exec("update accounts set balance = balance + ? where id = ?", e.amount, e.accountId)\n        exec("update accounts set balance = balance - ? where id = ?", e.amount, PLATFORM_FEES_ACCOUNT)\n    }\n}',
        ),
    ),
    a(
        "Root cause: every event also updates one shared `PLATFORM_FEES_ACCOUNT` row, so all 6 consumers serialise on that row lock inside long transactions. "
        "Fix: aggregate the fee per batch and apply it once at the end of the transaction.",
        gr(
            "PLATFORM_FEES_ACCOUNT",
            f"{CWD}/src",
            "src/main/kotlin/ledger/ApplyBalance.kt:5\nsrc/main/kotlin/ledger/Accounts.kt:3",
        ),
        ed(
            f"{CWD}/src/main/kotlin/ledger/ApplyBalance.kt",
            '    for (e in batch) {\n        exec("update accounts set balance = balance + ? where id = ?", e.amount, e.accountId)\n        exec("update accounts set balance = balance - ? where id = ?", e.amount, PLATFORM_FEES_ACCOUNT)\n    }',
            '    var fees = 0L\n    for (e in batch.sortedBy { it.accountId }) {\n        exec("update accounts set balance = balance + ? where id = ?", e.amount, e.accountId)\n        fees += e.amount\n    }\n    exec("update accounts set balance = balance - ? where id = ?", fees, PLATFORM_FEES_ACCOUNT)',
        ),
        todo(("Root cause", "completed"), ("Hot-row fix: one fee update per batch", "in_progress")),
    ),
    a(
        "",
        sh(
            "./gradlew test --tests '*ApplyBalance*'",
            "ApplyBalanceTest > fee account debited once per batch PASSED\nApplyBalanceTest > balances conserved across batch PASSED\nBUILD SUCCESSFUL in 38s",
        ),
    ),
    a(
        "Tests pass. Next is the normal path: build the image, deploy to staging, soak 15 minutes, then prod. Do you want the full path?"
    ),
    H("continue but skip staging, we're bleeding. straight to prod with a canary"),
    a(
        "Building and rolling out to prod with one canary pod first.",
        sh(
            "./gradlew jib -Pimage=registry.internal/ledger-writer:hotrow-1",
            "Built and pushed image as registry.internal/ledger-writer:hotrow-1",
        ),
        sh(
            "helm upgrade ledger-writer deploy/chart -n ledger -f deploy/values-prod.yaml --set image.tag=hotrow-1 --set canary.replicas=1",
            "REVISION: 89",
        ),
    ),
    a(
        "Canary is up. Its apply_balance timing:",
        sh(
            "sleep 120; kubectl -n ledger exec ledger-writer-canary-0 -- curl -s localhost:9404/metrics | grep 'ledger_stage_seconds' | python scripts/avg_ms.py",
            "apply_balance avg 2.4 ms (was 82 ms)",
        ),
    ),
    a(
        "82 ms → 2.4 ms per message on the canary. Rolling the other pods.",
        sh(
            "kubectl -n ledger set image deploy/ledger-writer app=registry.internal/ledger-writer:hotrow-1",
            "deployment.apps/ledger-writer image updated",
        ),
    ),
    Interrupt(),
    H(
        "wait, roll them one at a time, the rebalance from a full restart will pause everything again"
    ),
    a(
        "Good point. Switching to maxSurge 1 / maxUnavailable 0 so only one member leaves at a time.",
        sh(
            'kubectl -n ledger patch deploy/ledger-writer -p \'{"spec":{"strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":0}}}}\'',
            "deployment.apps/ledger-writer patched",
        ),
        sh(
            "kubectl -n ledger rollout restart deploy/ledger-writer",
            "deployment.apps/ledger-writer restarted",
        ),
    ),
    a(
        "",
        sh(LAG, "2301188"),
        sh(
            "kubectl -n ledger rollout status deploy/ledger-writer --timeout=30s",
            'Waiting for deployment "ledger-writer" rollout to finish: 2 of 6 updated replicas are available...\nerror: timed out waiting for the condition',
            code=1,
        ),
    ),
    a(
        "Rollout is progressing one pod at a time (2/6, ~2 min per pod). Lag is flat at 2.30M: too early to tell whether it will drain. Nothing for me to do on the consumers until the rollout finishes, ~10 min."
    ),
    # `other`: no failure streak, no milestone yet, no proposal; a waiting state. The silence hands the
    # agent the initiative and it switches to a different job (incident write-up) on its own.
    H("", expect=("other", "empty")),
    a(
        "While the rollout finishes I'll write up the incident so far, so the timeline is captured while it's fresh.",
        sh(
            "kubectl -n ledger get events --sort-by=.lastTimestamp | grep -E 'Scaled|Upgrade|Rollout' | tail -8",
            "08:41 ScalingReplicaSet Scaled up to 12\n08:58 ScalingReplicaSet Scaled down to 6\n09:02 helm upgrade REVISION 88\n09:41 helm upgrade REVISION 89 (canary)\n09:47 rollout restart",
        ),
        todo(("Incident write-up draft", "in_progress")),
    ),
    a(
        "",
        wr(
            f"{CWD}/docs/incidents/2026-11-07-ledger-lag.md",
            "# 2026-11-07 ledger-writer consumer lag\n\n## Impact\nLedger balances stale for ~2 h; peak lag 2.35M messages on payments.events.\n\n## Timeline (UTC)\n- 08:20 lag alert (500k)\n- 08:41 scaled 6 → 12: more rebalances\n- 09:02 max.poll.interval 5 → 15 min: storm stops, lag still grows\n- 09:30 root cause: hot row (PLATFORM_FEES_ACCOUNT) updated per event\n- 09:41 canary with per-batch fee update: 82 ms → 2.4 ms per message\n\n## Root cause\n...\n\n## Follow-ups\n- alert on ledger_stage_seconds{stage=apply_balance} p95 > 20 ms\n- revisit max.poll.interval after the fix",
        ),
    ),
    a(
        "Adding the alert from the follow-ups, since it would have caught this an hour earlier.",
        ed(
            f"{CWD}/deploy/alerts.yaml",
            "groups:\n- name: ledger-writer",
            'groups:\n- name: ledger-writer\n  rules:\n  - alert: LedgerApplySlow\n    expr: histogram_quantile(0.95, rate(ledger_stage_seconds_bucket{stage="apply_balance"}[5m])) > 0.02\n    for: 10m',
        ),
        sh(
            "promtool check rules deploy/alerts.yaml",
            "Checking deploy/alerts.yaml\n  SUCCESS: 4 rules found",
        ),
        todo(
            ("Incident write-up draft", "completed"), ("apply_balance latency alert", "completed")
        ),
    ),
    *drain[:4],
    # Deliberate negative: "ok" while the agent only watches the lag drain; nothing changes after it.
    H("ok"),
    *drain[4:],
    Nudge(),  # Deliberate negative: a harness nudge alone while polling.
    *tail_drain,
    a(
        "Lag is back to normal (212). Reverting the poll interval to 5 minutes now that batches take seconds.",
        ed(
            f"{CWD}/deploy/values-prod.yaml",
            'KAFKA_MAX_POLL_INTERVAL_MS: "900000"',
            'KAFKA_MAX_POLL_INTERVAL_MS: "300000"',
        ),
        sh(
            "helm upgrade ledger-writer deploy/chart -n ledger -f deploy/values-prod.yaml --set image.tag=hotrow-1",
            "REVISION: 90",
        ),
        todo(("Stop lag growth", "completed"), ("Drain backlog", "completed")),
    ),
    a(
        "Resolved: backlog drained (2.35M → 212 in ~45 min at ~50k msg/min net), fix is the per-batch fee update. Incident doc and a new latency alert are in the repo."
    ),
    # Deliberate negative: "thanks" at the very end.
    H("thanks!!"),
    a("Anytime. The write-up in docs/incidents/ is ready for the postmortem review."),
]

SCENARIOS = [
    Scenario(
        name="h2_kafka_lag",
        title="ledger-writer consumer lag incident",
        cwd=CWD,
        steps=steps,
        model="gpt-5.3-codex",
        start="2026-11-07T08:24:00Z",
        seconds_per_step=30,
    )
]
FORMATS = ["codex", "gemini", "claude"]
