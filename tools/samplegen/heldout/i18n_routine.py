# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: extracting hard-coded strings from a Vue app into vue-i18n, batch by batch (Claude Code).

A whole session of hard negatives: the person sends many bare acks ("ok", "go on", "yes", ".",
"k", "continue", "👍") but every one falls inside the same routine — extract a
batch, run the checks, report, next batch — so none of them is a pivot. Also Claude Code's isMeta
nudge ("Continue from where you left off.") where the person resumed mid-routine, a clarification loop where the agent
only asks again, and directed short messages.
"""

from __future__ import annotations

from samplegen.heldout._kit import A, H, Kit, Nudge, Scenario

FORMATS = ["claude"]

CWD = "/home/elif/dev/tripplanner-web"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

BATCHES = [
    (["TripList", "TripCard", "TripFilters", "EmptyState", "NavBar"], 61),
    (["BookingForm", "BookingSummary", "PaymentStep", "PromoCode", "PriceBreakdown"], 88),
    (["ProfilePage", "SettingsPage", "NotificationPrefs", "DeleteAccount", "AvatarUpload"], 54),
    (["MapView", "PlaceSearch", "PlaceDetails", "ReviewList", "ReviewForm"], 73),
    (["ItineraryEditor", "DayColumn", "ActivityCard", "ShareDialog", "ExportPdf"], 69),
    (["LoginForm", "SignupForm", "ForgotPassword", "TwoFactor", "OnboardingTour"], 67),
]

ACKS = ["ok", "go on", "yes", ".", "k"]


def batch(n: int, comps: list[str], strings: int) -> list:
    """One routine batch: extract, type-check, test, report."""
    keys = sum(1 for _ in comps) * 3
    hiccup = []
    if n == 1:
        # one routine snag inside a batch (a snapshot with the old literal), fixed at once: not a dead end
        hiccup = [
            A(
                tools=[
                    sh(
                        "npx vitest run src/components/__tests__/PriceBreakdown.spec.ts 2>&1 | tail -3",
                        " FAIL  src/components/__tests__/PriceBreakdown.spec.ts > renders totals\nError: Snapshot `renders totals 1` mismatched\n      Tests  1 failed | 7 passed (8)",
                        code=1,
                    )
                ]
            ),
            A(
                "The snapshot renders through a test i18n instance without messages, so it shows keys. Giving the test helper the real `en.json`.",
                tools=[
                    ed(
                        "src/test/mountWithI18n.ts",
                        "createI18n({ legacy: false, locale: 'en', messages: {} })",
                        "createI18n({ legacy: false, locale: 'en', messages: { en } })",
                    )
                ],
            ),
        ]
    return hiccup + [
        A(
            f"Batch {n + 1} of 6: {', '.join(comps)}.",
            tools=[
                sh(
                    f"npx vue-i18n-extract extract --vueFiles 'src/components/{{{','.join(comps)}}}.vue' --languageFiles 'src/locales/en.json' --add --separator . 2>&1 | tail -2",
                    f"Added {strings} keys to src/locales/en.json\n{keys} keys reused from existing entries",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    f"node scripts/replace-literals.mjs {' '.join(f'src/components/{c}.vue' for c in comps)}",
                    "\n".join(
                        f"src/components/{c}.vue: {strings // len(comps) + (i % 3)} literals → $t()"
                        for i, c in enumerate(comps)
                    ),
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx eslint --rule '@intlify/vue-i18n/no-raw-text: error' "
                    + " ".join(f"src/components/{c}.vue" for c in comps),
                    "",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx vue-tsc --noEmit && npx vitest run --reporter=dot 2>&1 | tail -2",
                    f" Test Files  {40 + n} passed ({40 + n})\n      Tests  {318 + 6 * n} passed ({318 + 6 * n})",
                )
            ]
        ),
        A(
            f"Batch {n + 1} done: {strings} strings moved to `en.json`, type-check and {318 + 6 * n} tests pass. "
            f"{6 - n - 1} batches left." + (" Next one?" if n == 2 else "")
            if n < 5
            else f"Batch 6 done: {strings} strings. That was the last batch."
        ),
    ]


def steps() -> list:
    s: list = [
        H(
            "we're adding German and Turkish. first step: get every user-facing string in src/components "
            "into src/locales/en.json with vue-i18n. do it in batches of 5 components and run the checks "
            "after each batch"
        ),
        A(
            "Checking the setup and how many components have literals.",
            tools=[
                sh(
                    "rg -l '>[A-Z][a-z]+[^<{]*<' src/components --glob '*.vue' | wc -l && cat src/i18n.ts",
                    "30\nimport { createI18n } from 'vue-i18n'\nimport en from './locales/en.json'\n\nexport const i18n = createI18n({ legacy: false, locale: 'en', messages: { en } })\n",
                )
            ],
        ),
        A(
            tools=[
                todo(
                    [
                        (f"Batch {i + 1}: {', '.join(c)}", "pending")
                        for i, (c, _) in enumerate(BATCHES)
                    ]
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "ls src/locales && jq 'paths(scalars) | join(\".\")' -r src/locales/en.json | head -5 && jq '[paths(scalars)] | length' src/locales/en.json",
                    "en.json\ncommon.save\ncommon.cancel\ncommon.loading\nerrors.network\nerrors.unknown\n47",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npm ls vue-i18n @intlify/eslint-plugin-vue-i18n",
                    "tripplanner-web@0.31.0 /home/elif/dev/tripplanner-web\n├── @intlify/eslint-plugin-vue-i18n@3.2.0\n└── vue-i18n@10.0.5",
                )
            ]
        ),
        A(
            "vue-i18n is already installed with `legacy: false`; 30 components have literals. Key naming: `component.element`, e.g. `tripCard.bookButton`. Starting with batch 1."
        ),
    ]
    for n, (comps, strings) in enumerate(BATCHES):
        s += batch(n, comps, strings)
        if n == 2:
            # the person resumed the session here (`claude --continue`): Claude Code injects its isMeta nudge
            # before the prompt. NOT a pivot: a harness nudge plus an ack, still inside the same routine.
            s.append(Nudge("Continue from where you left off."))
        if n < 5:
            s.append(H(ACKS[n]))
            # ^ NOT a pivot: an ack between identical batches; the next batch is the same kind of work.
    s += [
        A(
            tools=[
                sh(
                    "npx eslint --rule '@intlify/vue-i18n/no-raw-text: error' 'src/components/**/*.vue' && jq '[paths(scalars)] | length' src/locales/en.json && npm run build 2>&1 | tail -1",
                    "459\n✓ built in 8.74s",
                )
            ]
        ),
        A(
            "All 30 components are extracted: 412 new strings in `en.json` (459 keys with the 47 existing ones), no raw text left per the lint rule. Next would be the German and Turkish files. Do you have a translation service, or should I create empty `de.json` / `tr.json` with the same keys?"
        ),
        H("continue"),
        # ^ NOT a pivot: the agent's open question gets a bare go-on; it only asks again, nothing changes.
        A(
            "To continue I need to know which way: (a) empty `de.json`/`tr.json` for translators to fill, or (b) machine-translate a first draft? I'd rather not guess, since machine drafts tend to get shipped as-is."
        ),
        H("a, translators use lokalise, so also add the lokalise config"),
        # ^ NOT silent: a direction.
        A(
            tools=[
                sh(
                    "node -e \"const en=require('./src/locales/en.json');const blank=o=>Object.fromEntries(Object.entries(o).map(([k,v])=>[k,typeof v==='object'?blank(v):'']));for(const l of ['de','tr'])require('fs').writeFileSync('src/locales/'+l+'.json',JSON.stringify(blank(en),null,2)+'\\n')\" && jq '[paths(scalars)] | length' src/locales/de.json src/locales/tr.json",
                    "459\n459",
                )
            ]
        ),
        A(
            tools=[
                wr(
                    "lokalise.yml",
                    'project_id: 81273649a1b2c3d4e5f6.12345678\nfile_format: json\nbase_lang: en\nfiles:\n  - src/locales/%LANG_ISO%.json\nexport:\n  placeholder_format: i18n\n  original_filenames: true\n  directory_prefix: ""\n',
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "src/i18n.ts",
                    "import en from './locales/en.json'\n\nexport const i18n = createI18n({ legacy: false, locale: 'en', messages: { en } })",
                    "import en from './locales/en.json'\nimport de from './locales/de.json'\nimport tr from './locales/tr.json'\n\n"
                    "export const i18n = createI18n({ legacy: false, locale: navigator.language.slice(0, 2), fallbackLocale: 'en', messages: { en, de, tr }, missingWarn: false, fallbackWarn: false })",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx vue-tsc --noEmit && npx vitest run --reporter=dot 2>&1 | tail -1 && npm run build 2>&1 | tail -2",
                    "      Tests  348 passed (348)\ndist/assets/index-b1c2d3.js   412.77 kB │ gzip: 131.08 kB\n✓ built in 8.91s",
                )
            ]
        ),
        A(
            "Empty `de.json` and `tr.json` (459 keys each) with English fallback, `lokalise.yml` for the upload, build and 348 tests pass."
        ),
        H("ok, now add a CI check that fails if en.json has keys the other files don't"),
        # ^ NOT silent: "ok" followed by new work.
        A(
            tools=[
                wr(
                    "scripts/check-locales.mjs",
                    "import en from '../src/locales/en.json' with { type: 'json' }\nconst keys = (o, p = '') => Object.entries(o).flatMap(([k, v]) => typeof v === 'object' ? keys(v, p + k + '.') : [p + k])\n"
                    "let bad = 0\nfor (const lang of ['de', 'tr']) {\n  const other = new Set(keys((await import(`../src/locales/${lang}.json`, { with: { type: 'json' } })).default))\n"
                    "  for (const k of keys(en)) if (!other.has(k)) { console.error(`${lang}: missing ${k}`); bad++ }\n}\nprocess.exit(bad ? 1 : 0)\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "node scripts/check-locales.mjs && echo ok; jq 'del(.tripCard.bookButton)' src/locales/tr.json > /tmp/tr.json && cp src/locales/tr.json /tmp/tr.bak && cp /tmp/tr.json src/locales/tr.json && node scripts/check-locales.mjs; cp /tmp/tr.bak src/locales/tr.json",
                    "ok\ntr: missing tripCard.bookButton",
                    code=1,
                )
            ]
        ),
        A(
            tools=[
                ed(
                    ".github/workflows/ci.yml",
                    "      - run: npx vue-tsc --noEmit",
                    "      - run: npx vue-tsc --noEmit\n      - run: node scripts/check-locales.mjs",
                )
            ]
        ),
        A(
            "`scripts/check-locales.mjs` runs in CI after the type-check; it passes now and fails with `tr: missing tripCard.bookButton` when a key is removed (checked, then restored)."
        ),
        H("👍"),
        # ^ NOT a pivot: the end of the session; nothing follows but the sign-off.
        A("Done for today then."),
    ]
    return s


SCENARIOS = [
    Scenario(
        name="heldout-i18n-extraction-routine",
        title="Extract UI strings into vue-i18n, batch by batch",
        cwd=CWD,
        steps=steps(),
        model="claude-haiku-4-5",
        start="2026-11-11T14:05:00Z",
        seconds_per_step=25,
        notes="no pivots: every silence sits inside routine batch work, at the start, or is followed only by a question",
    )
]
