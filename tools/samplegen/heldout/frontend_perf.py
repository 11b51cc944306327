# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: making a React reports page fast on mid-tier phones (Claude Code).

Labelled: "nice, keep at it" after the bundle-size milestone (continue after milestone), "your call"
after a run of failed INP fixes (delegation after a dead end). Negatives: a /model command wrapper
at the start, a directed "do the bundle stuff first", an automatic compaction in the middle of a
mechanical import rewrite (routine, no change of mode), "ty" after which the agent only asks.
"""

from __future__ import annotations

from samplegen.heldout._kit import A, Compact, H, Kit, Meta, Scenario

FORMATS = ["claude"]

CWD = "/Users/priya/code/insights-web"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

FINDINGS = """Lighthouse (Moto G Power profile, 4× CPU slowdown, slow 4G), `/reports`, median of 3:

| metric | value | budget |
|---|---|---|
| LCP | 6.8 s | 2.5 s |
| TBT | 2,340 ms | 300 ms |
| INP (field, p75 from RUM) | 480 ms | 200 ms |
| JS transferred | 2.1 MB (gz 612 KB) | 250 KB gz |

Where it goes:
- **Bundle**: `moment` with all 129 locales (287 KB), `echarts` full import (1.03 MB), `lodash`
  whole (71 KB), all routes in one chunk.
- **Main thread**: 1.2 s parsing/compiling JS; `ReportsTable` renders 5,000 rows at once
  (740 ms scripting on mount).
- **Interactions**: typing in the filter box re-renders the whole page.

Two directions: shrink and split the bundle (helps LCP/TBT), or fix rendering (helps INP).
Which first?"""

COMPACT_SUMMARY = """This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:
Analysis:
The user asked to make /reports fast on mid-tier phones; after profiling, they chose to fix the bundle first.

Summary:
1. Primary Request and Intent: reduce LCP (6.8 s) and TBT (2,340 ms) on /reports; bundle first, rendering later.
2. Key Technical Concepts: route-level code splitting (React.lazy), echarts modular imports, replacing moment with date-fns, lodash-es per-method imports.
3. Files and Code Sections:
   - src/routes.tsx: routes now lazy-loaded
   - src/charts/echarts.ts: modular echarts core (LineChart, BarChart, GridComponent, TooltipComponent, CanvasRenderer)
   - 31 files importing moment: 14 converted to date-fns so far (src/reports/*, src/utils/dates.ts)
4. Errors and fixes: `format(..., 'YYYY')` → date-fns uses `yyyy`; fixed in dates.ts with a lint rule.
5. Pending Tasks: convert the remaining 17 moment imports; remove moment from package.json; re-measure.
6. Current Work: converting moment imports file by file, running `tsc --noEmit` after each batch.
7. Optional Next Step: continue with src/dashboard/*.tsx."""

STUCK = """I've run out of ideas that work here. Summary of the INP attempts:

| attempt | result |
|---|---|
| `react-window` virtualization of `ReportsTable` | INP 480 → 455 ms; 11 tests fail (jsdom has no layout, 0 rows rendered); sticky header breaks |
| `React.memo` on `ReportRow` | no change (props are new objects every render) |
| `useMemo` for the filtered rows | 455 → 440 ms |
| debounce filter input 250 ms | INP 410 ms, but typing feels laggy; QA would reject it |

The profiler shows each keystroke still commits ~5,000 fibers, and I haven't found what is
re-rendering them."""

DEAD_END_SUMMARY = """## Recap before I continue

**Goal**: /reports fast on mid-tier phones. Budgets: LCP ≤ 2.5 s, TBT ≤ 300 ms, INP ≤ 200 ms.

**Done (bundle phase)**: JS 2.1 MB → 780 KB (gz 612 → 221 KB); LCP 6.8 → 3.1 s; TBT 2,340 → 910 ms.

**Open (rendering phase)**: INP still 440 ms. Virtualization, memo, useMemo and debouncing each
failed or helped < 10 %.

**Unexplained**: every keystroke commits ~5,000 fibers even with memoised rows.

**Plan now**
1. Find *why* rows re-render: `why-did-you-render` on `ReportRow`, React Profiler "why did this render".
2. Fix the cause rather than adding more memo.
3. Revisit virtualization with a test-friendly setup only if still needed."""

MOMENT_FILES = [
    ("src/dashboard/KpiCard.tsx", "moment(d).format('D MMM')", "format(d, 'd MMM')"),
    (
        "src/dashboard/TrendChart.tsx",
        "moment(ts).startOf('week')",
        "startOfWeek(ts, { weekStartsOn: 1 })",
    ),
    (
        "src/dashboard/Header.tsx",
        "moment().fromNow()",
        "formatDistanceToNow(new Date(), { addSuffix: true })",
    ),
    ("src/alerts/AlertList.tsx", "moment(a.at).format('HH:mm')", "format(a.at, 'HH:mm')"),
    (
        "src/alerts/AlertRule.tsx",
        "moment.duration(r.window, 'minutes').humanize()",
        "formatDuration({ minutes: r.window })",
    ),
    (
        "src/settings/Billing.tsx",
        "moment(inv.date).format('YYYY-MM-DD')",
        "format(inv.date, 'yyyy-MM-dd')",
    ),
]


def steps() -> list:
    s: list = [
        Meta(
            "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>opus</command-args>"
        ),
        Meta(
            "<local-command-stdout>Set model to \u001b[1mopus (claude-opus-4-8)\u001b[22m</local-command-stdout>"
        ),
        # ^ NOT human turns: command wrappers (with a raw ANSI escape in the stdout, as the CLI writes it).
        H(
            "/reports takes forever to become usable on phones. RUM says LCP ~6.8s on mid-tier android. "
            "profile it and tell me where the time goes, don't fix yet"
        ),
        A(
            "Running Lighthouse with the mobile profile first.",
            tools=[
                sh(
                    'npm run build && npx serve -s dist -l 4173 >/dev/null 2>&1 & sleep 3; for i in 1 2 3; do npx lighthouse http://localhost:4173/reports --preset=perf --form-factor=mobile --throttling-method=simulate --quiet --output=json --output-path=/tmp/lh$i.json; done; jq -s \'map(.audits["largest-contentful-paint"].numericValue, .audits["total-blocking-time"].numericValue)\' /tmp/lh*.json',
                    "vite v5.4.11 building for production...\n✓ 2214 modules transformed.\ndist/assets/index-4f1c2a9e.js   2,104.55 kB │ gzip: 612.31 kB\n"
                    "(!) Some chunks are larger than 500 kB after minification.\n✓ built in 19.42s\n[\n  6812.4,\n  2311.0,\n  6790.1,\n  2340.5,\n  6844.0,\n  2402.7\n]",
                    ms=96000,
                )
            ],
        ),
        A(
            tools=[
                sh(
                    'npx vite-bundle-visualizer --template raw-data -o /tmp/stats.json >/dev/null && jq -r \'.nodeParts | to_entries | map(.value) | group_by(.id | split("/node_modules/")[1] | split("/")[0]) | map({pkg: .[0].id, kb: (map(.renderedLength) | add / 1024 | floor)}) | sort_by(-.kb) | .[:5][] | "\\(.kb) KB \\(.pkg)"\' /tmp/stats.json',
                    "1057 KB /node_modules/echarts/lib/echarts.js\n287 KB /node_modules/moment/locale/af.js\n112 KB /node_modules/react-dom/cjs/react-dom.production.min.js\n"
                    "71 KB /node_modules/lodash/lodash.js\n58 KB /node_modules/@tanstack/react-query/build/modern/index.js",
                )
            ]
        ),
        A(
            tools=[
                grep(
                    "from 'moment'|from \"moment\"",
                    "src",
                    "\n".join(f"{f}:1:import moment from 'moment'" for f, _, _ in MOMENT_FILES)
                    + "\n... (31 files)",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx playwright test perf/trace-reports.spec.ts --project=moto-g && npx trace-summary /tmp/reports-trace.json",
                    "Running 1 test using 1 worker\n  ✓  1 [moto-g] › perf/trace-reports.spec.ts:4:1 › trace /reports (14.2s)\n"
                    "Main thread (4x CPU): scripting 3,912 ms | parse/compile 1,204 ms | ReportsTable mount 741 ms | layout 388 ms\n"
                    "Longest task: 1,880 ms (evaluateScript index-4f1c2a9e.js)\nInteraction 'type in #filter': 482 ms (commit 5,012 fibers)",
                )
            ]
        ),
        A(FINDINGS),
        H("do the bundle stuff first, it's the cheaper win. keep echarts, just import less of it"),
        # ^ NOT silent: an explicit choice between the offered directions, plus a constraint.
        A(
            tools=[
                todo(
                    [
                        ("Lazy-load routes", "in_progress"),
                        ("Modular echarts imports", "pending"),
                        ("Replace moment with date-fns (31 files)", "pending"),
                        ("lodash → lodash-es per-method", "pending"),
                        ("Re-measure LCP/TBT", "pending"),
                    ]
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "src/routes.tsx",
                    "import Reports from './reports/Reports'\nimport Dashboard from './dashboard/Dashboard'\nimport Settings from './settings/Settings'",
                    "const Reports = lazy(() => import('./reports/Reports'))\nconst Dashboard = lazy(() => import('./dashboard/Dashboard'))\nconst Settings = lazy(() => import('./settings/Settings'))",
                )
            ]
        ),
        A(
            tools=[
                wr(
                    "src/charts/echarts.ts",
                    "// Only what we draw: cuts echarts from ~1 MB to ~340 KB.\nimport * as echarts from 'echarts/core'\n"
                    "import { LineChart, BarChart } from 'echarts/charts'\nimport { GridComponent, TooltipComponent, LegendComponent } from 'echarts/components'\n"
                    "import { CanvasRenderer } from 'echarts/renderers'\n\necharts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer])\nexport default echarts\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "rg -l \"from 'echarts'\" src | xargs sed -i '' \"s#from 'echarts'#from '@/charts/echarts'#\" && npx tsc --noEmit",
                    "src/reports/Funnel.tsx:12:3 - error TS2305: Module '\"@/charts/echarts\"' has no exported member 'FunnelChart'.\n\nFound 1 error in src/reports/Funnel.tsx:12",
                    code=2,
                )
            ]
        ),
        A(
            "The funnel report uses `FunnelChart`; adding it to the registered set.",
            tools=[
                ed(
                    "src/charts/echarts.ts",
                    "import { LineChart, BarChart } from 'echarts/charts'",
                    "import { LineChart, BarChart, FunnelChart } from 'echarts/charts'",
                ),
                ed(
                    "src/charts/echarts.ts",
                    "echarts.use([LineChart, BarChart,",
                    "echarts.use([LineChart, BarChart, FunnelChart,",
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "npx tsc --noEmit && npm run build 2>&1 | rg 'kB'",
                    "dist/assets/index-9a0d1e2f.js     612.40 kB │ gzip: 188.02 kB\ndist/assets/Reports-1b7c.js       298.11 kB │ gzip:  91.40 kB\n"
                    "dist/assets/Dashboard-77aa.js     141.02 kB │ gzip:  44.87 kB\ndist/assets/Settings-0c3d.js       38.91 kB │ gzip:  12.10 kB",
                )
            ]
        ),
        A(
            "Routes split and echarts trimmed. Now moment → date-fns; starting with `src/utils/dates.ts`, which most files go through.",
            tools=[
                rd(
                    "src/utils/dates.ts",
                    "import moment from 'moment'\n\nexport const fmtDay = (d: Date | string) => moment(d).format('YYYY-MM-DD')\nexport const fmtMonth = (d: Date | string) => moment(d).format('MMM YYYY')\nexport const startOfIsoWeek = (d: Date) => moment(d).startOf('isoWeek').toDate()\n",
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "src/utils/dates.ts",
                    "import moment from 'moment'\n\nexport const fmtDay = (d: Date | string) => moment(d).format('YYYY-MM-DD')\nexport const fmtMonth = (d: Date | string) => moment(d).format('MMM YYYY')\nexport const startOfIsoWeek = (d: Date) => moment(d).startOf('isoWeek').toDate()",
                    "import { format, parseISO, startOfISOWeek } from 'date-fns'\n\nconst asDate = (d: Date | string) => (typeof d === 'string' ? parseISO(d) : d)\n"
                    "export const fmtDay = (d: Date | string) => format(asDate(d), 'yyyy-MM-dd')\nexport const fmtMonth = (d: Date | string) => format(asDate(d), 'MMM yyyy')\nexport const startOfIsoWeek = (d: Date) => startOfISOWeek(d)",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx vitest run src/utils",
                    " ✓ src/utils/dates.test.ts (9 tests) 14ms\n\n Test Files  1 passed (1)\n      Tests  9 passed (9)",
                )
            ]
        ),
        A(
            "Converting the reports folder (14 files) in one go with the same mapping, then type-checking.",
            tools=[
                sh(
                    "npx jscodeshift -t codemods/moment-to-date-fns.ts src/reports --parser=tsx | tail -3 && npx tsc --noEmit",
                    "All done.\nResults:\n14 ok\n0 errors\n0 unmodified\n",
                )
            ],
        ),
        Compact(COMPACT_SUMMARY, auto=True),
        # ^ NOT a pivot: automatic compaction in the middle of a mechanical file-by-file rewrite; the same work continues unchanged.
    ]
    for path, old, new in MOMENT_FILES:
        s.append(A(tools=[ed(path, old, new)]))
    s += [
        A(
            tools=[
                sh(
                    "npx jscodeshift -t codemods/moment-to-date-fns.ts src/dashboard src/alerts src/settings src/shared --parser=tsx | tail -3 && npx tsc --noEmit && rg -c \"from 'moment'\" src || echo 'no moment imports left'",
                    "All done.\nResults:\n11 ok\n0 errors\nno moment imports left",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npm rm moment && npx vitest run 2>&1 | tail -3",
                    "removed 1 package, and audited 1311 packages in 3s\n Test Files  88 passed (88)\n      Tests  611 passed (611)",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "rg -l \"from 'lodash'\" src | xargs sed -i '' -E \"s#import \\{ ([a-zA-Z, ]+) \\} from 'lodash'#import { \\1 } from 'lodash-es'#\" && npm rm lodash && npm i lodash-es && npx tsc --noEmit",
                    "removed 1 package\nadded 1 package, and audited 1311 packages in 2s",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npm run build 2>&1 | rg 'kB' && for i in 1 2 3; do npx lighthouse http://localhost:4173/reports --preset=perf --form-factor=mobile --quiet --output=json --output-path=/tmp/lh$i.json; done; jq -s 'map(.audits[\"largest-contentful-paint\"].numericValue, .audits[\"total-blocking-time\"].numericValue)' /tmp/lh*.json",
                    "dist/assets/index-0e2b.js         241.10 kB │ gzip:  77.90 kB\ndist/assets/Reports-5c1e.js       372.80 kB │ gzip: 112.33 kB\n"
                    "dist/assets/Dashboard-2d9f.js     126.44 kB │ gzip:  40.02 kB\ndist/assets/Settings-81aa.js       39.70 kB │ gzip:  12.31 kB\n"
                    "[\n  3098.2,\n  902.1,\n  3121.7,\n  911.4,\n  3077.0,\n  930.8\n]",
                    ms=88000,
                )
            ]
        ),
        A(
            "Bundle phase done:\n\n| metric | before | after |\n|---|---|---|\n| JS on /reports (gz) | 612 KB | 190 KB (index 78 + Reports 112) |\n"
            "| total JS (raw) | 2.1 MB | 780 KB |\n| LCP (median of 3) | 6.8 s | 3.1 s |\n| TBT | 2,340 ms | 910 ms |\n| tests | 611 passed | 611 passed |\n\n"
            "LCP is still above the 2.5 s budget and INP (480 ms) hasn't been touched.",
            tools=[
                todo(
                    [
                        ("Lazy-load routes", "completed"),
                        ("Modular echarts imports", "completed"),
                        ("Replace moment with date-fns (31 files)", "completed"),
                        ("lodash → lodash-es per-method", "completed"),
                        ("Re-measure LCP/TBT", "completed"),
                    ]
                )
            ],
        ),
        H("nice, keep at it", expect=("continue_after_milestone", "ack")),
        # ^ milestone table, then a bare encouragement: the agent starts the rendering/INP phase on its own.
        A(
            "Moving to the rendering side: the 740 ms table mount and the 480 ms filter interaction.",
            tools=[
                todo(
                    [
                        ("Virtualize ReportsTable", "in_progress"),
                        ("Stop whole-page re-render on filter input", "pending"),
                        ("Measure INP with the Playwright interaction trace", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                rd(
                    "src/reports/ReportsTable.tsx",
                    "export function ReportsTable() {\n  const { rows, filter, setFilter, columns } = useReports()\n"
                    "  const visible = rows.filter((r) => matches(r, filter))\n  return (\n    <table>\n      <thead>{columns.map((c) => <th key={c.id}>{c.label}</th>)}</thead>\n"
                    "      <tbody>{visible.map((r) => <ReportRow key={r.id} row={r} columns={columns} />)}</tbody>\n    </table>\n  )\n}\n",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "src/reports/ReportsTable.tsx",
                    "      <tbody>{visible.map((r) => <ReportRow key={r.id} row={r} columns={columns} />)}</tbody>",
                    '      <FixedSizeList height={640} itemCount={visible.length} itemSize={36} width="100%" outerElementType={TBody}>\n'
                    "        {({ index, style }) => <ReportRow style={style} row={visible[index]} columns={columns} />}\n      </FixedSizeList>",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx vitest run src/reports 2>&1 | tail -6",
                    " FAIL  src/reports/ReportsTable.test.tsx > shows matching rows\nAssertionError: expected 0 to be 12\n"
                    " FAIL  src/reports/ReportsTable.test.tsx > sorts by revenue\nTypeError: Cannot read properties of undefined (reading 'textContent')\n"
                    " Test Files  3 failed | 9 passed (12)\n      Tests  11 failed | 64 passed (75)",
                    code=1,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx playwright test perf/trace-reports.spec.ts --project=moto-g && npx trace-summary /tmp/reports-trace.json | tail -1",
                    "  ✓  1 [moto-g] › perf/trace-reports.spec.ts:4:1 › trace /reports (12.9s)\nInteraction 'type in #filter': 455 ms (commit 4,987 fibers)",
                )
            ]
        ),
        A(
            "Virtualization broke 11 tests (jsdom has no layout, so the list renders 0 rows) and only moved INP 480 → 455 ms. The commit still touches ~5,000 fibers, so the rows aren't what's expensive. Trying memoised rows.",
            tools=[
                ed(
                    "src/reports/ReportRow.tsx",
                    "export function ReportRow({ row, columns, style }: Props) {",
                    "export const ReportRow = memo(function ReportRow({ row, columns, style }: Props) {",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "npx playwright test perf/trace-reports.spec.ts --project=moto-g >/dev/null && npx trace-summary /tmp/reports-trace.json | tail -1",
                    "Interaction 'type in #filter': 458 ms (commit 4,990 fibers)",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "src/reports/ReportsTable.tsx",
                    "  const visible = rows.filter((r) => matches(r, filter))",
                    "  const visible = useMemo(() => rows.filter((r) => matches(r, filter)), [rows, filter])",
                ),
                sh(
                    "npx playwright test perf/trace-reports.spec.ts --project=moto-g >/dev/null && npx trace-summary /tmp/reports-trace.json | tail -1",
                    "Interaction 'type in #filter': 440 ms (commit 4,990 fibers)",
                ),
            ]
        ),
        A(
            tools=[
                ed(
                    "src/reports/FilterBox.tsx",
                    "onChange={(e) => setFilter(e.target.value)}",
                    "onChange={(e) => debouncedSetFilter(e.target.value)}",
                ),
                sh(
                    "npx playwright test perf/trace-reports.spec.ts --project=moto-g >/dev/null && npx trace-summary /tmp/reports-trace.json | tail -1",
                    "Interaction 'type in #filter': 410 ms (commit 4,990 fibers, debounced)",
                ),
            ]
        ),
        A(STUCK),
        H("your call", expect=("delegation_after_dead_end", "ack")),
        # ^ four failed attempts, no explanation; the person hands over with two words and the agent re-plans and acts.
        A(DEAD_END_SUMMARY),
        A(
            "Reverting the debounce (it hurts typing) and the virtualization (it broke tests and wasn't the cause).",
            tools=[
                sh(
                    "git checkout -- src/reports/FilterBox.tsx src/reports/ReportsTable.tsx && git status --short",
                    " M src/reports/ReportRow.tsx",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "npm i -D @welldone-software/why-did-you-render && npx playwright test perf/wdyr-reports.spec.ts --project=moto-g 2>&1 | rg -m3 'ReportRow'",
                    "ReportRow Re-rendered because of hook changes:\n  [hook useContext result] different objects that are equal by value.\n"
                    '  {"prev": {"rows": "[…5000]", "filter": "rev", "setFilter": "ƒ", "columns": "[…9]"}, "next": {"rows": "[…5000]", "filter": "reve", "setFilter": "ƒ", "columns": "[…9]"}}',
                )
            ]
        ),
        A(
            "There it is: `ReportRow` calls `useReports()` for the column formatters, and that context "
            "value is one object holding `rows`, `filter` and `setFilter`. Every keystroke makes a new "
            "context value, so all 5,000 rows re-render regardless of `memo`. Splitting the context.",
            tools=[
                ed(
                    "src/reports/ReportsContext.tsx",
                    "  const value = { rows, filter, setFilter, columns }\n  return <ReportsContext.Provider value={value}>{children}</ReportsContext.Provider>",
                    "  const data = useMemo(() => ({ rows, columns }), [rows, columns])\n"
                    "  return (\n    <ReportsDataContext.Provider value={data}>\n      <FilterContext.Provider value={filterState}>{children}</FilterContext.Provider>\n"
                    "    </ReportsDataContext.Provider>\n  )",
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "src/reports/ReportRow.tsx",
                    "  const { columns } = useReports()",
                    "  const { columns } = useReportsData()",
                ),
                ed(
                    "src/reports/ReportsTable.tsx",
                    "  const visible = rows.filter((r) => matches(r, filter))",
                    "  const deferredFilter = useDeferredValue(filter)\n  const visible = useMemo(() => rows.filter((r) => matches(r, deferredFilter)), [rows, deferredFilter])",
                ),
            ]
        ),
        A(
            tools=[
                sh(
                    "npx vitest run 2>&1 | tail -2 && npx playwright test perf/trace-reports.spec.ts --project=moto-g >/dev/null && npx trace-summary /tmp/reports-trace.json | tail -2",
                    " Test Files  88 passed (88)\n      Tests  611 passed (611)\nReportsTable mount: 702 ms\nInteraction 'type in #filter': 96 ms (commit 41 fibers)",
                )
            ]
        ),
        A(
            "INP on the filter: 480 → 96 ms, 41 fibers per commit instead of ~5,000, all 611 tests pass. "
            "The table mount (702 ms) is what keeps LCP at 3.1 s; rendering the first 100 rows and the "
            "rest in an idle callback should fix that without virtualization.",
            tools=[
                ed(
                    "src/reports/ReportsTable.tsx",
                    "  const visible = useMemo(",
                    "  const [limit, setLimit] = useState(100)\n  useEffect(() => { const id = requestIdleCallback(() => setLimit(Infinity)); return () => cancelIdleCallback(id) }, [])\n  const visible = useMemo(",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    'npm run build >/dev/null && for i in 1 2 3; do npx lighthouse http://localhost:4173/reports --preset=perf --form-factor=mobile --quiet --output=json --output-path=/tmp/lh$i.json; done; jq -s \'map(.audits["largest-contentful-paint"].numericValue, .audits["total-blocking-time"].numericValue)\' /tmp/lh*.json',
                    "[\n  2311.0,\n  274.2,\n  2290.4,\n  281.0,\n  2344.9,\n  263.7\n]",
                    ms=71000,
                )
            ]
        ),
        A(
            "Locking the fix in with a test so the context doesn't get merged back later.",
            tools=[
                wr(
                    "src/reports/ReportsTable.perf.test.tsx",
                    "it('typing in the filter does not re-render rows', async () => {\n  const onRender = vi.fn()\n"
                    '  render(<Profiler id="rows" onRender={onRender}><ReportsPage rows={fakeRows(500)} /></Profiler>)\n'
                    "  onRender.mockClear()\n  await user.type(screen.getByRole('searchbox'), 'rev')\n"
                    "  expect(rowRenders(onRender)).toBeLessThan(50)\n})\n",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "npx vitest run src/reports/ReportsTable.perf.test.tsx",
                    " ✓ src/reports/ReportsTable.perf.test.tsx (1 test) 412ms\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)",
                )
            ]
        ),
        A(
            "Checking the test actually fails against the old single context.",
            tools=[
                sh(
                    "git stash push src/reports/ReportsContext.tsx src/reports/ReportRow.tsx -q && npx vitest run src/reports/ReportsTable.perf.test.tsx 2>&1 | tail -3; git stash pop -q",
                    " FAIL  src/reports/ReportsTable.perf.test.tsx > typing in the filter does not re-render rows\nAssertionError: expected 1500 to be less than 50\n      Tests  1 failed (1)",
                    code=1,
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "npx eslint src/reports --max-warnings 0",
                    "src/reports/ReportsTable.tsx\n  14:3  warning  React Hook useEffect has a missing dependency: 'rows'  react-hooks/exhaustive-deps\n\n✖ 1 problem (0 errors, 1 warning)",
                    code=1,
                )
            ]
        ),
        A(
            "The idle-render effect should re-run when a new report loads, so `rows` belongs in the deps.",
            tools=[
                ed(
                    "src/reports/ReportsTable.tsx",
                    "return () => cancelIdleCallback(id) }, [])",
                    "return () => cancelIdleCallback(id) }, [rows])",
                ),
                sh(
                    "npx eslint src/reports --max-warnings 0 && npx vitest run 2>&1 | tail -2",
                    " Test Files  89 passed (89)\n      Tests  612 passed (612)",
                ),
            ],
        ),
        A(
            "All three budgets met:\n\n| metric | start | now | budget |\n|---|---|---|---|\n| LCP | 6.8 s | 2.3 s | 2.5 s |\n"
            "| TBT | 2,340 ms | 274 ms | 300 ms |\n| INP (lab, filter) | 480 ms | 96 ms | 200 ms |\n| JS gz on /reports | 612 KB | 190 KB | 250 KB |",
            tools=[
                todo(
                    [
                        ("Virtualize ReportsTable", "completed"),
                        ("Stop whole-page re-render on filter input", "completed"),
                        ("Measure INP with the Playwright interaction trace", "completed"),
                    ]
                )
            ],
        ),
        H("ty"),
        # ^ NOT a pivot: after this ack the agent only asks what else is wanted; nothing changes.
        A(
            "Glad it worked. Want me to open a PR with these changes, or keep going with the dashboard page next?"
        ),
        H("PR please, and put the before/after table in the description"),
        # ^ NOT silent: directed.
        A(
            tools=[
                sh(
                    "git checkout -b perf/reports-mobile && git add -A src package.json package-lock.json codemods && git commit -qm 'reports: split bundle, drop moment, split context to fix INP' && gh pr create --title 'Reports: LCP 6.8s → 2.3s, INP 480 → 96 ms' --body-file /tmp/pr.md",
                    "https://github.com/acme/insights-web/pull/1874",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh pr checks 1874 --watch --interval 30 2>&1 | tail -4",
                    "build\tpass\t2m11s\nlighthouse-ci\tpass\t3m02s\nunit\tpass\t1m48s\nAll checks were successful",
                    ms=190000,
                )
            ]
        ),
        A(
            "PR #1874 is open with the before/after table; build, unit tests and Lighthouse CI pass."
        ),
    ]
    return s


SCENARIOS = [
    Scenario(
        name="heldout-reports-page-perf",
        title="Make the reports page fast on phones",
        cwd=CWD,
        steps=steps(),
        model="claude-opus-4-8",
        start="2026-11-03T13:30:00Z",
        seconds_per_step=45,
        notes="pivots: continue_after_milestone (nice, keep at it), delegation_after_dead_end (your call)",
    )
]
