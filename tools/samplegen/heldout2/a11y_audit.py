"""Accessibility audit fixes across a web app's components: a long routine loop, a milestone, a CI gate."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import Compact, H, Nudge, Scenario
from samplegen.heldout2._kit import a, ed, rd, sh, todo, wr

CWD = "/home/dev/code/clinic-portal"

# (component, violation, count, old, new)
FIXES = [
    (
        "Button/IconButton.tsx",
        "button-name",
        31,
        "<button className={cls} onClick={onClick}>",
        "<button className={cls} onClick={onClick} aria-label={label}>",
    ),
    (
        "Form/TextField.tsx",
        "label",
        22,
        "<input id={id} {...rest} />",
        "<label htmlFor={id}>{label}</label>\n<input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...rest} />",
    ),
    (
        "Nav/Sidebar.tsx",
        "landmark-unique",
        9,
        '<nav className="sidebar">',
        '<nav className="sidebar" aria-label="Sections">',
    ),
    (
        "Table/PatientTable.tsx",
        "th-has-data-cells",
        8,
        '<td className="head">{col.title}</td>',
        '<th scope="col">{col.title}</th>',
    ),
    (
        "Modal/Dialog.tsx",
        "aria-dialog-name",
        7,
        '<div role="dialog" className="modal">',
        '<div role="dialog" aria-modal="true" aria-labelledby={titleId} className="modal">',
    ),
    ("Badge/StatusBadge.tsx", "color-contrast", 26, "color: #8fa3b8;", "color: #4a5d70;"),
    (
        "Calendar/DayCell.tsx",
        "nested-interactive",
        6,
        '<div role="button" onClick={select}><a href={href}>{day}</a></div>',
        "<a href={href} onClick={select} aria-current={isToday ? 'date' : undefined}>{day}</a>",
    ),
    (
        "Toast/Toast.tsx",
        "aria-live missing",
        4,
        '<div className="toast">',
        '<div className="toast" role="status" aria-live="polite">',
    ),
    (
        "Form/Select.tsx",
        "select-name",
        11,
        "<select id={id} {...rest}>",
        "<select id={id} aria-label={label} {...rest}>",
    ),
    (
        "Avatar/Avatar.tsx",
        "image-alt",
        12,
        '<img src={src} className="avatar" />',
        '<img src={src} className="avatar" alt={name} />',
    ),
    (
        "Tabs/Tabs.tsx",
        "aria-required-children",
        5,
        '<div role="tablist">{children}</div>',
        '<div role="tablist" aria-orientation="horizontal">{tabs.map(t => <button role="tab" aria-selected={t.id === active} key={t.id}>{t.label}</button>)}</div>',
    ),
    (
        "Link/ExternalLink.tsx",
        "link-name",
        2,
        '<a href={href} target="_blank"><Icon name="external" /></a>',
        '<a href={href} target="_blank" rel="noopener"><Icon name="external" aria-hidden /><span className="sr-only">{label} (opens in new tab)</span></a>',
    ),
]

loop = []
for comp, rule, n, old, new in FIXES:
    path = f"{CWD}/src/components/{comp}"
    loop.append(a(f"`{comp}` — {rule} ({n} nodes).", rd(path, old), ed(path, old, new)))
    loop.append(
        a(
            "",
            sh(
                f"npx jest src/components/{comp.split('/')[0]} --silent",
                f"Tests: {n % 7 + 4} passed, {n % 7 + 4} total",
            ),
        )
    )

PAGES = [
    "/login",
    "/dashboard",
    "/patients",
    "/patients/123",
    "/appointments",
    "/appointments/new",
    "/messages",
    "/billing",
    "/settings",
    "/settings/profile",
    "/help",
    "/reports",
    "/admin/users",
    "/admin/audit",
]
page_scan = [
    a(
        f"axe on {p}.",
        sh(f"npx axe http://localhost:3000{p} --exit --tags wcag2a,wcag2aa", "0 violations found!"),
    )
    for p in PAGES[:8]
]

steps = [
    H(
        "we got the accessibility audit back from the external firm (docs/a11y-audit-2026-10.pdf, summary in docs/a11y-audit.md). fix the component-level issues, we need WCAG 2.1 AA before the hospital contract renews"
    ),
    a(
        "Reading the audit summary.",
        rd(
            f"{CWD}/docs/a11y-audit.md",
            "# Findings (14 pages)\n| rule | nodes |\n|---|---|\n| button-name | 31 |\n| color-contrast | 26 |\n| label | 22 |\n| image-alt | 12 |\n| select-name | 11 |\n| landmark-unique | 9 |\n| th-has-data-cells | 8 |\n| aria-dialog-name | 7 |\n| nested-interactive | 6 |\n| aria-required-children | 5 |\n| aria-live | 4 |\n| link-name | 2 |\nTotal: 143 nodes, Lighthouse accessibility 71",
        ),
        todo(
            ("Baseline axe scan", "in_progress"),
            ("Fix component-level violations (12 rules)", "pending"),
            ("Re-scan 14 pages", "pending"),
        ),
    ),
    a(
        "Reproducing the baseline with axe-core on all 14 pages.",
        sh(
            "npm run dev >/tmp/dev.log 2>&1 & sleep 8; npx axe $(sed 's#^#http://localhost:3000#' scripts/pages.txt) --tags wcag2a,wcag2aa --save /tmp/axe-before.json | tail -2",
            "143 Accessibility issues detected.\nResults saved to /tmp/axe-before.json",
        ),
        sh(
            "npx lighthouse http://localhost:3000/dashboard --only-categories=accessibility --quiet --output json | jq '.categories.accessibility.score'",
            "0.71",
        ),
        todo(
            ("Baseline axe scan", "completed"),
            ("Fix component-level violations (12 rules)", "in_progress"),
        ),
    ),
    a(
        "Same 143 nodes as the audit. Nearly all come from 12 shared components, so fixing them at the component level fixes every page. Going one by one, tests after each."
    ),
    *loop[:8],
    # Deliberate negative: an ack in the middle of the component loop; the same work simply goes on.
    H("k"),
    *loop[8:14],
    # Deliberate negative: compaction in the middle of routine work; nothing changes across it.
    Compact(
        "## Summary\n**Goal:** fix the component-level WCAG 2.1 AA violations from the external audit (143 nodes on 14 pages).\n"
        "**Done so far:** IconButton, TextField, Sidebar, PatientTable, Dialog, StatusBadge, Calendar DayCell fixed; tests pass after each.\n"
        "**In progress:** working through the remaining components (Toast, Select, Avatar, Tabs, ExternalLink), then a full re-scan.",
    ),
    *loop[14:18],
    Nudge(),  # Deliberate negative: a harness nudge alone in routine work.
    *loop[18:],
    a(
        "All 12 components done. Re-scanning the 14 pages.",
        sh(
            "npx axe $(sed 's#^#http://localhost:3000#' scripts/pages.txt) --tags wcag2a,wcag2aa --save /tmp/axe-after.json | tail -1",
            "0 violations found!",
        ),
        todo(
            ("Fix component-level violations (12 rules)", "completed"),
            ("Re-scan 14 pages", "in_progress"),
        ),
    ),
    a(
        "",
        sh(
            "for p in /dashboard /patients /appointments/new; do npx lighthouse http://localhost:3000$p --only-categories=accessibility --quiet --output json | jq -r '.categories.accessibility.score'; done",
            "0.98\n0.97\n1",
        ),
        sh(
            "npx jest --silent",
            "Test Suites: 188 passed, 188 total\nTests:       1406 passed, 1406 total",
        ),
        todo(("Re-scan 14 pages", "completed")),
    ),
    a(
        "Automated checks are clean:\n\n| | audit | now |\n|---|---|---|\n| axe violations (14 pages) | 143 | **0** |\n| Lighthouse a11y, dashboard | 71 | **98** |\n| Lighthouse a11y, patients | — | 97 |\n| Lighthouse a11y, new appointment | — | 100 |\n\n"
        "All 1,406 unit tests pass. The audit also lists keyboard and screen-reader findings that axe can't detect (focus order, focus trap in dialogs, skip link)."
    ),
    # Milestone with figures and a named remainder; the person sends a thumbs-up and the agent starts the manual-check phase.
    H("👍", expect=("continue_after_milestone", "ack")),
    a(
        "On to what axe can't see: keyboard and focus behaviour. I'll encode the audit's manual findings as Playwright tests so they stay fixed.",
        rd(
            f"{CWD}/docs/a11y-audit.md",
            "## Manual findings\n- K1: no skip-to-content link\n- K2: focus escapes the appointment dialog on Tab\n- K3: focus lost after closing a dialog (goes to <body>)\n- K4: date picker not operable with arrow keys",
        ),
        todo(
            ("K1 skip link", "in_progress"),
            ("K2 dialog focus trap", "pending"),
            ("K3 restore focus on close", "pending"),
            ("K4 date picker arrow keys", "pending"),
        ),
    ),
    a(
        "",
        wr(
            f"{CWD}/e2e/keyboard.spec.ts",
            "test('K1 skip link is first tab stop', ...)\ntest('K2 Tab stays inside dialog', ...)\ntest('K3 focus returns to trigger after close', ...)\ntest('K4 arrow keys move the selected day', ...)",
        ),
        sh(
            "npx playwright test e2e/keyboard.spec.ts",
            "  4 failed\n    K1 skip link is first tab stop\n    K2 Tab stays inside dialog\n    K3 focus returns to trigger after close\n    K4 arrow keys move the selected day",
            code=1,
        ),
    ),
    a(
        "All four fail as expected. K1: skip link in the layout.",
        ed(
            f"{CWD}/src/layout/AppShell.tsx",
            "<body>",
            '<body>\n  <a className="skip-link" href="#main">Skip to content</a>',
        ),
        ed(f"{CWD}/src/layout/AppShell.tsx", "<main>", '<main id="main" tabIndex={-1}>'),
    ),
    a(
        "K2 + K3: focus trap and focus restore in Dialog.",
        ed(
            f"{CWD}/src/components/Modal/Dialog.tsx",
            "export function Dialog({ open, onClose, title, children }) {",
            "export function Dialog({ open, onClose, title, children }) {\n  const ref = useFocusTrap(open)\n  useRestoreFocus(open)",
        ),
        wr(
            f"{CWD}/src/hooks/useFocusTrap.ts",
            "export function useFocusTrap(active: boolean) { /* cycles Tab / Shift+Tab within the container */ }",
        ),
    ),
    a(
        "K4: arrow-key navigation in the date grid (roving tabindex).",
        ed(
            f"{CWD}/src/components/Calendar/DayCell.tsx",
            "<a href={href} onClick={select}",
            "<a href={href} onClick={select} tabIndex={isFocused ? 0 : -1} onKeyDown={onArrow}",
        ),
        sh("npx playwright test e2e/keyboard.spec.ts", "  4 passed (12.3s)"),
        todo(
            ("K1 skip link", "completed"),
            ("K2 dialog focus trap", "completed"),
            ("K3 restore focus on close", "completed"),
            ("K4 date picker arrow keys", "completed"),
        ),
    ),
    a("Keyboard findings K1–K4 fixed, each covered by a Playwright test."),
    H("can we make sure this doesn't rot? like fail CI when someone adds a new violation"),
    a(
        "Checking what CI runs today and how long an axe pass would add.",
        rd(
            f"{CWD}/.gitlab-ci.yml",
            "stages: [lint, test, build]\nunit:\n  stage: test\n  script: npx jest --ci\ne2e:\n  stage: test\n  script: npx playwright test",
        ),
        sh(
            "time npx playwright test e2e/a11y.smoke.spec.ts 2>&1 | tail -2",
            "  1 passed (38.9s)\nreal 0m41.2s",
        ),
    ),
    *page_scan,
    a(
        "Proposal for a CI gate:\n\n1. `@axe-core/playwright` in the existing e2e job: scan all 14 pages (≈ 40 s) with `wcag2a,wcag2aa`; any violation fails the job, with the rule and selector in the output.\n"
        "2. `eslint-plugin-jsx-a11y` (recommended set) in the lint stage for fast feedback in editors.\n3. The keyboard spec runs in e2e already.\n\n"
        "**Risks:** jsx-a11y will flag ~60 existing warnings in non-audited admin screens; I'd start it as `warn` there and `error` elsewhere. Third-party widgets (the chat bubble) get an explicit axe `exclude` with a comment.\n\nShall I set it up?"
    ),
    # Implicit approval: the person's request, researched and answered with a plan and risks; "sure" releases it.
    H("sure", expect=("implicit_approval", "ack")),
    a(
        "Adding the axe scan to e2e.",
        sh(
            "npm i -D @axe-core/playwright@4.10.1 eslint-plugin-jsx-a11y@6.10.2",
            "added 3 packages in 4s",
        ),
        wr(
            f"{CWD}/e2e/a11y.spec.ts",
            "for (const page of PAGES) {\n  test(`axe ${page}`, async ({ page: p }) => {\n    await p.goto(page)\n    const r = await new AxeBuilder({ page: p }).withTags(['wcag2a', 'wcag2aa']).exclude('#chat-widget').analyze()\n    expect(r.violations).toEqual([])\n  })\n}",
        ),
        todo(("axe in e2e", "in_progress"), ("jsx-a11y lint", "pending")),
    ),
    a(
        "",
        ed(
            f"{CWD}/.eslintrc.cjs",
            "extends: ['next/core-web-vitals'],",
            "extends: ['next/core-web-vitals', 'plugin:jsx-a11y/recommended'],\n  overrides: [{ files: ['src/admin/**'], rules: { 'jsx-a11y/no-autofocus': 'warn', 'jsx-a11y/click-events-have-key-events': 'warn' } }],",
        ),
        sh("npx eslint src --max-warnings 9999 | tail -1", "✖ 58 problems (0 errors, 58 warnings)"),
    ),
    a(
        "Proving the gate catches a regression: temporarily removing an alt text.",
        ed(f"{CWD}/src/components/Avatar/Avatar.tsx", "alt={name} ", ""),
        sh(
            "npx playwright test e2e/a11y.spec.ts 2>&1 | tail -3",
            "  1 failed\n    axe /patients — image-alt: Images must have alternate text (img.avatar)\n  13 passed (39.7s)",
            code=1,
        ),
        ed(
            f"{CWD}/src/components/Avatar/Avatar.tsx",
            'className="avatar" />',
            'className="avatar" alt={name} />',
        ),
    ),
    a(
        "",
        sh(
            "npx playwright test e2e/a11y.spec.ts e2e/keyboard.spec.ts 2>&1 | tail -1",
            "  18 passed (47.5s)",
        ),
        todo(("axe in e2e", "completed"), ("jsx-a11y lint", "completed")),
    ),
    a(
        "The gate is in: axe on 14 pages in e2e (fails on any WCAG A/AA violation; verified with a deliberate regression), jsx-a11y in lint (admin screens warn-only, 58 warnings to burn down), keyboard spec K1–K4."
    ),
    # Deliberate negative: thanks at the very end.
    H("thanks, great work"),
    a("Thanks! I'd suggest a follow-up ticket for the 58 admin lint warnings."),
]

SCENARIOS = [
    Scenario(
        name="h2_a11y_audit",
        title="Fix WCAG 2.1 AA audit findings",
        cwd=CWD,
        steps=steps,
        start="2026-11-06T12:30:00Z",
    )
]
FORMATS = ["opencode", "claude", "gemini"]
