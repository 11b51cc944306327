# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: hunting a flaky Go test in a lease-renewal package (Codex CLI).

Codex stores an empty prompt verbatim, so silences here are real "" messages. Labelled: a dead end
broken by "" (delegation), a reproduced-and-fixed milestone followed by "go on". Negatives: "" at
session start, an interrupt followed by a directed correction, "…" after which the agent only asks,
and a short directed "ok, now run the tests" style message.
"""

from __future__ import annotations

from samplegen.heldout._kit import A, H, Interrupt, Kit, Scenario

FORMATS = ["codex"]

CWD = "/home/deniz/work/fleetd"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

TEST_SRC = """func TestLeaseRenewal_ExtendsBeforeExpiry(t *testing.T) {
	store := memstore.New()
	l, err := lease.Acquire(context.Background(), store, "node-7", 2*time.Second)
	require.NoError(t, err)

	time.Sleep(1500 * time.Millisecond)
	require.NoError(t, l.Renew(context.Background()))

	got, _ := store.Get("lease/node-7")
	require.True(t, got.ExpiresAt.After(time.Now().Add(1*time.Second)),
		"lease should have been extended, expires at %v", got.ExpiresAt)
}
"""

RENEW_SRC = """func (l *Lease) Renew(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.clock.Now().After(l.expiresAt) {
		return ErrExpired
	}
	l.expiresAt = l.clock.Now().Add(l.ttl)
	return l.store.CAS(ctx, l.key, l.rev, record{Owner: l.owner, ExpiresAt: l.expiresAt})
}
"""

STATUS = """Status so far, since I've run out of obvious next steps:

**Goal**: find why `TestLeaseRenewal_ExtendsBeforeExpiry` fails ~1 in 40 CI runs (`internal/lease`).

**What the CI failures say** (6 failures in the last 250 pipeline runs)
- always the same assertion: `lease should have been extended, expires at …`
- the printed `ExpiresAt` is 0.4–0.9 s in the future, i.e. *renewed*, just not by a full TTL
- all 6 on the `arm64` runner pool, none on `amd64`

**Tried, none reproduced it**
1. `go test -count=500 -race` locally → 500/500 pass
2. `GOMAXPROCS=1` + `-count=500` → pass
3. building the CI image locally → blocked, `registry.internal` needs a token I don't have
4. `-shuffle=on -count=300` → 1 failure, but in `TestLeaseStore_Watch` (different test, timeout)
5. `stress -p 8` for 15 min → killed by the timeout, no failure printed, no summary

**Suspects, not confirmed**
- the test mixes `time.Sleep` / `time.Now()` with the lease's injected `clock` → on a slow runner
  1.5 s of sleep can be > TTL - renew margin
- `memstore` CAS uses its own `time.Now()` for `ExpiresAt` rounding

**Next**: make it fail on purpose by slowing the test down (sleep jitter), read `memstore` CAS,
then replace real time with the fake clock in the test."""


def steps() -> list:
    return [
        H(""),
        # ^ NOT a pivot: an empty first message, no work before it; the agent just asks what to do.
        A("Hi — what would you like me to work on in `fleetd`?"),
        H(
            "TestLeaseRenewal_ExtendsBeforeExpiry in internal/lease is flaky in CI, maybe 1 in 40 "
            "runs. I've retried it away for two weeks. can you find out why and fix it properly, no "
            "retries or skips"
        ),
        A(
            "Let me read the test and the lease code first.",
            tools=[
                todo(
                    [
                        ("Read the flaky test and lease.Renew", "in_progress"),
                        ("Collect CI failure logs", "pending"),
                        ("Reproduce locally", "pending"),
                        ("Fix root cause", "pending"),
                        ("Prove it with a long stress run", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "rg -n 'func TestLeaseRenewal_ExtendsBeforeExpiry' -A 13 internal/lease/lease_test.go",
                    TEST_SRC,
                )
            ]
        ),
        A(
            tools=[
                sh("rg -n 'func \\(l \\*Lease\\) Renew' -A 9 internal/lease/lease.go", RENEW_SRC)
            ]
        ),
        A(
            "The lease uses an injected `clock`, but the test sleeps on real time. Pulling the CI history.",
            tools=[
                sh(
                    "gh run list --workflow ci.yml --limit 250 --json conclusion,databaseId,headSha | jq '[.[] | select(.conclusion==\"failure\")] | length'",
                    "19",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "for id in $(gh run list --workflow ci.yml --limit 250 --json conclusion,databaseId -q '.[] | select(.conclusion==\"failure\") | .databaseId'); do gh run view $id --log-failed 2>/dev/null | rg -q ExtendsBeforeExpiry && echo $id; done",
                    "11873402\n11869015\n11851177\n11840290\n11822741\n11809338",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh run view 11873402 --log-failed | rg -B2 -A8 'ExtendsBeforeExpiry'",
                    "test (arm64)\tRun tests\t--- FAIL: TestLeaseRenewal_ExtendsBeforeExpiry (1.52s)\n"
                    "test (arm64)\tRun tests\t    lease_test.go:48:\n"
                    "test (arm64)\tRun tests\t        \tError Trace:\t/src/internal/lease/lease_test.go:48\n"
                    "test (arm64)\tRun tests\t        \tError:      \tShould be true\n"
                    "test (arm64)\tRun tests\t        \tMessages:   \tlease should have been extended, expires at 2026-11-12 14:03:11.612 +0000 UTC\n"
                    "test (arm64)\tRun tests\tFAIL\n"
                    "test (arm64)\tRun tests\tFAIL\tgithub.com/acme/fleetd/internal/lease\t4.877s",
                )
            ]
        ),
        A(
            "6 of the 19 failed pipelines are this test, all on the `arm64` pool. Now trying to reproduce.",
            tools=[
                todo(
                    [
                        ("Read the flaky test and lease.Renew", "completed"),
                        ("Collect CI failure logs", "completed"),
                        ("Reproduce locally", "in_progress"),
                        ("Fix root cause", "pending"),
                        ("Prove it with a long stress run", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/lease/ -run TestLeaseRenewal_ExtendsBeforeExpiry -count=500 -race",
                    "ok  \tgithub.com/acme/fleetd/internal/lease\t771.214s",
                    ms=771300,
                )
            ]
        ),
        A(
            "500/500 pass with `-race` (12 min 51 s). Trying a single P to make scheduling worse.",
            tools=[
                sh(
                    "GOMAXPROCS=1 go test ./internal/lease/ -run TestLeaseRenewal_ExtendsBeforeExpiry -count=500",
                    "ok  \tgithub.com/acme/fleetd/internal/lease\t763.020s",
                    ms=763100,
                )
            ],
        ),
        A(
            "Still clean. The failures are arm64-only; let me try the CI image.",
            tools=[
                sh(
                    "docker build -f ci/Dockerfile.test -t fleetd-ci .",
                    "#3 [internal] load metadata for registry.internal/ci/golang:1.23-arm64\n"
                    "#3 ERROR: unexpected status from HEAD request to https://registry.internal/v2/ci/golang/manifests/1.23-arm64: 401 Unauthorized\n"
                    "------\n > [internal] load metadata for registry.internal/ci/golang:1.23-arm64:\n------\n"
                    "ERROR: failed to solve: registry.internal/ci/golang:1.23-arm64: failed to resolve source metadata: 401 Unauthorized",
                    code=1,
                )
            ],
        ),
        A(
            "I can't pull the CI base image (401 from `registry.internal`). Trying test order instead, "
            "in case another test leaves state behind.",
            tools=[
                sh(
                    "go test ./internal/lease/ -shuffle=on -count=300",
                    "-test.shuffle 1731422113904817000\n--- FAIL: TestLeaseStore_Watch (10.00s)\n"
                    "    store_test.go:77: timed out waiting for watch event after 10s\nFAIL\n"
                    "FAIL\tgithub.com/acme/fleetd/internal/lease\t2101.4s",
                    code=1,
                    ms=2101400,
                )
            ],
        ),
        A(
            "One failure in 300 shuffled runs, but in `TestLeaseStore_Watch`, not the test we're after. "
            "Running `stress` with 8 parallel copies for a while.",
            tools=[
                sh(
                    "go test -c -o /tmp/lease.test ./internal/lease/ && timeout 900 stress -p 8 /tmp/lease.test -test.run TestLeaseRenewal_ExtendsBeforeExpiry",
                    "5s: 24 runs so far, 0 failures\n10s: 48 runs so far, 0 failures\n15s: 80 runs so far, 0 failures\n",
                    code=124,
                    ms=900000,
                )
            ],
        ),
        A(
            "The stress run hit the 15-minute `timeout` and got killed; its progress output stopped after "
            "15 s, so I don't even know how many runs it finished. Five attempts, nothing reproduced, and "
            "I can't get the CI image. I'm not sure what the next productive step is."
        ),
        H("", expect=("delegation_after_dead_end", "empty")),
        # ^ a failure streak and an inconclusive last run, then an empty message: the agent regroups and acts on its own.
        A(STATUS),
        A(
            tools=[
                sh(
                    "rg -n 'func \\(s \\*Store\\) CAS' -A 14 internal/memstore/memstore.go",
                    "func (s *Store) CAS(ctx context.Context, key string, rev int64, r record) error {\n"
                    "\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\tcur, ok := s.data[key]\n"
                    "\tif ok && cur.rev != rev {\n\t\treturn ErrConflict\n\t}\n"
                    "\tr.ExpiresAt = r.ExpiresAt.Truncate(time.Second)\n"
                    "\ts.data[key] = entry{rev: rev + 1, rec: r}\n\ts.notify(key)\n\treturn nil\n}",
                )
            ]
        ),
        A(
            "`memstore.CAS` truncates `ExpiresAt` to whole seconds. With a 2 s TTL that alone can eat "
            "up to 999 ms. Combined with the 1.5 s real sleep, the assertion `ExpiresAt > now + 1s` has "
            "a margin between ~0 and 1 s depending on where in the second the renew lands and how late "
            "the sleep wakes. Testing that by adding sleep jitter.",
            tools=[
                ed(
                    "internal/lease/lease_test.go",
                    "\ttime.Sleep(1500 * time.Millisecond)",
                    "\ttime.Sleep(1500*time.Millisecond + time.Duration(rand.Intn(300))*time.Millisecond) // TEMP jitter",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/lease/ -run TestLeaseRenewal_ExtendsBeforeExpiry -count=200 2>&1 | tail -6",
                    "        \tMessages:   \tlease should have been extended, expires at 2026-11-30 10:41:07 +0000 UTC\n"
                    "--- FAIL: TestLeaseRenewal_ExtendsBeforeExpiry (1.79s)\n"
                    "        \tMessages:   \tlease should have been extended, expires at 2026-11-30 10:41:12 +0000 UTC\n"
                    "FAIL\nFAIL\tgithub.com/acme/fleetd/internal/lease\t338.1s\nFAIL",
                    code=1,
                    ms=338100,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/lease/ -run TestLeaseRenewal_ExtendsBeforeExpiry -count=200 2>&1 | rg -c -- '--- FAIL'",
                    "37",
                    code=0,
                )
            ]
        ),
        A(
            "Reproduced: 37 of 200 fail with up to 300 ms of extra sleep — the arm64 runners are slower "
            "to wake from `Sleep`. Root cause is the test, not the lease: it measures real time against a "
            "store that rounds. Fixing it with the fake clock the package already has.",
            tools=[
                todo(
                    [
                        ("Read the flaky test and lease.Renew", "completed"),
                        ("Collect CI failure logs", "completed"),
                        ("Reproduce locally", "completed"),
                        ("Fix root cause", "in_progress"),
                        ("Prove it with a long stress run", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "internal/lease/lease_test.go",
                    '\tstore := memstore.New()\n\tl, err := lease.Acquire(context.Background(), store, "node-7", 2*time.Second)\n'
                    "\trequire.NoError(t, err)\n\n\ttime.Sleep(1500*time.Millisecond + time.Duration(rand.Intn(300))*time.Millisecond) // TEMP jitter\n"
                    '\trequire.NoError(t, l.Renew(context.Background()))\n\n\tgot, _ := store.Get("lease/node-7")\n'
                    "\trequire.True(t, got.ExpiresAt.After(time.Now().Add(1*time.Second)),",
                    "\tclk := clocktest.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))\n"
                    "\tstore := memstore.New(memstore.WithClock(clk))\n"
                    '\tl, err := lease.Acquire(context.Background(), store, "node-7", 2*time.Second, lease.WithClock(clk))\n'
                    "\trequire.NoError(t, err)\n\n\tclk.Advance(1500 * time.Millisecond)\n"
                    '\trequire.NoError(t, l.Renew(context.Background()))\n\n\tgot, _ := store.Get("lease/node-7")\n'
                    "\trequire.Equal(t, clk.Now().Add(2*time.Second).Truncate(time.Second), got.ExpiresAt,",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/lease/ -run TestLeaseRenewal -count=1 -v 2>&1 | tail -5",
                    "# github.com/acme/fleetd/internal/lease_test [github.com/acme/fleetd/internal/lease.test]\n"
                    "internal/lease/lease_test.go:37:33: undefined: memstore.WithClock\nFAIL\tgithub.com/acme/fleetd/internal/lease [build failed]",
                    code=1,
                )
            ]
        ),
        A(
            "`memstore` has no clock option yet; adding one (defaults to the real clock).",
            tools=[
                ed(
                    "internal/memstore/memstore.go",
                    "func New() *Store {\n\treturn &Store{data: map[string]entry{}}\n}",
                    "type Option func(*Store)\n\n// WithClock lets tests drive expiry rounding with a fake clock.\n"
                    "func WithClock(c clock.Clock) Option { return func(s *Store) { s.clock = c } }\n\n"
                    "func New(opts ...Option) *Store {\n\ts := &Store{data: map[string]entry{}, clock: clock.Real{}}\n"
                    "\tfor _, o := range opts {\n\t\to(s)\n\t}\n\treturn s\n}",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/lease/ ./internal/memstore/ -count=1",
                    "ok  \tgithub.com/acme/fleetd/internal/lease\t0.412s\nok  \tgithub.com/acme/fleetd/internal/memstore\t0.088s",
                )
            ]
        ),
        A(
            "Now the long run. 10,000 iterations takes about 40 s with the fake clock.",
            tools=[
                sh(
                    "go test ./internal/lease/ -run TestLeaseRenewal_ExtendsBeforeExpiry -count=10000",
                    "",
                    code=130,
                    ms=9100,
                )
            ],
        ),
        Interrupt(),
        H("don't bother with 10k, 2000 with -race is enough and it's what CI does"),
        # ^ NOT silent: an interrupt plus a concrete correction.
        A(
            tools=[
                sh(
                    "go test ./internal/lease/ -run TestLeaseRenewal_ExtendsBeforeExpiry -count=2000 -race",
                    "ok  \tgithub.com/acme/fleetd/internal/lease\t21.604s",
                    ms=21604,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/lease/ -run TestLeaseRenewal_ExtendsBeforeExpiry -count=2000 -race -cpu 1,2,8",
                    "ok  \tgithub.com/acme/fleetd/internal/lease\t63.911s",
                    ms=63911,
                )
            ]
        ),
        A(
            "Fixed and proven:\n\n| run | before | after |\n|---|---|---|\n| 200× with 0–300 ms sleep jitter | 37 failed (18.5 %) | n/a (no sleep) |\n"
            "| 2000× `-race` | 0 failed, 12 min 51 s / 500 | 0 failed, 21.6 s |\n| 2000× `-race -cpu 1,2,8` | — | 0 failed, 63.9 s |\n\n"
            "The test now runs in ~10 ms instead of 1.5 s. Root cause: real `time.Sleep` against a store "
            "that truncates `ExpiresAt` to the second; slow arm64 wake-ups pushed it past the margin.",
            tools=[
                todo(
                    [
                        ("Read the flaky test and lease.Renew", "completed"),
                        ("Collect CI failure logs", "completed"),
                        ("Reproduce locally", "completed"),
                        ("Fix root cause", "completed"),
                        ("Prove it with a long stress run", "completed"),
                    ]
                )
            ],
        ),
        H("go on", expect=("continue_after_milestone", "ack")),
        # ^ milestone with numbers, then a bare "go on": the agent starts a new phase (sweeping the repo for the same pattern).
        A(
            "The same pattern probably exists elsewhere: tests that sleep on real time while the code "
            "under test has an injectable clock. Sweeping the repo for it.",
            tools=[
                todo(
                    [
                        ("Find tests mixing time.Sleep with injectable clocks", "in_progress"),
                        ("Convert each to the fake clock", "pending"),
                        ("Look at TestLeaseStore_Watch timeout seen under -shuffle", "pending"),
                        ("Full -race run of ./...", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "rg -l 'time\\.Sleep' --glob '*_test.go' | xargs rg -l 'WithClock|clock\\.Clock'",
                    "internal/lease/store_test.go\ninternal/scheduler/backoff_test.go\ninternal/heartbeat/monitor_test.go\ninternal/ratelimit/bucket_test.go",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "rg -n 'time\\.Sleep' internal/scheduler/backoff_test.go internal/heartbeat/monitor_test.go internal/ratelimit/bucket_test.go internal/lease/store_test.go",
                    "internal/scheduler/backoff_test.go:22:\ttime.Sleep(120 * time.Millisecond)\n"
                    "internal/scheduler/backoff_test.go:31:\ttime.Sleep(250 * time.Millisecond)\n"
                    "internal/heartbeat/monitor_test.go:58:\ttime.Sleep(3 * time.Second)\n"
                    "internal/ratelimit/bucket_test.go:17:\ttime.Sleep(time.Second / 10)\n"
                    "internal/lease/store_test.go:71:\ttime.Sleep(50 * time.Millisecond) // let the watcher start",
                )
            ]
        ),
        A(
            "Five sleeps in four files. Starting with the heartbeat monitor (3 s, the slowest).",
            tools=[
                sh(
                    "sed -n '45,70p' internal/heartbeat/monitor_test.go",
                    "func TestMonitor_MarksNodeDead(t *testing.T) {\n\tm := heartbeat.NewMonitor(heartbeat.WithTimeout(2 * time.Second))\n"
                    '\tm.Beat("node-3")\n\n\ttime.Sleep(3 * time.Second)\n\n\trequire.Equal(t, heartbeat.Dead, m.State("node-3"))\n}',
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "internal/heartbeat/monitor_test.go",
                    '\tm := heartbeat.NewMonitor(heartbeat.WithTimeout(2 * time.Second))\n\tm.Beat("node-3")\n\n\ttime.Sleep(3 * time.Second)',
                    "\tclk := clocktest.NewFake(time.Unix(0, 0))\n\tm := heartbeat.NewMonitor(heartbeat.WithTimeout(2*time.Second), heartbeat.WithClock(clk))\n"
                    '\tm.Beat("node-3")\n\n\tclk.Advance(3 * time.Second)',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/heartbeat/ -count=200 -race",
                    "ok  \tgithub.com/acme/fleetd/internal/heartbeat\t1.930s",
                )
            ]
        ),
        H("mhm"),
        # ^ NOT a pivot: an ack inside the sweep (one test converted, three to go); nothing changes.
        A(
            "Backoff test next.",
            tools=[
                ed(
                    "internal/scheduler/backoff_test.go",
                    "\ttime.Sleep(120 * time.Millisecond)",
                    "\tclk.Advance(120 * time.Millisecond)",
                ),
                ed(
                    "internal/scheduler/backoff_test.go",
                    "\ttime.Sleep(250 * time.Millisecond)",
                    "\tclk.Advance(250 * time.Millisecond)",
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/scheduler/ -count=200 -race",
                    "--- FAIL: TestBackoff_CapsAtMax (0.00s)\n    backoff_test.go:40: expected next attempt at 00:00:00.370, got 00:00:00.250\nFAIL\n"
                    "FAIL\tgithub.com/acme/fleetd/internal/scheduler\t0.611s",
                    code=1,
                )
            ]
        ),
        A(
            "The scheduler reads the clock in a goroutine, so `Advance` returns before it wakes. Using the "
            "fake clock's `BlockUntil(1)` so the test waits until the timer is registered.",
            tools=[
                ed(
                    "internal/scheduler/backoff_test.go",
                    "\tclk.Advance(250 * time.Millisecond)",
                    "\tclk.BlockUntil(1)\n\tclk.Advance(250 * time.Millisecond)",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/scheduler/ -count=200 -race",
                    "ok  \tgithub.com/acme/fleetd/internal/scheduler\t0.902s",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "internal/ratelimit/bucket_test.go",
                    "\ttime.Sleep(time.Second / 10)",
                    "\tclk.Advance(time.Second / 10)",
                ),
                sh(
                    "go test ./internal/ratelimit/ -count=200 -race",
                    "ok  \tgithub.com/acme/fleetd/internal/ratelimit\t0.377s",
                ),
            ]
        ),
        A(
            "The `store_test.go` sleep is different: it waits for a watcher goroutine to subscribe, which "
            "is the `TestLeaseStore_Watch` timeout I saw under `-shuffle`. Replacing it with a ready channel.",
            tools=[
                ed(
                    "internal/lease/store_test.go",
                    "\ttime.Sleep(50 * time.Millisecond) // let the watcher start",
                    "\t<-w.Ready()",
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "internal/lease/store.go",
                    "func (s *Store) Watch(ctx context.Context, key string) *Watcher {\n\tw := &Watcher{ch: make(chan Event, 1)}",
                    "func (s *Store) Watch(ctx context.Context, key string) *Watcher {\n\tw := &Watcher{ch: make(chan Event, 1), ready: make(chan struct{})}",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "go test ./internal/lease/ -shuffle=on -count=300 -race",
                    "-test.shuffle 1733001290116400000\nok  \tgithub.com/acme/fleetd/internal/lease\t14.077s",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "go test ./... -race -count=3 2>&1 | tail -12",
                    "ok  \tgithub.com/acme/fleetd/cmd/fleetd\t0.051s\nok  \tgithub.com/acme/fleetd/internal/api\t3.118s\n"
                    "ok  \tgithub.com/acme/fleetd/internal/heartbeat\t0.044s\nok  \tgithub.com/acme/fleetd/internal/lease\t0.501s\n"
                    "ok  \tgithub.com/acme/fleetd/internal/memstore\t0.092s\nok  \tgithub.com/acme/fleetd/internal/ratelimit\t0.021s\n"
                    "ok  \tgithub.com/acme/fleetd/internal/scheduler\t0.133s\nok  \tgithub.com/acme/fleetd/internal/store\t1.870s",
                    ms=48700,
                )
            ]
        ),
        A(
            "Sweep done: all five real-time sleeps are gone, `./...` passes 3× under `-race`, and the "
            "package test time dropped from 4.9 s to 0.5 s (lease) and 3.4 s to 0.04 s (heartbeat).",
            tools=[
                todo(
                    [
                        ("Find tests mixing time.Sleep with injectable clocks", "completed"),
                        ("Convert each to the fake clock", "completed"),
                        ("Look at TestLeaseStore_Watch timeout seen under -shuffle", "completed"),
                        ("Full -race run of ./...", "completed"),
                    ]
                )
            ],
        ),
        H("…"),
        # ^ NOT a pivot: after this silence the agent only asks what to do next and changes nothing.
        A(
            "Everything I set out to do is done. Do you want me to open a PR now, split it into two "
            "(lease fix vs. the sweep), or leave the branch for you to review?"
        ),
        H("one PR is fine. use the commit message style from CONTRIBUTING"),
        # ^ NOT silent: a direction with content.
        A(
            tools=[
                sh(
                    "sed -n '/## Commits/,/##/p' CONTRIBUTING.md",
                    "## Commits\n\n`<pkg>: <imperative summary>` under 72 chars, body says why, wrap at 72.\n\n##",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "git checkout -b fix/lease-fake-clock && git add -A internal && git commit -q -F - <<'EOF'\n"
                    "lease: drive renewal and related tests with a fake clock\n\n"
                    "TestLeaseRenewal_ExtendsBeforeExpiry slept 1.5s on real time while\nmemstore truncates ExpiresAt to the second; slow arm64 wake-ups\n"
                    "pushed it past the margin (1 in 40 CI runs). Use clocktest.Fake\nthere and in four other tests that slept on real time.\nEOF\n"
                    "git push -u origin fix/lease-fake-clock",
                    "[fix/lease-fake-clock 4c1e2a9] lease: drive renewal and related tests with a fake clock\n 8 files changed, 61 insertions(+), 19 deletions(-)\n"
                    "remote: Create a pull request for 'fix/lease-fake-clock' on GitHub by visiting:\nremote:      https://github.com/acme/fleetd/pull/new/fix/lease-fake-clock",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh pr create --fill --label flaky-test",
                    "https://github.com/acme/fleetd/pull/2291",
                )
            ]
        ),
        A("Opened https://github.com/acme/fleetd/pull/2291 with one commit."),
        H("ok, now run the arm64 job on it and tell me if it's green"),
        # ^ NOT silent: starts with "ok" but names new work.
        A(
            tools=[
                sh(
                    "gh workflow run ci.yml --ref fix/lease-fake-clock -f runner=arm64 && sleep 5 && gh run list --branch fix/lease-fake-clock --limit 1 --json databaseId -q '.[0].databaseId'",
                    "11890551",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh run watch 11890551 --exit-status",
                    "✓ test (arm64) in 6m41s\n✓ lint in 1m12s\n\n✓ Run CI (11890551) completed with 'success'",
                    ms=401000,
                )
            ]
        ),
        A(
            "The arm64 job is green on #2291 (test job 6 min 41 s, previously ~8 min because of the sleeps)."
        ),
    ]


SCENARIOS = [
    Scenario(
        name="heldout-flaky-lease-test",
        title="Flaky lease renewal test on arm64 runners",
        cwd=CWD,
        steps=steps(),
        model="gpt-5.2-codex",
        start="2026-11-12T15:20:00Z",
        seconds_per_step=35,
        notes="pivots: delegation_after_dead_end (empty), continue_after_milestone (go on)",
    )
]
