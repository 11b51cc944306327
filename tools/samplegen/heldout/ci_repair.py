# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: repairing a GitHub Actions pipeline after the runner image moved to Ubuntu 24.04 (opencode).

Labelled: "carry on" after a streak of failed CI attempts and an inconclusive re-run (delegation
after a dead end); "lgtm" after the pipeline is green with timings (continue after milestone);
an empty message after the agent proposed splitting the matrix and the person had asked for
exactly that kind of plan (implicit approval). Negatives: a manual compaction followed at once by
a directed message, "thx" between routine job fixes, an interrupt with a correction.
"""

from __future__ import annotations

from samplegen.heldout._kit import A, Compact, H, Interrupt, Kit, Scenario

FORMATS = ["opencode"]

CWD = "/home/lukas/oss/tileserver-rs"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

WORKFLOW = """name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        rust: [stable, 1.74.0]
        python: ["3.8", "3.12"]
    services:
      postgis:
        image: postgis/postgis:14-3.3
        env: { POSTGRES_PASSWORD: ci }
        ports: ["5432:5432"]
    steps:
      - uses: actions/checkout@v3
      - uses: actions/setup-python@v4
        with: { python-version: "${{ matrix.python }}" }
      - uses: actions-rs/toolchain@v1
        with: { toolchain: "${{ matrix.rust }}" }
      - uses: actions/cache@v3
        with:
          path: target
          key: ${{ runner.os }}-cargo-${{ hashFiles('Cargo.lock') }}
      - run: docker-compose -f tests/compose.yml up -d tiles-fixture
      - run: pip install -r bindings/python/requirements-dev.txt
      - run: cargo test --all-features
      - run: pytest bindings/python/tests
"""

MANUAL_SUMMARY = """## Goal
Get tileserver-rs CI green again after GitHub's `ubuntu-latest` moved to 24.04.

## Fixed so far
- Python 3.8 is not on the 24.04 toolcache → matrix now 3.9 / 3.12 (3.8 is EOL, user agreed).
- `docker-compose` v1 binary is gone → `docker compose` plugin.
- `actions-rs/toolchain` (archived, Node 12) → `dtolnay/rust-toolchain`.
- Cache key now includes the toolchain; `actions/*` bumped to v4.
- PostGIS service healthcheck added; integration tests wait for it.

## State
Linux jobs green (4/4). 11 min wall time. macOS job not touched yet.

## Files
.github/workflows/ci.yml, tests/compose.yml, bindings/python/pyproject.toml"""

STUCK = """Linux is still red and I'm going in circles:

1. run 9120331: `pytest` → `psycopg.OperationalError: connection refused` (PostGIS not up yet)
2. added `pg_isready` loop → run 9120518: same error on 2 of 4 jobs
3. added a service `options: --health-cmd pg_isready` → run 9120702: `cargo test` now fails
   `tile_cache::tests::evicts_lru` (unrelated?) and pytest passes
4. re-ran 9120702 → cancelled after 30 min, the `cargo test` step hung at `test render::tests::mvt_large has been running for over 60 seconds`

I can't tell whether the hang and the LRU failure are new flakiness from the runner change or
something I caused with the cache key change."""

RECAP = """Recap before I dig into the hang:

**Fixed**: Python 3.8 → 3.9, `docker compose` v2, `dtolnay/rust-toolchain`, `actions/*@v4`, PostGIS health check.
**Red**: `cargo test` — `tile_cache::tests::evicts_lru` failed once, `render::tests::mvt_large` hung once (>30 min).
**Suspicion**: 24.04 runners have 4 vCPUs instead of 2; both tests assume ordering/timing of
threads. My cache-key change also means the first run builds from scratch (no stale artefacts).

**Plan**
1. Reproduce with `--test-threads=4` locally in the 24.04 image.
2. Look at `evicts_lru` for a timing assumption.
3. Put a `timeout-minutes` on the job so a hang costs 15 min, not 6 h."""


def steps() -> list:
    s: list = [
        H(
            "CI has been red on main since monday, nothing changed on our side. I think github bumped "
            "ubuntu-latest. can you get it green?"
        ),
        A(
            "Looking at the workflow and the latest failed run.",
            tools=[rd(".github/workflows/ci.yml", WORKFLOW)],
        ),
        A(
            tools=[
                sh(
                    "gh run list --branch main --limit 5",
                    "completed\tfailure\tbump geo crate\tci\tmain\tpush\t9119870\t2m11s\t2026-11-24T08:12:31Z\n"
                    "completed\tfailure\tdocs: tile URL examples\tci\tmain\tpush\t9118002\t1m58s\t2026-11-23T19:40:02Z\n"
                    "completed\tsuccess\trelease 0.14.2\tci\tmain\tpush\t9101377\t14m2s\t2026-11-20T10:01:44Z",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh run view 9119870 --log-failed | rg -m6 'Error|error|not found'",
                    "test (stable, 3.8)\tSet up job\tImage: ubuntu-24.04\n"
                    "test (stable, 3.8)\tRun actions/setup-python@v4\t##[error]The version '3.8' with architecture 'x64' was not found for Ubuntu 24.04.\n"
                    "test (stable, 3.12)\tRun docker-compose -f tests/compose.yml up -d tiles-fixture\t/home/runner/work/_temp/1b2c.sh: line 1: docker-compose: command not found\n"
                    "test (stable, 3.12)\tRun docker-compose -f tests/compose.yml up -d tiles-fixture\t##[error]Process completed with exit code 127.\n"
                    "test (1.74.0, 3.12)\tRun actions-rs/toolchain@v1\t##[warning]Node.js 12 actions are deprecated.",
                )
            ]
        ),
        A(
            "Confirmed: `ubuntu-latest` is now 24.04. Three breakages so far: no Python 3.8 in the "
            "toolcache, no `docker-compose` v1 binary, and the archived `actions-rs/toolchain`.",
            tools=[
                todo(
                    [
                        ("Python 3.8 not available on 24.04", "in_progress"),
                        ("docker-compose v1 → docker compose", "pending"),
                        ("Replace actions-rs/toolchain", "pending"),
                        ("Bump actions/* to v4, fix cache key", "pending"),
                        ("Green run on main", "pending"),
                    ]
                )
            ],
        ),
        A(
            "Python 3.8 has been EOL since October 2024. I can either pin the job to `ubuntu-22.04` to keep 3.8, or move the matrix to 3.9. Which do you prefer?"
        ),
        H("drop 3.8, bump the min in pyproject too"),
        # ^ NOT silent: a decision with content.
        A(
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    '        python: ["3.8", "3.12"]',
                    '        python: ["3.9", "3.12"]',
                ),
                ed(
                    "bindings/python/pyproject.toml",
                    'requires-python = ">=3.8"',
                    'requires-python = ">=3.9"',
                ),
            ]
        ),
        A(
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    "      - run: docker-compose -f tests/compose.yml up -d tiles-fixture",
                    "      - run: docker compose -f tests/compose.yml up -d --wait tiles-fixture",
                )
            ]
        ),
        H("thx"),
        # ^ NOT a pivot: an ack between two routine workflow edits.
        A(
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    '      - uses: actions-rs/toolchain@v1\n        with: { toolchain: "${{ matrix.rust }}" }',
                    '      - uses: dtolnay/rust-toolchain@master\n        with: { toolchain: "${{ matrix.rust }}" }',
                )
            ]
        ),
        A(
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    "      - uses: actions/checkout@v3",
                    "      - uses: actions/checkout@v4",
                ),
                ed(
                    ".github/workflows/ci.yml",
                    "      - uses: actions/setup-python@v4",
                    "      - uses: actions/setup-python@v5",
                ),
                ed(
                    ".github/workflows/ci.yml",
                    "      - uses: actions/cache@v3\n        with:\n          path: target\n          key: ${{ runner.os }}-cargo-${{ hashFiles('Cargo.lock') }}",
                    "      - uses: actions/cache@v4\n        with:\n          path: |\n            ~/.cargo/registry\n            target\n          key: ${{ runner.os }}-${{ matrix.rust }}-cargo-${{ hashFiles('Cargo.lock') }}",
                ),
            ]
        ),
        A(
            tools=[
                sh(
                    "actionlint .github/workflows/ci.yml && git switch -c ci/ubuntu-24 && git commit -qam 'ci: adapt to ubuntu-24.04 runners' && git push -qu origin ci/ubuntu-24 && sleep 20 && gh run list --branch ci/ubuntu-24 --limit 1 --json databaseId -q '.[0].databaseId'",
                    "Switched to a new branch 'ci/ubuntu-24'\n9120331",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh run watch 9120331 --exit-status 2>&1 | tail -6",
                    "✓ test (stable, 3.12) › Run cargo test --all-features\nX test (stable, 3.12) › Run pytest bindings/python/tests\n"
                    "X test (1.74.0, 3.9) › Run pytest bindings/python/tests\n✓ test (stable, 3.9)\n✓ test (1.74.0, 3.12)\n"
                    "X Run ci (9120331) completed with 'failure'",
                    code=1,
                    ms=702000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh run view 9120331 --log-failed | rg -m2 'OperationalError'",
                    'test (stable, 3.12)\tRun pytest bindings/python/tests\tE   psycopg.OperationalError: connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection refused\n'
                    'test (1.74.0, 3.9)\tRun pytest bindings/python/tests\tE   psycopg.OperationalError: connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection refused',
                )
            ]
        ),
        A(
            "PostGIS isn't accepting connections when pytest starts on 2 of 4 jobs. Adding a wait loop.",
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    "      - run: pytest bindings/python/tests",
                    "      - run: for i in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 && break; sleep 2; done\n      - run: pytest bindings/python/tests",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "git commit -qam 'ci: wait for postgis' && git push -q && sleep 20 && gh run watch $(gh run list --branch ci/ubuntu-24 --limit 1 --json databaseId -q '.[0].databaseId') --exit-status 2>&1 | tail -3",
                    "X test (stable, 3.9) › Run pytest bindings/python/tests\nX test (1.74.0, 3.12) › Run pytest bindings/python/tests\nX Run ci (9120518) completed with 'failure'",
                    code=1,
                    ms=688000,
                )
            ]
        ),
        A(
            "Same error on 2 of 4 jobs despite the loop; `pg_isready` returns as soon as the postmaster listens, before PostGIS extensions finish initialising. Moving to a service health check instead.",
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    '        env: { POSTGRES_PASSWORD: ci }\n        ports: ["5432:5432"]',
                    '        env: { POSTGRES_PASSWORD: ci }\n        ports: ["5432:5432"]\n        options: >-\n          --health-cmd "psql -U postgres -c \'select postgis_version()\'"\n          --health-interval 5s --health-timeout 5s --health-retries 20',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "git commit -qam 'ci: postgis health check' && git push -q && sleep 20 && gh run watch $(gh run list --branch ci/ubuntu-24 --limit 1 --json databaseId -q '.[0].databaseId') --exit-status 2>&1 | tail -4",
                    "✓ test (stable, 3.9) › Run pytest bindings/python/tests\nX test (stable, 3.12) › Run cargo test --all-features\n"
                    "    thread 'tile_cache::tests::evicts_lru' panicked at src/tile_cache.rs:212:9:\n    assertion `left == right` failed\nX Run ci (9120702) completed with 'failure'",
                    code=1,
                    ms=744000,
                )
            ]
        ),
        A(
            "pytest passes now, but `cargo test` failed in `tile_cache::tests::evicts_lru`, which I haven't touched. Re-running to see if it's flaky.",
            tools=[
                sh(
                    'gh run rerun 9120702 && sleep 1800 && gh run view 9120702 --json status,conclusion -q \'.status + " " + (.conclusion // "-")\'',
                    "in_progress -",
                    ms=1800000,
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "gh run view 9120702 --log | rg 'has been running for over' | tail -1; gh run cancel 9120702",
                    "test (1.74.0, 3.12)\tRun cargo test --all-features\ttest render::tests::mvt_large has been running for over 60 seconds\n✓ Request to cancel workflow 9120702 submitted.",
                )
            ]
        ),
        A(STUCK),
        H("carry on", expect=("delegation_after_dead_end", "ack")),
        # ^ four red/hung runs and no theory; "carry on" leaves the next move to the agent, which recaps and investigates.
        A(RECAP),
        A(
            tools=[
                sh(
                    "docker run --rm -v $PWD:/src -w /src --cpus 4 ghcr.io/catthehacker/ubuntu:act-24.04 bash -lc 'curl -sSf https://sh.rustup.rs | sh -s -- -y -q && . ~/.cargo/env && cargo test tile_cache -- --test-threads=4 2>&1 | tail -4'",
                    "test tile_cache::tests::evicts_lru ... FAILED\n\nfailures:\n    tile_cache::tests::evicts_lru\n\ntest result: FAILED. 11 passed; 1 failed; 0 ignored; 0 measured; 59 filtered out; finished in 0.31s",
                    code=101,
                    ms=241000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sed -n '195,215p' src/tile_cache.rs",
                    "    #[test]\n    fn evicts_lru() {\n        let cache = TileCache::new(3);\n        for z in 0..4 {\n            cache.insert(key(z), tile(z));\n        }\n"
                    "        // z=0 is the least recently used\n        assert_eq!(cache.get(&key(0)), None);\n        assert_eq!(METRICS.evictions.load(Ordering::Relaxed), 1);\n    }",
                )
            ]
        ),
        A(
            "Reproduced with 4 threads. `METRICS` is a process-wide static; other cache tests running in parallel also evict, so the count is 2–3 instead of 1. With 2 vCPUs they rarely overlapped. Making the counter per-cache.",
            tools=[
                ed(
                    "src/tile_cache.rs",
                    "        assert_eq!(METRICS.evictions.load(Ordering::Relaxed), 1);",
                    "        assert_eq!(cache.stats().evictions, 1);",
                ),
                ed(
                    "src/tile_cache.rs",
                    "            METRICS.evictions.fetch_add(1, Ordering::Relaxed);",
                    "            METRICS.evictions.fetch_add(1, Ordering::Relaxed);\n            self.stats.evictions.fetch_add(1, Ordering::Relaxed);",
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "cargo test tile_cache -- --test-threads=8 2>&1 | tail -1",
                    "test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 59 filtered out; finished in 0.28s",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sed -n '1,30p' src/render/tests.rs | rg -n 'mvt_large|thread::sleep|recv\\('",
                    "14:fn mvt_large() {\n19:    let (tx, rx) = std::sync::mpsc::sync_channel(0);\n26:    let tile = rx.recv().unwrap();",
                )
            ]
        ),
        A(
            "`mvt_large` uses a rendezvous channel (`sync_channel(0)`) and the renderer pool's workers can all be busy with the other render tests, so the send blocks forever on 4 threads. A bounded wait plus its own pool fixes it.",
            tools=[
                ed(
                    "src/render/tests.rs",
                    "    let (tx, rx) = std::sync::mpsc::sync_channel(0);",
                    "    let pool = RenderPool::new(2);\n    let (tx, rx) = std::sync::mpsc::sync_channel(1);",
                ),
                ed(
                    "src/render/tests.rs",
                    "    let tile = rx.recv().unwrap();",
                    '    let tile = rx.recv_timeout(Duration::from_secs(20)).expect("render timed out");',
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "for i in $(seq 1 20); do cargo test -q render -- --test-threads=8 2>&1 | tail -1; done | sort | uniq -c",
                    "     20 test result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 62 filtered out; finished in 3.41s",
                    ms=88000,
                )
            ]
        ),
        A(
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    "  test:\n    runs-on: ubuntu-latest",
                    "  test:\n    runs-on: ubuntu-latest\n    timeout-minutes: 25",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "git commit -qam 'tests: per-cache eviction stats, bounded render wait; ci: job timeout' && git push -q && sleep 20 && gh run watch $(gh run list --branch ci/ubuntu-24 --limit 1 --json databaseId -q '.[0].databaseId') --exit-status 2>&1 | tail -6",
                    "✓ test (stable, 3.9) in 10m41s\n✓ test (stable, 3.12) in 10m58s\n✓ test (1.74.0, 3.9) in 11m02s\n✓ test (1.74.0, 3.12) in 10m49s\n\n✓ Run ci (9121140) completed with 'success'",
                    ms=668000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "for i in 1 2 3; do gh run rerun 9121140 && sleep 700 && gh run view 9121140 --json conclusion -q .conclusion; done",
                    "success\nsuccess\nsuccess",
                    ms=2110000,
                )
            ]
        ),
        A(
            "Linux is green, four times in a row:\n\n| job | before (last green, 22.04) | now (24.04) |\n|---|---|---|\n| wall time | 14 m 2 s | 11 m 2 s |\n"
            "| runs green | 0 of last 6 | 4 of 4 |\n| flaky tests fixed | — | `evicts_lru` (shared static), `mvt_large` (rendezvous channel) |",
            tools=[
                todo(
                    [
                        ("Python 3.8 not available on 24.04", "completed"),
                        ("docker-compose v1 → docker compose", "completed"),
                        ("Replace actions-rs/toolchain", "completed"),
                        ("Bump actions/* to v4, fix cache key", "completed"),
                        ("Green run on main", "completed"),
                    ]
                )
            ],
        ),
        H("lgtm", expect=("continue_after_milestone", "ack")),
        # ^ green runs with timings, then "lgtm": the agent moves from repair to hardening the pipeline on its own.
        A(
            "Since it's green, the next useful things are making it harder to break this way again: pin the runner image, cache the Rust toolchain properly, and make the checks required.",
            tools=[
                todo(
                    [
                        ("Pin runs-on to ubuntu-24.04 (no silent bumps)", "in_progress"),
                        ("Swatinem/rust-cache instead of hand-rolled cache", "pending"),
                        ("Dependabot for github-actions", "pending"),
                        ("Branch protection: required checks", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    "    runs-on: ubuntu-latest",
                    "    runs-on: ubuntu-24.04  # pinned: ubuntu-latest moved under us in Nov 2026",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    "      - uses: actions/cache@v4\n        with:\n          path: |\n            ~/.cargo/registry\n            target\n          key: ${{ runner.os }}-${{ matrix.rust }}-cargo-${{ hashFiles('Cargo.lock') }}",
                    "      - uses: Swatinem/rust-cache@v2\n        with:\n          key: ${{ matrix.rust }}",
                )
            ]
        ),
        A(
            tools=[
                wr(
                    ".github/dependabot.yml",
                    "version: 2\nupdates:\n  - package-ecosystem: github-actions\n    directory: /\n    schedule: { interval: weekly }\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "git commit -qam 'ci: pin runner, rust-cache, dependabot for actions' && git push -q && sleep 20 && gh run watch $(gh run list --branch ci/ubuntu-24 --limit 1 --json databaseId -q '.[0].databaseId') --exit-status 2>&1 | tail -5",
                    "✓ test (stable, 3.9) in 6m12s\n✓ test (stable, 3.12) in 6m20s\n✓ test (1.74.0, 3.9) in 6m33s\n✓ test (1.74.0, 3.12) in 6m08s\n✓ Run ci (9121602) completed with 'success'",
                    ms=400000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh api -X PUT repos/lukasw/tileserver-rs/branches/main/protection -f 'required_status_checks[strict]=true' -f 'required_status_checks[contexts][]=test (stable, 3.9)' -f 'required_status_checks[contexts][]=test (stable, 3.12)' -F enforce_admins=false -F required_pull_request_reviews=null -F restrictions=null --silent && echo ok",
                    "gh: Resource not accessible by integration (HTTP 403)",
                    code=1,
                )
            ]
        ),
        A(
            "Warm-cache runs are down to ~6 m 20 s. Branch protection needs an admin token (403 with mine), so that one's for you: require `test (stable, 3.9)` and `test (stable, 3.12)` on `main`.",
            tools=[
                todo(
                    [
                        ("Pin runs-on to ubuntu-24.04 (no silent bumps)", "completed"),
                        ("Swatinem/rust-cache instead of hand-rolled cache", "completed"),
                        ("Dependabot for github-actions", "completed"),
                        ("Branch protection: required checks", "pending"),
                    ]
                )
            ],
        ),
        H(
            "the python tests are most of the job time and only matter when bindings/ changes. could we skip them otherwise? what would that look like"
        ),
        A(
            "Measuring how the time splits first.",
            tools=[
                sh(
                    "gh run view 9121602 --json jobs -q '.jobs[0].steps[] | select(.conclusion==\"success\") | \"\\(.name) \\(.startedAt) \\(.completedAt)\"' | awk '{print $1, $2, $3}' | tail -4",
                    "Run cargo test 2026-11-25T10:41:12Z 2026-11-25T10:43:02Z\nRun for i in 2026-11-25T10:43:02Z 2026-11-25T10:43:09Z\nRun pytest 2026-11-25T10:43:09Z 2026-11-25T10:46:51Z\nPost Run Swatinem/rust-cache@v2 2026-11-25T10:46:51Z 2026-11-25T10:47:20Z",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "git log --since=6.months --name-only --format= | awk -F/ '{print $1\"/\"$2}' | sort | uniq -c | sort -rn | head -5",
                    "    212 src/render\n    141 src/tile_cache.rs/\n     97 bindings/python\n     40 .github/workflows\n     22 docs/tiles.md/",
                )
            ]
        ),
        A(
            "pytest is 3 m 42 s of the ~6 m 20 s job; `bindings/python` was touched in 97 of ~510 changed paths in six months.\n\n"
            "**Proposal**\n1. Split into two jobs: `rust` (cargo test, matrix over toolchains) and `python` (maturin develop + pytest, matrix over 3.9/3.12).\n"
            "2. `dorny/paths-filter` decides whether `python` runs: `bindings/**`, `src/**` (the bindings wrap the core), `Cargo.lock`.\n"
            "3. A final `ci-ok` job that `needs` both and succeeds when `python` was skipped, so branch protection can require one check.\n\n"
            "**Risks**: skipped jobs count as *success* for `needs` only with `if: always()` and an explicit result check; "
            "a change in `src/` still runs everything, so the saving is mostly on docs/CI-only PRs (~35 % of PRs).\n\n"
            "Nothing changed yet.",
        ),
        H("", expect=("implicit_approval", "empty")),
        # ^ the person asked "what would that look like", the agent proposed a concrete split with risks; silence, then it executes.
        A(
            "Splitting the workflow.",
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    "jobs:\n  test:",
                    "jobs:\n  changes:\n    runs-on: ubuntu-24.04\n    outputs:\n      python: ${{ steps.f.outputs.python }}\n    steps:\n      - uses: actions/checkout@v4\n"
                    "      - id: f\n        uses: dorny/paths-filter@v3\n        with:\n          filters: |\n            python: ['bindings/**', 'src/**', 'Cargo.lock']\n  test:",
                )
            ],
        ),
        A(
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    "      - run: pytest bindings/python/tests",
                    "  python:\n    needs: changes\n    if: needs.changes.outputs.python == 'true'\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: actions/checkout@v4\n"
                    "      - run: pip install maturin && maturin develop -m bindings/python/Cargo.toml\n      - run: pytest bindings/python/tests\n"
                    "  ci-ok:\n    needs: [test, python]\n    if: always()\n    runs-on: ubuntu-24.04\n    steps:\n"
                    '      - run: test "${{ needs.test.result }}" = success && [[ "${{ needs.python.result }}" =~ ^(success|skipped)$ ]]',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "actionlint && git commit -qam 'ci: split rust/python jobs, run python only when it can change' && git push -q && sleep 20 && gh run watch $(gh run list --branch ci/ubuntu-24 --limit 1 --json databaseId -q '.[0].databaseId') --exit-status 2>&1 | tail -4",
                    "✓ changes in 9s\n✓ test (stable) in 2m41s\n- python (skipped)\n✓ ci-ok in 4s\n✓ Run ci (9121877) completed with 'success'",
                    ms=190000,
                )
            ]
        ),
        A(
            "A CI-only change now finishes in 2 m 54 s (python skipped, `ci-ok` green). Checking that a `src/` change still runs python.",
            tools=[
                sh(
                    "git commit -q --allow-empty -m 'probe' && touch src/lib.rs && git commit -qam 'probe: touch src' && git push -q && sleep 20 && gh run watch $(gh run list --branch ci/ubuntu-24 --limit 1 --json databaseId -q '.[0].databaseId') --exit-status 2>&1 | tail -3",
                    "✓ python (3.9) in 4m02s\n✓ python (3.12) in 3m57s\n✓ Run ci (9121990) completed with 'success'",
                    ms=420000,
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "git reset -q --hard HEAD~2 && git push -qf && git log --oneline -1",
                    "5d1c0e2 ci: split rust/python jobs, run python only when it can change",
                )
            ]
        ),
        Compact(MANUAL_SUMMARY, auto=False),
        # ^ the person ran /compact by hand...
        H(
            "now the macOS job: it's not in ci.yml, it's in release.yml and fails on the universal2 wheel"
        ),
        # ^ ...and immediately gave a direction: NOT a pivot (the compaction is followed by the person leading).
        A(
            tools=[
                sh(
                    "rg -n 'macos|universal2|maturin' .github/workflows/release.yml",
                    "12:    runs-on: macos-latest\n18:      - uses: PyO3/maturin-action@v1\n20:          args: --release --target universal2-apple-darwin -m bindings/python/Cargo.toml\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh run list --workflow release.yml --limit 1 --json databaseId -q '.[0].databaseId' | xargs gh run view --log-failed | rg -m3 'error'",
                    "build (macos)\tBuild wheels\terror[E0463]: can't find crate for `core`\nbuild (macos)\tBuild wheels\t  = note: the `x86_64-apple-darwin` target may not be installed\n"
                    "build (macos)\tBuild wheels\terror: could not compile `cfg-if` (lib) due to 1 previous error",
                )
            ]
        ),
        A(
            "`macos-latest` is arm64 now and the x86_64 target isn't installed for the universal2 build. Adding both targets to the toolchain step.",
            tools=[
                ed(
                    ".github/workflows/release.yml",
                    "      - uses: PyO3/maturin-action@v1",
                    "      - uses: dtolnay/rust-toolchain@stable\n        with:\n          targets: x86_64-apple-darwin,aarch64-apple-darwin\n      - uses: PyO3/maturin-action@v1",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "git commit -qam 'release: install both darwin targets for universal2' && git push -q && gh workflow run release.yml --ref ci/ubuntu-24 -f dry_run=true && sleep 600 && gh run list --workflow release.yml --limit 1 --json conclusion -q '.[0].conclusion'",
                    "",
                    ms=615000,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sleep 120; gh run list --workflow release.yml --limit 1 --json status,conclusion -q '.[0] | .status + \" \" + .conclusion'",
                    "completed success",
                    ms=120400,
                )
            ]
        ),
        Interrupt(),
        H("don't merge anything yet, I want to squash these myself"),
        # ^ NOT silent: an interrupt with an instruction.
        A(
            "Not merging. Branch `ci/ubuntu-24` has 6 commits; CI and the release dry run are both green."
        ),
    ]
    return s


SCENARIOS = [
    Scenario(
        name="heldout-ci-ubuntu24-repair",
        title="Repair CI after the ubuntu-latest bump",
        cwd=CWD,
        steps=steps(),
        model="anthropic/claude-sonnet-4-6",
        start="2026-11-25T07:48:00Z",
        seconds_per_step=42,
        notes="pivots: delegation_after_dead_end (carry on), continue_after_milestone (lgtm), implicit_approval (empty)",
    )
]
