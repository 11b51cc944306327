# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: backfilling a ClickHouse daily-sessions rollup from 14 months of raw events (opencode).

Labelled: "yes" after the agent laid out the full-run plan (implicit approval), an opencode
quoted-blank `" "` after the third OOM (delegation after a dead end), and an automatic compaction
right after the verification milestone (continue after milestone, compaction). Negatives: "ok" and
"👌" during the routine progress polls, an automatic compaction in the middle of the polling loop,
and "continue with the backfill but skip 2025" which is directed, not silent.
"""

from __future__ import annotations

from samplegen.heldout._kit import A, Compact, H, Kit, Nudge, Scenario

FORMATS = ["opencode"]

CWD = "/home/ines/repos/analytics-jobs"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

JOB = '''"""Rebuild analytics.sessions_daily for a date range from raw events on S3."""
import argparse, datetime as dt
import clickhouse_connect, pyarrow.dataset as ds

SQL_INSERT = "INSERT INTO analytics.sessions_daily (day, site_id, sessions, users, bounces, duration_s) VALUES"


def sessionize(tbl):
    # 30 min inactivity gap, same rule as the live Flink job
    ...


def run_day(client, day: dt.date) -> int:
    src = ds.dataset(f"s3://acme-events/raw/dt={day:%Y-%m-%d}/", format="parquet")
    rows = sessionize(src.to_table(columns=["ts", "site_id", "anon_id", "event"]))
    client.insert("analytics.sessions_daily", rows)
    return len(rows)
'''

PLAN = """One day now matches the live pipeline exactly, so here is the plan for the full range.

**Range**: 2025-09-01 → 2026-10-24 = 419 days.

**Cost of one day** (2026-10-20, measured): 48 s wall, peak RSS 5.1 GB, 1.2M sessions,
312 MB of parquet read.

**Options**
| workers | est. wall time | peak RAM | notes |
|---|---|---|---|
| 1 | ~5.6 h | 5 GB | safest |
| 4 | ~1.5 h | 21 GB | box has 64 GB |
| 8 | ~45 min | 41 GB | ClickHouse may hit "too many parts" |

**Proposal**: 8 workers, each day deleted first (`ALTER TABLE … DELETE WHERE day = X`, idempotent
re-runs), progress in `backfill_state.json` so a crash can resume.

**Risks**
- 8 concurrent inserts may produce more parts than ClickHouse merges (`parts_to_throw_insert`=300).
- S3 request rate: 8 workers × ~2,400 objects/day could trigger `SlowDown`.
- DST days (2026-03-29, 2026-10-25) have one hour more or less; the live job had a bug there once.

Nothing has been written to `sessions_daily` except the one test day. Launch with 8 workers?"""

DEAD_END_SUMMARY = """Where this stands:

**Done**: 416 of 419 days loaded and checked against the live table (row counts equal).

**Failing** (three days, always the same ones)
- 2026-03-29: worker killed, exit 137 (OOM) at ~61 GB RSS
- 2026-03-30: exit 137 at ~58 GB
- 2025-10-26: exit 137 at ~60 GB

**Tried**
1. 8 workers → `Too many parts (301)` on inserts; dropped to 4 workers, fixed
2. S3 `SlowDown` at 4 workers → added exponential backoff, fixed
3. the three days at 1 worker → still OOM
4. larger `batch_size` in pyarrow reads → OOM earlier (exit 137 after 40 s)

**What I know about those days**: raw event volume is 9–11× a normal day (41M–47M events vs
~4.5M). 2025-10-26 and 2026-03-29 are DST switch days; 2026-03-30 is the day after.

**Next**: find out why those days are so large (duplicated upload?) and sessionize them per
hour-chunk with a carry-over of open sessions instead of loading the whole day."""

VERIFY_TABLE = """Verification across all 419 days:

| check | result |
|---|---|
| days present in `sessions_daily` | 419 / 419 |
| total sessions, backfill vs live (overlap 2026-06-01 … 10-24) | 178,902,114 vs 178,902,114 |
| max per-day diff | 0 |
| days with duplicated raw uploads (deduped) | 3 |
| table size | 1.84 GiB compressed, 28 parts after merges |
| total backfill time | 1 h 52 min (4 workers) + 9 min for the 3 chunked days |

The rollup is complete and matches live data to the row."""

COMPACT_SUMMARY = """## Goal
Backfill `analytics.sessions_daily` (ClickHouse) from raw S3 events for 2025-09-01 … 2026-10-24, matching the live Flink job.

## Accomplished
- `jobs/backfill_sessions.py`: per-day rebuild, idempotent delete-then-insert, resumable state file, 4 workers, S3 backoff.
- Timezone fix: sessions are bucketed by `Europe/Berlin` local day like the live job (first attempt used UTC, off by 0.8 %).
- Three oversized days (duplicated raw uploads on DST days) deduped and sessionized in hourly chunks with carry-over.
- Verification: 419/419 days, totals equal to live over the overlap (178,902,114 sessions).

## Relevant files
- jobs/backfill_sessions.py, jobs/sessionize.py, backfill_state.json, tests/test_sessionize.py

## Next steps
- Switch the Grafana "Sessions" dashboard from the live materialized view to `sessions_daily`.
- Schedule the job daily (Airflow DAG `sessions_daily_rebuild`, yesterday's partition).
- Remove the temporary dedupe log output."""


MID_SUMMARY = """## Goal
Backfill `analytics.sessions_daily` from raw S3 events for 2025-09-01 … 2026-10-24 (419 days), matching the live Flink job.

## Accomplished
- `jobs/backfill_sessions.py` (Berlin-day bucketing, day±1 partitions, delete-then-insert, resumable state file).
- One-day check against live: 1,204,331 sessions on 2026-10-20, identical per site.
- Full run launched with 4 workers (8 hit TOO_MANY_PARTS), S3 retries set to 10 attempts.

## Current state
- Background job pid 185402, progress in backfill_state.json: 187/419 days after 40 min, one failure (2025-10-26, OOM, exit 137).
- Polling every 10 minutes with `python -m jobs.backfill_status`.

## Next steps
- Keep polling until the run finishes, then retry failed days."""


def progress(done: int, failed: list[str], elapsed: str) -> str:
    f = ", ".join(failed) if failed else "none"
    return f"done={done}/419 running=4 failed=[{f}] elapsed={elapsed}"


def steps() -> list:
    s: list = [
        H(
            "we need analytics.sessions_daily backfilled from the raw events in s3 (acme-events/raw) "
            "from 2025-09-01 until yesterday. the live flink job only started filling it in june. "
            "write a job for it and try one day first, compare against what live wrote"
        ),
        A(
            "I'll look at how the live job sessionizes so the backfill uses the same rules.",
            tools=[
                todo(
                    [
                        ("Read live Flink sessionization rules", "in_progress"),
                        ("Write jobs/backfill_sessions.py", "pending"),
                        ("Run one day and diff against live", "pending"),
                        ("Plan the full range", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                grep(
                    "SESSION_GAP|withGap|ZoneId",
                    "flink/src",
                    "flink/src/main/java/acme/SessionsJob.java:44:    .window(EventTimeSessionWindows.withGap(Time.minutes(30)))\n"
                    'flink/src/main/java/acme/SessionsJob.java:61:    ZoneId zone = ZoneId.of("Europe/Berlin");\n'
                    "flink/src/main/java/acme/SessionsJob.java:62:    LocalDate day = session.start.atZone(zone).toLocalDate();",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'clickhouse-client -q "SHOW CREATE TABLE analytics.sessions_daily"',
                    "CREATE TABLE analytics.sessions_daily\\n(\\n    `day` Date,\\n    `site_id` UInt32,\\n    `sessions` UInt64,\\n    `users` UInt64,\\n"
                    "    `bounces` UInt64,\\n    `duration_s` UInt64\\n)\\nENGINE = ReplacingMergeTree\\nPARTITION BY toYYYYMM(day)\\nORDER BY (day, site_id)",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "aws s3 ls s3://acme-events/raw/ | head -3; aws s3 ls s3://acme-events/raw/dt=2026-10-20/ --summarize | tail -2",
                    "                           PRE dt=2025-08-14/\n                           PRE dt=2025-08-15/\n                           PRE dt=2025-08-16/\n"
                    "Total Objects: 2412\n   Total Size: 327155812",
                )
            ]
        ),
        A(
            "Writing the job: 30-minute gap like Flink, one day at a time.",
            tools=[wr("jobs/backfill_sessions.py", JOB)],
        ),
        A(
            tools=[
                todo(
                    [
                        ("Read live Flink sessionization rules", "completed"),
                        ("Write jobs/backfill_sessions.py", "completed"),
                        ("Run one day and diff against live", "in_progress"),
                        ("Plan the full range", "pending"),
                    ]
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "python -m jobs.backfill_sessions --from 2026-10-20 --to 2026-10-20 --table analytics.sessions_daily_scratch",
                    "2026-10-20  sessions=1,214,077  users=903,112  48.2s  rss=5.1GB",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "clickhouse-client -q \"SELECT sum(sessions) FROM analytics.sessions_daily WHERE day='2026-10-20'\"",
                    "1204331",
                )
            ]
        ),
        A(
            "Off by 9,746 sessions (0.8 %). The live job buckets by the Berlin local day; I used the UTC "
            "date of the parquet partition. Fixing that: each day needs events from the previous and next "
            "UTC partition too.",
            tools=[
                ed(
                    "jobs/backfill_sessions.py",
                    '    src = ds.dataset(f"s3://acme-events/raw/dt={day:%Y-%m-%d}/", format="parquet")\n'
                    '    rows = sessionize(src.to_table(columns=["ts", "site_id", "anon_id", "event"]))',
                    '    parts = [f"s3://acme-events/raw/dt={d:%Y-%m-%d}/" for d in (day - ONE, day, day + ONE)]\n'
                    '    src = ds.dataset(parts, format="parquet")\n'
                    '    rows = sessionize(src.to_table(columns=["ts", "site_id", "anon_id", "event"]), tz=BERLIN)\n'
                    "    rows = [r for r in rows if r.day == day]",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "python -m jobs.backfill_sessions --from 2026-10-20 --to 2026-10-20 --table analytics.sessions_daily_scratch",
                    "2026-10-20  sessions=1,204,331  users=897,540  71.9s  rss=5.3GB",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "clickhouse-client -q \"SELECT a.site_id, a.sessions, b.sessions FROM analytics.sessions_daily a FULL JOIN analytics.sessions_daily_scratch b USING (day, site_id) WHERE day='2026-10-20' AND a.sessions != b.sessions\"",
                    "",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pytest -q tests/test_sessionize.py",
                    "......                                                                   [100%]\n6 passed in 0.84s",
                )
            ]
        ),
        A(
            PLAN,
            tools=[
                todo(
                    [
                        ("Read live Flink sessionization rules", "completed"),
                        ("Write jobs/backfill_sessions.py", "completed"),
                        ("Run one day and diff against live", "completed"),
                        ("Plan the full range", "completed"),
                    ]
                )
            ],
        ),
        H("yes", expect=("implicit_approval", "ack")),
        # ^ a plan with options and risks was laid out, nothing launched; "yes" hands over execution.
        A(
            "Launching with 8 workers.",
            tools=[
                todo(
                    [
                        ("Full backfill 2025-09-01 … 2026-10-24", "in_progress"),
                        ("Verify against live over the overlap", "pending"),
                        ("Switch dashboards to sessions_daily", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "nohup python -m jobs.backfill_sessions --from 2025-09-01 --to 2026-10-24 --workers 8 --state backfill_state.json > backfill.log 2>&1 & echo $!",
                    "184220",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sleep 120; tail -5 backfill.log",
                    "2025-09-04  sessions=1,011,870  69.1s\n2025-09-07  sessions=966,402  70.3s\n"
                    "2025-09-02  ERROR clickhouse_connect.driver.exceptions.DatabaseError: Code: 252. DB::Exception: Too many parts (301). Merges are processing significantly slower than inserts. (TOO_MANY_PARTS)\n"
                    "2025-09-05  ERROR Code: 252. DB::Exception: Too many parts (303). (TOO_MANY_PARTS)\n"
                    "2025-09-08  sessions=1,002,118  72.8s",
                )
            ]
        ),
        A(
            "As feared: `TOO_MANY_PARTS` with 8 writers. Each day's insert was split into ~40 blocks by "
            "site. Stopping, inserting each day as one block, and going down to 4 workers.",
            tools=[
                sh("kill 184220; sleep 2; pgrep -f backfill_sessions || echo stopped", "stopped")
            ],
        ),
        A(
            tools=[
                ed(
                    "jobs/backfill_sessions.py",
                    '    client.insert("analytics.sessions_daily", rows)',
                    '    client.insert("analytics.sessions_daily", rows, settings={"max_insert_block_size": 5_000_000})',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "nohup python -m jobs.backfill_sessions --from 2025-09-01 --to 2026-10-24 --workers 4 --state backfill_state.json --resume > backfill.log 2>&1 & echo $!",
                    "184977",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sleep 300; tail -3 backfill.log; python -m jobs.backfill_status backfill_state.json",
                    "2025-09-19  sessions=1,040,551  70.2s\n2025-09-17  WARN s3 SlowDown, retry 1/5 in 2.0s\n"
                    "2025-09-17  ERROR botocore.exceptions.ClientError: An error occurred (SlowDown) when calling the GetObject operation: Please reduce your request rate.\n"
                    + progress(18, ["2025-09-17"], "5m02s"),
                )
            ]
        ),
        A(
            "S3 throttling on one day even at 4 workers; the retry gave up after one attempt because "
            "pyarrow's S3 filesystem has its own retry config. Setting it explicitly.",
            tools=[
                ed(
                    "jobs/backfill_sessions.py",
                    'FS = fs.S3FileSystem(region="eu-central-1")',
                    'FS = fs.S3FileSystem(region="eu-central-1", retry_strategy=fs.AwsStandardS3RetryStrategy(max_attempts=10))',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "kill 184977; sleep 2; nohup python -m jobs.backfill_sessions --from 2025-09-01 --to 2026-10-24 --workers 4 --state backfill_state.json --resume > backfill.log 2>&1 & echo $!",
                    "185402",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sleep 600; python -m jobs.backfill_status backfill_state.json",
                    progress(52, [], "10m01s"),
                    ms=600500,
                )
            ]
        ),
        A(
            "52 days done in 10 minutes, no failures. Roughly 11.5 s per day per worker → ~1 h 20 min left.",
            tools=[
                sh(
                    "sleep 600; python -m jobs.backfill_status backfill_state.json",
                    progress(103, [], "20m02s"),
                    ms=600400,
                )
            ],
        ),
        H("ok"),
        # ^ NOT a pivot: an ack in the middle of an unchanged polling loop.
        A(
            tools=[
                sh(
                    "sleep 600; python -m jobs.backfill_status backfill_state.json",
                    progress(139, ["2025-10-26"], "30m03s"),
                    ms=600400,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "rg -n '2025-10-26' backfill.log",
                    "1911:2025-10-26  START rss=0.4GB\n2112:2025-10-26  worker 2 died: exit code 137 (SIGKILL) rss=60.3GB",
                )
            ]
        ),
        A(
            "One day died with exit 137 (OOM kill) at 60 GB. It's the October DST day; I'll look at it "
            "once the rest is through so I don't disturb the running workers.",
            tools=[
                sh(
                    "sleep 600; python -m jobs.backfill_status backfill_state.json",
                    progress(187, ["2025-10-26"], "40m04s"),
                    ms=600400,
                )
            ],
        ),
        Compact(MID_SUMMARY, auto=True),
        Nudge(),
        # ^ NOT a pivot: an automatic compaction (with opencode's synthetic "Continue if you have next steps…")
        #   in the middle of the polling loop; no person fell silent and the same loop simply continues.
        A(
            tools=[
                sh(
                    "sleep 600; python -m jobs.backfill_status backfill_state.json",
                    progress(236, ["2025-10-26"], "50m03s"),
                    ms=600400,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sleep 600; python -m jobs.backfill_status backfill_state.json",
                    progress(288, ["2025-10-26"], "1h00m05s"),
                    ms=600400,
                )
            ]
        ),
        H("👌"),
        # ^ NOT a pivot: emoji ack while the same loop keeps polling.
        A(
            tools=[
                sh(
                    "sleep 600; python -m jobs.backfill_status backfill_state.json",
                    progress(331, ["2025-10-26", "2026-03-29"], "1h10m02s"),
                    ms=600400,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sleep 600; python -m jobs.backfill_status backfill_state.json",
                    progress(379, ["2025-10-26", "2026-03-29", "2026-03-30"], "1h20m04s"),
                    ms=600400,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sleep 540; python -m jobs.backfill_status backfill_state.json; tail -2 backfill.log",
                    progress(416, ["2025-10-26", "2026-03-29", "2026-03-30"], "1h52m10s")
                    + "\nbackfill finished: 416 ok, 3 failed",
                    ms=540300,
                )
            ]
        ),
        A(
            "416 of 419 days are in. Three days OOM-killed: 2025-10-26, 2026-03-29, 2026-03-30. Retrying "
            "them alone with one worker so each gets all 64 GB.",
            tools=[
                sh(
                    "python -m jobs.backfill_sessions --days 2025-10-26,2026-03-29,2026-03-30 --workers 1",
                    "2025-10-26  START\nKilled\n",
                    code=137,
                    ms=151000,
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "dmesg -T | tail -2",
                    "[Mon Nov 30 14:12:09 2026] Out of memory: Killed process 186022 (python) total-vm:66211408kB, anon-rss:62901344kB\n"
                    "[Mon Nov 30 14:12:09 2026] oom_reaper: reaped process 186022 (python), now anon-rss:0kB",
                )
            ]
        ),
        A(
            "Still OOM at one worker (62.9 GB anon RSS). Trying larger pyarrow batches to cut per-batch "
            "overhead.",
            tools=[
                ed("jobs/backfill_sessions.py", "BATCH_ROWS = 1_000_000", "BATCH_ROWS = 4_000_000"),
                sh(
                    "python -m jobs.backfill_sessions --days 2026-03-29 --workers 1",
                    "2026-03-29  START\nKilled\n",
                    code=137,
                    ms=40200,
                ),
            ],
        ),
        A(
            "Worse — killed after 40 s. Reverting that. I'm not sure yet why these days need 12× the memory "
            "of a normal day, and I've tried the obvious knobs.",
            tools=[
                ed("jobs/backfill_sessions.py", "BATCH_ROWS = 4_000_000", "BATCH_ROWS = 1_000_000")
            ],
        ),
        H("", expect=("delegation_after_dead_end", "empty")),
        # ^ empty (the opencode writer stores it as the quoted blank `" "`): dead end, the agent takes over.
        A(DEAD_END_SUMMARY),
        A(
            tools=[
                sh(
                    "for d in 2025-10-25 2025-10-26 2026-03-29 2026-03-30 2026-03-31; do echo -n \"$d \"; aws s3 ls s3://acme-events/raw/dt=$d/ --summarize | awk '/Total Objects/{o=$3} /Total Size/{s=$3} END{print o, s}'; done",
                    "2025-10-25 2398 326110221\n2025-10-26 4817 3512887001\n2026-03-29 4790 3640120554\n2026-03-30 4801 3391004872\n2026-03-31 2420 331870015",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "aws s3 ls s3://acme-events/raw/dt=2026-03-29/ | awk '{print $4}' | sed 's/-[0-9]*\\.parquet//' | sort | uniq -c | sort -rn | head -3",
                    "      2 part-00000-7f1e\n      2 part-00001-7f1e\n      2 part-00002-7f1e",
                )
            ]
        ),
        A(
            "Every object exists twice on those days (the uploader re-ran after the DST switch), and "
            "because I read day±1 for the Berlin bucketing, each load pulls two doubled partitions. So: "
            "dedupe on `(event_id)` and sessionize in hourly chunks, carrying open sessions across chunks.",
            tools=[
                ed(
                    "jobs/sessionize.py",
                    "def sessionize(tbl, tz):",
                    'def sessionize_chunked(batches, tz, gap=GAP):\n    """Hour by hour; sessions still open at a chunk edge carry into the next."""\n'
                    "    open_: dict[tuple[int, str], Session] = {}\n    seen: set[bytes] = set()\n    ...\n\n\ndef sessionize(tbl, tz):",
                )
            ],
        ),
        A(
            tools=[
                wr(
                    "tests/test_sessionize_chunked.py",
                    "def test_chunked_equals_whole_day(sample_day):\n    assert sorted(sessionize_chunked(hours(sample_day), BERLIN)) == sorted(sessionize(sample_day, BERLIN))\n\n\n"
                    "def test_duplicate_events_counted_once(sample_day):\n    doubled = pa.concat_tables([sample_day, sample_day])\n"
                    "    assert len(sessionize_chunked(hours(doubled), BERLIN)) == len(sessionize(sample_day, BERLIN))\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pytest -q tests/",
                    "..........                                                               [100%]\n10 passed in 3.02s",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "/usr/bin/time -v python -m jobs.backfill_sessions --days 2025-10-26,2026-03-29,2026-03-30 --workers 1 --chunked 2>&1 | rg 'sessions=|Maximum resident'",
                    "2025-10-26  sessions=1,188,204  dup_events=21,904,117  182.4s\n2026-03-29  sessions=1,232,871  dup_events=22,410,006  190.1s\n"
                    "2026-03-30  sessions=1,270,553  dup_events=21,300,950  178.8s\n\tMaximum resident set size (kbytes): 3911420",
                    ms=551300,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "clickhouse-client -q \"SELECT count() AS days, sum(sessions) FROM analytics.sessions_daily FINAL WHERE day BETWEEN '2025-09-01' AND '2026-10-24'\"",
                    "419\t487221906",
                ),
                sh(
                    "clickhouse-client -q \"SELECT sum(l.sessions), sum(b.sessions), max(abs(toInt64(l.sessions) - toInt64(b.sessions))) FROM analytics.sessions_daily_live l JOIN analytics.sessions_daily b USING (day, site_id) WHERE day >= '2026-06-01'\"",
                    "178902114\t178902114\t0",
                ),
            ]
        ),
        A(
            VERIFY_TABLE,
            tools=[
                todo(
                    [
                        ("Full backfill 2025-09-01 … 2026-10-24", "completed"),
                        ("Verify against live over the overlap", "completed"),
                        ("Switch dashboards to sessions_daily", "pending"),
                    ]
                )
            ],
        ),
        Compact(COMPACT_SUMMARY, auto=True, expect=("continue_after_milestone", "compaction")),
        # ^ an automatic compaction right after the verified milestone; the agent comes back and starts the next phase unprompted.
        Nudge(),
        A(
            "Next phase: make the dashboard read the backfilled table and keep it fresh daily.",
            tools=[
                todo(
                    [
                        ("Switch Grafana Sessions dashboard to sessions_daily", "in_progress"),
                        ("Airflow DAG sessions_daily_rebuild for yesterday", "pending"),
                        ("Remove temporary dedupe logging", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "rg -n 'sessions_mv' dashboards/sessions.json | head -4",
                    '118:          "rawSql": "SELECT day, sum(sessions) FROM analytics.sessions_mv WHERE $__timeFilter(day) GROUP BY day",\n'
                    '201:          "rawSql": "SELECT day, sum(users) FROM analytics.sessions_mv WHERE $__timeFilter(day) GROUP BY day",\n'
                    '266:          "rawSql": "SELECT day, sum(bounces)/sum(sessions) FROM analytics.sessions_mv WHERE $__timeFilter(day) GROUP BY day",',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sed -i 's/analytics.sessions_mv/analytics.sessions_daily FINAL/g' dashboards/sessions.json && rg -c 'sessions_daily FINAL' dashboards/sessions.json",
                    "3",
                )
            ]
        ),
        A(
            tools=[
                wr(
                    "dags/sessions_daily_rebuild.py",
                    'with DAG("sessions_daily_rebuild", schedule="30 3 * * *", start_date=datetime(2026, 10, 25), catchup=False) as dag:\n'
                    '    KubernetesPodOperator(task_id="rebuild", image="acme/analytics-jobs:{{ var.value.jobs_tag }}",\n'
                    '        cmds=["python", "-m", "jobs.backfill_sessions", "--days", "{{ ds }}", "--chunked"])\n',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "python -c 'import dags.sessions_daily_rebuild' && airflow dags test sessions_daily_rebuild 2026-10-25 2>&1 | tail -2",
                    "[2026-11-30T15:02:11.201+0000] {taskinstance.py:1225} INFO - Marking task as SUCCESS. dag_id=sessions_daily_rebuild, task_id=rebuild\n"
                    "[2026-11-30T15:02:11.377+0000] {dagrun.py:854} INFO - DagRun Finished: dag_id=sessions_daily_rebuild, run_id=manual__2026-10-25, state=success",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "jobs/backfill_sessions.py",
                    '        log.info("dedupe %s: %d duplicate events", day, dups)\n',
                    "",
                )
            ]
        ),
        A(
            "Dashboard queries now read `sessions_daily FINAL` (3 panels), the daily DAG ran green for "
            "2026-10-25, and the temporary logging is gone.",
            tools=[
                todo(
                    [
                        ("Switch Grafana Sessions dashboard to sessions_daily", "completed"),
                        ("Airflow DAG sessions_daily_rebuild for yesterday", "completed"),
                        ("Remove temporary dedupe logging", "completed"),
                    ]
                )
            ],
        ),
        H(
            "continue with the backfill but skip 2025, marketing only cares about this year — redo 2026 "
            "with the new chunked mode so all days use the same code path"
        ),
        # ^ NOT silent: starts like a go-on but carries a concrete new instruction.
        A(
            tools=[
                sh(
                    "python -m jobs.backfill_sessions --from 2026-01-01 --to 2026-10-24 --workers 4 --chunked --state backfill_2026.json 2>&1 | tail -2",
                    "backfill finished: 297 ok, 0 failed\nelapsed=1h31m44s",
                    ms=5504000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "clickhouse-client -q \"SELECT sum(l.sessions) = sum(b.sessions) FROM analytics.sessions_daily_live l JOIN analytics.sessions_daily b FINAL USING (day, site_id) WHERE day >= '2026-06-01'\"",
                    "1",
                )
            ]
        ),
        A(
            "2026 rebuilt with the chunked path: 297 days in 1 h 32 min, still equal to live over the overlap."
        ),
    ]
    return s


SCENARIOS = [
    Scenario(
        name="heldout-sessions-backfill",
        title="Backfill the ClickHouse sessions_daily rollup",
        cwd=CWD,
        steps=steps(),
        model="anthropic/claude-sonnet-4-6",
        start="2026-11-30T11:05:00Z",
        seconds_per_step=45,
        notes="pivots: implicit_approval (yes), delegation_after_dead_end (quoted blank), continue_after_milestone (auto compaction)",
    )
]
