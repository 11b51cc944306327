"""Speeding up a TypeScript monorepo's CI: cache misses found and fixed, then a test-sharding dead end."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import H, Meta, Scenario
from samplegen.heldout2._kit import a, ed, gr, hang, rd, sh, todo, wr

CWD = "/home/dev/work/atlas-monorepo"
PACKAGES = [
    "@atlas/ui",
    "@atlas/api-client",
    "@atlas/billing",
    "@atlas/maps",
    "@atlas/auth",
    "@atlas/web",
    "@atlas/admin",
]

hash_checks = [
    a(
        f"Why `{pkg}#build` misses: diffing the task hash inputs between two CI runs.",
        sh(
            f"npx turbo run build --filter={pkg} --dry=json | jq '.tasks[0].hashOfExternalDependencies, .tasks[0].environmentVariables.specified'",
            '"7f1c09ad2e"\n{"env": ["BUILD_TIME", "GIT_SHA"], "passThroughEnv": null}'
            if i % 2 == 0
            else '"7f1c09ad2e"\n{"env": ["GIT_SHA"], "passThroughEnv": null}',
        ),
    )
    for i, pkg in enumerate(PACKAGES)
]

local_timings = [
    a(
        f"Local `tsc -b` for {pkg}: cold vs. warm.",
        sh(
            f"hyperfine -w1 -r3 'pnpm --filter {pkg} exec tsc -b' 2>&1 | grep 'Time (mean'",
            f"  Time (mean ± σ):     {t:.1f} s ±  0.{i + 2} s",
        ),
    )
    for i, (pkg, t) in enumerate(zip(PACKAGES, [11.2, 4.1, 6.8, 9.9, 3.2, 24.7, 18.3], strict=True))
]

PHASES = [
    ("lint", "4m02s", 24),
    ("typecheck", "6m55s", 24),
    ("build", "11m30s", 24),
    ("test", "14m14s", 24),
]
phase_times = [
    a(
        f"Time spent in `{task}` across the run.",
        sh(
            f"gh run view 9911812 --log | python scripts/turbo_times.py --task {task}",
            f"{n} tasks, {total} summed wall, 0 cached",
        ),
    )
    for task, total, n in PHASES
]
cache_status = [
    a(
        f"Cache status for {pkg} on the probe run.",
        sh(
            f"gh run view 9912101 --log | grep '{pkg}:build' | grep -o 'cache [a-z]*'",
            "cache hit" if pkg not in ("@atlas/web", "@atlas/admin") else "cache miss",
        ),
    )
    for pkg in PACKAGES
]

steps = [
    H(
        "CI on main takes ~38 minutes per push and everyone's waiting on it. get it under 15. repo is a pnpm + turbo monorepo"
    ),
    a(
        "Looking at the workflow and recent timings.",
        rd(
            f"{CWD}/.github/workflows/ci.yml",
            "jobs:\n  build:\n    runs-on: ubuntu-latest-8core\n    steps:\n      - uses: actions/checkout@v4\n      - run: pnpm install --frozen-lockfile\n      - run: pnpm turbo run lint typecheck build test\n        env:\n          TURBO_TOKEN: ${{ secrets.TURBO_TOKEN }}\n          BUILD_TIME: ${{ github.event.head_commit.timestamp }}",
        ),
        sh(
            "gh run list --workflow ci.yml --branch main -L 10 --json databaseId,conclusion,updatedAt,startedAt | jq -r '.[] | [.databaseId, .conclusion] | @tsv'",
            "9911812\tsuccess\n9911650\tsuccess\n9911422\tfailure\n9911301\tsuccess\n9911120\tsuccess",
        ),
        todo(
            ("Profile CI", "in_progress"),
            ("Fix cache misses", "pending"),
            ("Parallelise tests", "pending"),
        ),
    ),
    a(
        "",
        sh(
            "gh run view 9911812 --log | grep -E 'Tasks:|Cached:|Time:'",
            " Tasks:    96 successful, 96 total\nCached:    12 cached, 96 total\n  Time:    36m41.203s",
        ),
        sh(
            "gh run view 9911812 --json jobs | jq '.jobs[0].steps[] | [.name, .completedAt, .startedAt]' -c | head -6",
            '["pnpm install","2026-11-05T09:03:51Z","2026-11-05T09:01:12Z"]\n["pnpm turbo run lint typecheck build test","2026-11-05T09:39:58Z","2026-11-05T09:03:52Z"]',
        ),
    ),
    *phase_times,
    a(
        "12 of 96 tasks hit the remote cache (12.5%). Something in the hash changes every run. `BUILD_TIME` is in the task env — suspicious.",
        rd(
            f"{CWD}/turbo.json",
            '{"globalEnv": ["NODE_ENV"], "tasks": {"build": {"dependsOn": ["^build"], "env": ["BUILD_TIME", "GIT_SHA"], "outputs": ["dist/**"]}, "test": {"dependsOn": ["build"]}}}',
        ),
    ),
    *hash_checks,
    a(
        "Every build task with `BUILD_TIME` and `GIT_SHA` in its env hashes differently on every commit, and that cascades to all dependants through `^build`. Where are they used?",
        gr(
            "BUILD_TIME|GIT_SHA",
            f"{CWD}/packages",
            "packages/web/src/version.ts:2:export const GIT_SHA = process.env.GIT_SHA\npackages/web/src/version.ts:3:export const BUILD_TIME = process.env.BUILD_TIME\npackages/admin/src/footer.tsx:9:  {process.env.GIT_SHA}",
        ),
    ),
    a(
        "Only `web` and `admin` (the leaf apps) read them. Moving both variables off the shared `build` task and onto the two apps, and making them pass-through for the libraries.",
        ed(
            f"{CWD}/turbo.json",
            '"build": {"dependsOn": ["^build"], "env": ["BUILD_TIME", "GIT_SHA"], "outputs": ["dist/**"]}',
            '"build": {"dependsOn": ["^build"], "outputs": ["dist/**"]},\n    "@atlas/web#build": {"dependsOn": ["^build"], "env": ["BUILD_TIME", "GIT_SHA"], "outputs": [".next/**", "!.next/cache/**"]},\n    "@atlas/admin#build": {"dependsOn": ["^build"], "env": ["GIT_SHA"], "outputs": ["dist/**"]}',
        ),
        todo(
            ("Profile CI", "completed"),
            ("Fix cache misses", "in_progress"),
            ("Parallelise tests", "pending"),
        ),
    ),
    a(
        "Second source of misses: `packages/ui` generates `src/icons.gen.ts` with a timestamp header.",
        sh(
            "head -2 packages/ui/src/icons.gen.ts",
            "// generated 2026-11-05T09:05:11.412Z by scripts/gen-icons.mjs\nexport const icons = {",
        ),
        ed(
            f"{CWD}/packages/ui/scripts/gen-icons.mjs",
            "`// generated ${new Date().toISOString()} by scripts/gen-icons.mjs`",
            "'// generated by scripts/gen-icons.mjs (do not edit)'",
        ),
    ),
    a(
        "Pushing a branch twice with an empty commit in between to measure cache hits.",
        sh(
            "git switch -c ci/cache-keys && git commit -am 'ci: stable task hashes' && git push -u origin ci/cache-keys && gh run watch --exit-status",
            "✓ ci/cache-keys CI · 9912044\nTasks: 96 successful, 96 total\nCached: 14 cached, 96 total\nTime: 35m02.118s",
        ),
        sh(
            "git commit --allow-empty -m 'ci: cache probe' && git push && gh run watch --exit-status",
            "✓ ci/cache-keys CI · 9912101\nTasks: 96 successful, 96 total\nCached: 87 cached, 96 total\nTime: 14m12.630s",
        ),
    ),
    *cache_status,
    a(
        "Cache hit rate on the probe: 87/96 (91%), CI 35m → 14m12s. The 9 misses are the `web` and `admin` builds (they still read GIT_SHA) and the tasks that depend on them. Checking per-task times of the remaining work.",
        sh(
            "gh run view 9912101 --log | grep -E '^(@atlas/[a-z-]+):test' | awk '{print $1, $NF}'",
            "@atlas/web:test 9m48s\n@atlas/admin:test 2m31s\n@atlas/maps:test 0m41s",
        ),
        todo(("Fix cache misses", "completed")),
    ),
    a(
        "Under the target:\n\n| | before | after |\n|---|---|---|\n| remote cache hits | 12/96 (12.5%) | 87/96 (91%) |\n| CI wall time | 36m41s | **14m12s** |\n\n"
        "The long pole is now `@atlas/web:test` at 9m48s, which runs every time because web's build hash includes GIT_SHA."
    ),
    # Milestone with numbers (target met, mixed: one long pole left); "nice" and the agent starts the next phase itself.
    H("nice", expect=("continue_after_milestone", "ack")),
    a(
        "Target met, so the next lever is the test phase: web's 9m48s jest run is now 69% of CI. Plan: shard it across 4 runners with jest `--shard`, and keep GIT_SHA out of the test hash.",
        ed(
            f"{CWD}/turbo.json",
            '"test": {"dependsOn": ["build"]}',
            '"test": {"dependsOn": ["^build"], "inputs": ["src/**", "test/**", "jest.config.*"]}',
        ),
        todo(("Parallelise tests", "in_progress"), ("Shard web jest 4 ways", "in_progress")),
    ),
    a(
        "",
        wr(
            f"{CWD}/.github/workflows/web-tests.yml",
            "jobs:\n  web-test:\n    strategy:\n      matrix:\n        shard: [1, 2, 3, 4]\n    steps:\n      - run: pnpm --filter @atlas/web exec jest --ci --shard=${{ matrix.shard }}/4",
        ),
        sh(
            "for s in 1 2 3 4; do pnpm --filter @atlas/web exec jest --ci --shard=$s/4 --silent 2>&1 | tail -1 & done; wait",
            "Tests: 612 passed, 612 total\nTests: 598 passed, 598 total\nTests: 1 failed, 633 passed, 634 total\nTests: 605 passed, 605 total",
            code=1,
        ),
    ),
    a(
        "Shard 3 has a failure that doesn't happen in a single run: `map-viewer.test.tsx` relies on global state set by an earlier test. Isolating that file.",
        ed(
            f"{CWD}/apps/web/jest.config.ts",
            "testEnvironment: 'jsdom',",
            "testEnvironment: 'jsdom',\n  resetModules: true,",
        ),
        sh(
            "pnpm --filter @atlas/web exec jest --ci --shard=3/4",
            "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb7a940 node::Abort()",
            code=134,
        ),
    ),
    a(
        "`resetModules` re-imports the map bundle per test and runs out of heap. Reverting that and trying `--workerIdleMemoryLimit` with a per-file reset instead.",
        ed(
            f"{CWD}/apps/web/jest.config.ts",
            "  resetModules: true,",
            "  workerIdleMemoryLimit: '1GB',",
        ),
        hang(
            "pnpm --filter @atlas/web exec jest --ci --shard=3/4",
            "PASS src/map/__tests__/tiles.test.ts\nPASS src/map/__tests__/layers.test.ts\nRUNS src/map/__tests__/map-viewer.test.tsx",
            ms=1_200_000,
        ),
    ),
    a(
        "Shard 3 now hangs in `map-viewer.test.tsx` until the 20-minute timeout. On CI the 4-shard run failed the same way.",
        sh(
            "gh run view 9912230 --log | grep -E 'shard|Error|timed out' | tail -4",
            "web-test (3) ##[error]The job running on runner GitHub Actions 41 has exceeded the maximum execution time of 20 minutes.\nweb-test (1) Tests: 612 passed\nweb-test (2) Tests: 598 passed\nweb-test (4) Tests: 605 passed",
            code=1,
        ),
        todo(
            ("Shard web jest 4 ways", "FAILED: shard 3 hangs"),
        ),
    ),
    a(
        "So: sharding works for 3 of 4 shards; shard 3 fails (order-dependent test), then OOMs with resetModules, then hangs with the memory limit. I don't yet know what map-viewer is waiting on."
    ),
    # Dead end: three failures in a row, last run timed out, no next step named; the person replies "go".
    H("go", expect=("delegation_after_dead_end", "ack")),
    a(
        "**Recap.** CI is at 14m12s (from 36m41s) thanks to stable cache keys. Sharding web tests is the next step, blocked by `map-viewer.test.tsx`: order-dependent failure → OOM → hang.\n\n"
        "**Plan:** run that one file alone with `--detectOpenHandles` to see what keeps the worker alive.",
    ),
    a(
        "",
        sh(
            "pnpm --filter @atlas/web exec jest --ci src/map/__tests__/map-viewer.test.tsx --detectOpenHandles 2>&1 | tail -8",
            "Jest has detected the following 1 open handle potentially keeping Jest from exiting:\n\n  ●  Timeout\n\n      41 |   useEffect(() => {\n    > 42 |     const id = setInterval(refreshTiles, 5_000)\n      43 |   }, [])\n\n      at MapViewer (src/map/MapViewer.tsx:42:16)",
        ),
    ),
    a(
        "A real bug: `MapViewer` never clears its tile-refresh interval. In the app it leaks on every unmount; in tests it keeps the worker alive. Fixing the component.",
        ed(
            f"{CWD}/apps/web/src/map/MapViewer.tsx",
            "    const id = setInterval(refreshTiles, 5_000)\n  }, [])",
            "    const id = setInterval(refreshTiles, 5_000)\n    return () => clearInterval(id)\n  }, [])",
        ),
        ed(f"{CWD}/apps/web/jest.config.ts", "  workerIdleMemoryLimit: '1GB',\n", ""),
    ),
    a(
        "",
        sh(
            "for s in 1 2 3 4; do pnpm --filter @atlas/web exec jest --ci --shard=$s/4 --silent 2>&1 | tail -1 & done; wait",
            "Tests: 612 passed, 612 total\nTests: 598 passed, 598 total\nTests: 634 passed, 634 total\nTests: 605 passed, 605 total",
        ),
        sh(
            "git commit -am 'web: clear MapViewer refresh interval; shard web tests 4 ways' && git push && gh run watch --exit-status",
            "✓ ci/cache-keys CI · 9912377\nweb-test (1..4) max 2m58s\nTime: 8m05.904s",
        ),
        todo(("Shard web jest 4 ways", "completed"), ("Parallelise tests", "completed")),
    ),
    a(
        "Checking the leak fix didn't change the rendered map in the visual snapshots.",
        sh(
            "pnpm --filter @atlas/web exec playwright test e2e/map.visual.spec.ts",
            "Running 6 tests using 4 workers\n  6 passed (41.2s)",
        ),
    ),
    a(
        "CI is now **8m05s** (from 36m41s). The hang was a genuine leak in MapViewer (interval never cleared), fixed in the component, not worked around in jest."
    ),
    # Deliberate negative: an ack after which the agent only asks what is wanted next; nothing changes.
    H("ok"),
    a(
        "Glad that's in. What next — should I open the PR for ci/cache-keys, or look at local dev build times too?"
    ),
    # Directed answer to the agent's question (not silent).
    H("both. PR first, then local tsc times, people complain about the web app"),
    a(
        "Opening the PR.",
        sh(
            "gh pr create --fill --title 'CI: stable turbo hashes + sharded web tests (36m → 8m)'",
            "https://github.com/atlas/atlas-monorepo/pull/4471",
        ),
    ),
    # Deliberate negative: a command wrapper (/model) between directed messages.
    Meta(
        "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>sonnet</command-args>"
    ),
    Meta("<local-command-stdout>Set model to claude-sonnet-4-6</local-command-stdout>"),
    a(
        "Measuring local typecheck per package.",
        sh("pnpm -r exec tsc -b --listEmittedFiles false >/dev/null; echo done", "done"),
    ),
    *local_timings[:4],
    # Deliberate negative: "k" while the agent is measuring package after package; no change.
    H("k"),
    *local_timings[4:],
    a(
        "web (24.7 s) and admin (18.3 s) dominate; both rebuild without incremental info because `tsBuildInfoFile` points into `dist/`, which `pnpm clean` wipes.",
        ed(
            f"{CWD}/apps/web/tsconfig.json",
            '"tsBuildInfoFile": "dist/.tsbuildinfo"',
            '"tsBuildInfoFile": "node_modules/.cache/tsbuildinfo.json"',
        ),
        ed(
            f"{CWD}/apps/admin/tsconfig.json",
            '"tsBuildInfoFile": "dist/.tsbuildinfo"',
            '"tsBuildInfoFile": "node_modules/.cache/tsbuildinfo.json"',
        ),
    ),
    # Deliberate negative: short, starts with "ok", but carries an instruction.
    H("ok, now run the typecheck timings again for web and admin"),
    a(
        "",
        sh(
            "hyperfine -w1 -r3 'pnpm --filter @atlas/web exec tsc -b' 'pnpm --filter @atlas/admin exec tsc -b' 2>&1 | grep 'Time (mean'",
            "  Time (mean ± σ):      3.9 s ±  0.2 s\n  Time (mean ± σ):      2.7 s ±  0.1 s",
        ),
    ),
    a(
        "Warm local typecheck: web 24.7 s → 3.9 s, admin 18.3 s → 2.7 s. Pushed to the same PR (#4471)."
    ),
]

SCENARIOS = [
    Scenario(
        name="h2_monorepo_build",
        title="Get monorepo CI under 15 minutes",
        cwd=CWD,
        steps=steps,
        start="2026-11-05T08:45:00Z",
    )
]
FORMATS = ["claude", "codex", "aider"]
