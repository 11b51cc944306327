# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: a path-traversal report and a vulnerable SAML dependency in an Express service (Gemini CLI).

Labelled: "…" after the agent reproduced the report and proposed a fix (implicit approval), a
bare "ok" after the fix is proven with a fuzz run (continue after milestone — the same word is a
negative elsewhere, the context decides), and "go for it" after three failed attempts to patch
the SAML dependency (delegation after a dead end). Negatives: "ok" during the routine
per-endpoint fix, a directed "use path.resolve …", a hook-output meta record.
"""

from __future__ import annotations

from samplegen.heldout._kit import A, H, Kit, Meta, Scenario

FORMATS = ["gemini"]

CWD = "/home/sam/work/docvault"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

REPORT = """security@ got this today from a researcher:

> GET /api/files/download?name=..%2f..%2f..%2fetc%2fpasswd with any valid session returns the
> server's /etc/passwd. Tested on app.docvault.io, 2026-11-19 21:04 UTC.

is it real? how would you fix it? and check if anything else in the api builds paths the same way. don't deploy anything"""

PROPOSAL = """**It's real.** Reproduced locally (above): `/etc/passwd` comes back with a 200 for any
logged-in user. The same pattern is in three handlers:

| handler | file | how the path is built |
|---|---|---|
| `GET /api/files/download` | `src/routes/files.js:41` | `path.join(UPLOAD_DIR, req.query.name)` |
| `GET /api/files/preview` | `src/routes/files.js:77` | same, then `sharp(file)` |
| `GET /api/exports/:id/:name` | `src/routes/exports.js:23` | `` `${EXPORT_DIR}/${id}/${name}` `` |

`express` decodes `%2f` in query values, so `..%2f` becomes `../`.

**Proposed fix**
1. One helper `safeJoin(base, untrusted)`: reject NUL bytes, `path.resolve(base, untrusted)`,
   then require the result to start with `base + path.sep`. Use it in all three handlers.
2. Look files up by the DB id the user owns instead of by name where possible (download and
   preview already have `fileId` in the UI; exports use `id`).
3. Regression tests for each handler plus a small fuzz test with encoded variants
   (`..%2f`, `..%5c`, `%2e%2e/`, overlong UTF-8, absolute paths).
4. Check the access logs for `..` in these URLs to see if it was exploited.

**Risks**: some legacy uploads have names with `..` in the middle (`report..final.pdf`); the
resolve-and-prefix check allows those, a naive `includes('..')` would not. The exports route is
used by the nightly emailer, so its URL shape must stay the same.

Shall I implement it?"""

FUZZ = """Fix verified:

| check | result |
|---|---|
| original PoC (`..%2f..%2f..%2fetc%2fpasswd`) | 400 `invalid file name` |
| regression tests (3 handlers × 9 payloads) | 27 passed |
| fuzz, 50,000 generated names (encodings, separators, NUL, unicode dots) | 0 escapes, 0 crashes |
| legit names with `..` inside (`report..final.pdf`) | still served (200) |
| full test suite | 684 passed |
| access logs, last 90 days | 3 requests with `..%2f`, all from the researcher's IP on 2026-11-19 |"""

SAML_STUCK = """The SAML side is where I'm stuck. `npm audit` flags `xml2js <0.5.0` (prototype pollution,
CVE-2023-0842) via `passport-saml@3.2.4`, and `xml-crypto <3.2.1` (signature bypass).

1. `npm audit fix` → no fix available without `--force` (would install passport-saml 0.1.0, a downgrade).
2. `overrides: { "xml2js": "^0.6.2", "xml-crypto": "^3.2.1" }` → install OK, but 14 SAML tests fail:
   `TypeError: xmlCrypto.SignedXml is not a constructor` (xml-crypto 3 changed its API).
3. patch-package on passport-saml to use the new `SignedXml` API → 6 tests still fail with
   `invalid signature: the signature value ... is incorrect` on the Okta fixture.

I don't know whether the remaining failures are my patch or a real incompatibility."""

RECOVERY = """Regrouping:

- **Done**: path traversal fixed in 3 handlers, tests + fuzz, logs checked.
- **Open**: `passport-saml@3.2.4` pins vulnerable `xml2js` and `xml-crypto`; overriding them breaks
  signature checks, patching it by hand half-works.
- **Why**: `passport-saml` was renamed. Its maintained successor is `@node-saml/passport-saml` (v5),
  which depends on `xml-crypto@^6` and `xml2js@^0.6`.
- **Plan**: drop the override and the patch, move to `@node-saml/passport-saml@5`, adapt the
  strategy options (`cert` → `idpCert`, `callbackUrl` now required), run the SAML suite against the
  Okta and Azure AD fixtures."""

ENDPOINTS = [
    (
        "src/routes/files.js",
        "  const file = path.join(UPLOAD_DIR, req.query.name)\n  res.download(file)",
        "  const file = safeJoin(UPLOAD_DIR, req.query.name)\n  if (!file) return res.status(400).json({ error: 'invalid file name' })\n  res.download(file)",
    ),
    (
        "src/routes/files.js",
        "  const file = path.join(UPLOAD_DIR, req.query.name)\n  const img = sharp(file)",
        "  const file = safeJoin(UPLOAD_DIR, req.query.name)\n  if (!file) return res.status(400).json({ error: 'invalid file name' })\n  const img = sharp(file)",
    ),
    (
        "src/routes/exports.js",
        "  const file = `${EXPORT_DIR}/${req.params.id}/${req.params.name}`",
        "  const file = safeJoin(path.join(EXPORT_DIR, String(Number(req.params.id))), req.params.name)\n  if (!file) return res.status(400).json({ error: 'invalid file name' })",
    ),
]


def steps() -> list:
    s: list = [
        H(REPORT),
        A(
            "Reproducing against a local instance first.",
            tools=[
                sh(
                    "npm run dev >/tmp/dev.log 2>&1 & sleep 4; TOKEN=$(curl -s localhost:3000/api/login -d 'email=dev@local&password=dev' | jq -r .token); curl -s -o /dev/null -w '%{http_code}\\n' -H \"Authorization: Bearer $TOKEN\" 'localhost:3000/api/files/download?name=..%2f..%2f..%2fetc%2fpasswd'; curl -s -H \"Authorization: Bearer $TOKEN\" 'localhost:3000/api/files/download?name=..%2f..%2f..%2fetc%2fpasswd' | head -2",
                    "200\nroot:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin",
                )
            ],
        ),
        A(
            tools=[
                grep(
                    "path\\.join\\(|\\$\\{[A-Z_]+_DIR\\}",
                    "src",
                    "src/routes/files.js:41:  const file = path.join(UPLOAD_DIR, req.query.name)\nsrc/routes/files.js:77:  const file = path.join(UPLOAD_DIR, req.query.name)\n"
                    "src/routes/exports.js:23:  const file = `${EXPORT_DIR}/${req.params.id}/${req.params.name}`\nsrc/lib/config.js:8:const UPLOAD_DIR = path.join(ROOT, 'uploads')",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "curl -s -o /dev/null -w '%{http_code}\\n' -H \"Authorization: Bearer $TOKEN\" 'localhost:3000/api/exports/1/..%2f..%2f..%2f.env'; curl -s -o /dev/null -w '%{http_code}\\n' -H \"Authorization: Bearer $TOKEN\" 'localhost:3000/api/files/preview?name=..%2f..%2fpackage.json'",
                    "200\n415",
                )
            ]
        ),
        A(
            "Checking whether the reverse proxy in front would normalise the path before it reaches Express.",
            tools=[
                rd(
                    "deploy/nginx/docvault.conf",
                    "location /api/ {\n    proxy_pass http://docvault_app;\n    proxy_set_header Host $host;\n    client_max_body_size 50m;\n}\n",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "curl -s -o /dev/null -w '%{http_code}\\n' -H \"Authorization: Bearer $TOKEN\" -H 'Host: app.docvault.io' 'http://localhost:8080/api/files/download?name=..%2f..%2f..%2fetc%2fpasswd'",
                    "200",
                )
            ]
        ),
        A(
            "nginx passes the query string through untouched (it only normalises the path part), so production is exposed too. When was this introduced?",
            tools=[
                sh(
                    "git log -L41,41:src/routes/files.js --format='%h %ad %s' --date=short | rg '^[0-9a-f]{7} ' | tail -2",
                    "3e9a1c0 2024-02-12 files: download by name instead of id (faster for the mobile app)\n91bb2d4 2023-09-30 files: initial download route",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "git show 3e9a1c0 --stat | tail -3",
                    " src/routes/files.js       | 18 +++++++++-----\n test/routes/files.test.js |  6 +++---\n 2 files changed, 15 insertions(+), 9 deletions(-)",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sqlite3 data/dev.db \"select count(*) from files where name like '%..%'\"",
                    "212",
                )
            ]
        ),
        A(PROPOSAL),
        H("…", expect=("implicit_approval", "ack")),
        # ^ the person asked "how would you fix it", the agent proposed a fix with risks and asked; "…" and it implements.
        A(
            "Implementing.",
            tools=[
                todo(
                    [
                        ("safeJoin helper + unit tests", "in_progress"),
                        ("Use safeJoin in download, preview, exports", "pending"),
                        ("Regression + fuzz tests", "pending"),
                        ("Check access logs for exploitation", "pending"),
                        ("npm audit", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                wr(
                    "src/lib/safeJoin.js",
                    "'use strict'\nconst path = require('node:path')\n\n/** Resolve `untrusted` under `base`; null if it escapes or is malformed. */\n"
                    "function safeJoin(base, untrusted) {\n  if (typeof untrusted !== 'string' || untrusted.length === 0 || untrusted.includes('\\0')) return null\n"
                    "  const root = path.resolve(base)\n  const full = path.resolve(root, untrusted)\n  return full.startsWith(root + path.sep) ? full : null\n}\n\nmodule.exports = { safeJoin }\n",
                )
            ]
        ),
        H(
            "use path.resolve + startsWith like that, not a regex, and make sure it handles windows separators in the input"
        ),
        # ^ NOT silent: a directed requirement mid-implementation.
        A(
            "It already uses resolve + prefix. On Linux `\\` is a valid filename character, so `..\\..\\etc` can't escape; I'll normalise backslashes anyway so a Windows-style payload is rejected consistently and tested.",
            tools=[
                ed(
                    "src/lib/safeJoin.js",
                    "  const root = path.resolve(base)",
                    "  untrusted = untrusted.replace(/\\\\/g, '/')\n  const root = path.resolve(base)",
                )
            ],
        ),
        A(
            tools=[
                wr(
                    "test/safeJoin.test.js",
                    "const { safeJoin } = require('../src/lib/safeJoin')\nconst B = '/srv/uploads'\n\n"
                    "test.each(['../etc/passwd', '..\\\\..\\\\etc\\\\passwd', '/etc/passwd', 'a/../../b', 'x\\u0000.pdf', ''])('rejects %p', (n) => expect(safeJoin(B, n)).toBeNull())\n"
                    "test.each(['a.pdf', 'report..final.pdf', 'sub/dir/a.png'])('accepts %p', (n) => expect(safeJoin(B, n)).toMatch(/^\\/srv\\/uploads\\//))\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx jest test/safeJoin.test.js 2>&1 | tail -4",
                    "PASS test/safeJoin.test.js\n  ✓ rejects '../etc/passwd' (2 ms)\nTests:       9 passed, 9 total\nTime:        0.412 s",
                )
            ]
        ),
    ]
    for i, (path, old, new) in enumerate(ENDPOINTS):
        s.append(
            A(f"Handler {i + 1} of 3: `{path}`." if i == 0 else "", tools=[ed(path, old, new)])
        )
        s.append(
            A(
                tools=[
                    sh(
                        f"npx jest test/routes/{'files' if 'files' in path else 'exports'}.test.js 2>&1 | tail -2",
                        f"Tests:       {14 + 5 * i} passed, {14 + 5 * i} total\nTime:        {1.2 + i / 10:.2f} s",
                    )
                ]
            )
        )
        if i == 0:
            s += [
                H("ok"),
                # ^ NOT a pivot: an ack while the same fix is applied handler by handler.
            ]
        if i == 1:
            s += [
                H("k"),
                # ^ NOT a pivot: a second ack in the same per-handler routine (one handler left).
            ]
    s += [
        A(
            tools=[
                wr(
                    "test/routes/traversal.test.js",
                    "const payloads = ['..%2f..%2f..%2fetc%2fpasswd', '..%5c..%5cetc%5cpasswd', '%2e%2e/%2e%2e/etc/passwd', '%c0%ae%c0%ae/etc/passwd', '/etc/passwd', '....//....//etc/passwd', 'a%00.pdf', '..', '.']\n"
                    "describe.each(['/api/files/download?name=', '/api/files/preview?name=', '/api/exports/1/'])('%s', (prefix) => {\n"
                    "  test.each(payloads)('rejects %p', async (p) => {\n    const r = await agent.get(prefix + p)\n    expect([400, 404]).toContain(r.status)\n  })\n})\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx jest test/routes/traversal.test.js 2>&1 | tail -3",
                    "FAIL test/routes/traversal.test.js\n  ● /api/exports/1/ › rejects '..'\n    Expected: [400, 404]\n    Received: 500\nTests:       1 failed, 26 passed, 27 total",
                    code=1,
                )
            ]
        ),
        A(
            "`/api/exports/1/..` resolves to the export dir itself and `res.download` throws `EISDIR` (500). Treating a directory result as invalid.",
            tools=[
                ed(
                    "src/lib/safeJoin.js",
                    "  return full.startsWith(root + path.sep) ? full : null",
                    "  if (!full.startsWith(root + path.sep)) return null\n  return full",
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "src/routes/exports.js",
                    "  if (!file) return res.status(400).json({ error: 'invalid file name' })",
                    "  if (!file || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return res.status(404).end()",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx jest test/routes/traversal.test.js 2>&1 | tail -2",
                    "Tests:       27 passed, 27 total\nTime:        2.118 s",
                )
            ]
        ),
        A(
            tools=[
                wr(
                    "test/fuzz/traversal.fuzz.js",
                    "// 50k names from a grammar of dots, separators, encodings and unicode look-alikes; none may escape\nconst fc = require('fast-check')\n"
                    "fc.assert(fc.property(nameArb, (n) => { const r = safeJoin('/srv/uploads', decodeURIComponentSafe(n)); return r === null || r.startsWith('/srv/uploads/') }), { numRuns: 50000 })\n",
                )
            ]
        ),
        A(tools=[sh("node test/fuzz/traversal.fuzz.js && echo 'fuzz ok'", "fuzz ok", ms=18400)]),
        Meta(
            '<hook_output hook="PostToolUse" matcher="run_shell_command">secret-scan: 0 findings in 4 changed files</hook_output>'
        ),
        # ^ NOT human: hook output injected by the harness.
        A(
            tools=[
                sh(
                    "npx jest 2>&1 | tail -3",
                    "Test Suites: 61 passed, 61 total\nTests:       684 passed, 684 total\nTime:        38.02 s",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "zcat /var/log/docvault/access.log.*.gz | cat - /var/log/docvault/access.log | rg -c '(\\.\\.|%2e%2e)(%2f|%5c|/)'; zcat /var/log/docvault/access.log.*.gz | cat - /var/log/docvault/access.log | rg '(\\.\\.|%2e%2e)(%2f|%5c|/)' | awk '{print $1, $4}' | sort -u",
                    "3\n203.0.113.77 [19/Nov/2026:21:03:12\n203.0.113.77 [19/Nov/2026:21:04:40\n203.0.113.77 [19/Nov/2026:21:05:02",
                )
            ]
        ),
        A(
            "Checking what the researcher could have reached: the service user's readable files.",
            tools=[
                sh(
                    "sudo -u docvault find / -xdev \\( -name '*.env' -o -name '*.pem' \\) -readable 2>/dev/null | head -5",
                    "/srv/docvault/.env\n/srv/docvault/certs/saml-sp.pem",
                )
            ],
        ),
        A(
            "`.env` and the SP key were readable by the service, but the three logged requests only fetched `/etc/passwd` (each response is 1,912 bytes, the size of that file).",
            tools=[
                sh(
                    "zcat /var/log/docvault/access.log.*.gz | cat - /var/log/docvault/access.log | rg '203.0.113.77' | rg -o 'name=[^ ]+ HTTP/1.1\" [0-9]+ [0-9]+'",
                    'name=..%2f..%2f..%2fetc%2fpasswd HTTP/1.1" 200 1912\nname=..%2f..%2f..%2fetc%2fpasswd HTTP/1.1" 200 1912\nname=..%2f..%2f..%2fetc%2fpasswd HTTP/1.1" 200 1912',
                )
            ],
        ),
        A(
            FUZZ,
            tools=[
                todo(
                    [
                        ("safeJoin helper + unit tests", "completed"),
                        ("Use safeJoin in download, preview, exports", "completed"),
                        ("Regression + fuzz tests", "completed"),
                        ("Check access logs for exploitation", "completed"),
                        ("npm audit", "pending"),
                    ]
                )
            ],
        ),
        H("ok", expect=("continue_after_milestone", "ack")),
        # ^ the fix is proven with numbers; "ok" here hands the rest of the checklist to the agent, which starts the dependency phase.
        A(
            "Moving to the last item: the dependency audit.",
            tools=[
                sh(
                    "npm audit --omit=dev 2>&1 | tail -14",
                    "xml2js  <0.5.0\nSeverity: moderate\nxml2js is vulnerable to prototype pollution - https://github.com/advisories/GHSA-776f-qx25-q3cc\n"
                    "fix available via `npm audit fix --force`\nWill install passport-saml@0.1.0, which is a breaking change\nnode_modules/xml2js\n  passport-saml  *\n\n"
                    "xml-crypto  <3.2.1\nSeverity: critical\nxml-crypto may allow signature bypass - https://github.com/advisories/GHSA-x3m8-899r-f7c3\n\n2 vulnerabilities (1 moderate, 1 critical)",
                    code=1,
                )
            ],
        ),
        A(
            tools=[
                todo(
                    [
                        ("safeJoin helper + unit tests", "completed"),
                        ("Use safeJoin in download, preview, exports", "completed"),
                        ("Regression + fuzz tests", "completed"),
                        ("Check access logs for exploitation", "completed"),
                        ("npm audit: xml2js / xml-crypto via passport-saml", "in_progress"),
                    ]
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "package.json",
                    '  "dependencies": {',
                    '  "overrides": {\n    "xml2js": "^0.6.2",\n    "xml-crypto": "^3.2.1"\n  },\n  "dependencies": {',
                ),
                sh(
                    "npm install 2>&1 | tail -1 && npx jest test/saml 2>&1 | tail -3",
                    "added 3 packages, changed 2 packages, and audited 841 packages in 6s\n  ● SAML › accepts a valid Okta assertion\n    TypeError: xmlCrypto.SignedXml is not a constructor\nTests:       14 failed, 3 passed, 17 total",
                    code=1,
                ),
            ]
        ),
        A(
            "xml-crypto 3 changed its export. Patching passport-saml's use of it with patch-package.",
            tools=[
                ed(
                    "node_modules/passport-saml/lib/node-saml/saml.js",
                    "const sig = new xmlCrypto.SignedXml();",
                    "const sig = new xmlCrypto.SignedXml({ idMode: 'wssecurity' });",
                ),
                sh(
                    "npx patch-package passport-saml && npx jest test/saml 2>&1 | tail -3",
                    "patch-package 8.0.0\n✔ Created file patches/passport-saml+3.2.4.patch\n  ● SAML › accepts a valid Okta assertion\n    Error: invalid signature: the signature value kP9x... is incorrect\nTests:       6 failed, 11 passed, 17 total",
                    code=1,
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "npx jest test/saml -t 'Azure' 2>&1 | tail -2",
                    "  ● SAML › accepts a valid Azure AD assertion\nTests:       3 failed, 14 skipped, 17 total",
                    code=1,
                )
            ]
        ),
        A(SAML_STUCK),
        H("go for it", expect=("delegation_after_dead_end", "ack")),
        # ^ three failed ways to patch the dependency and an open question of cause; "go for it" leaves the approach to the agent.
        A(RECOVERY),
        A(
            tools=[
                sh(
                    "rm -rf patches && git checkout package.json package-lock.json && npm rm passport-saml && npm i @node-saml/passport-saml@5 2>&1 | tail -1",
                    "added 9 packages, removed 12 packages, and audited 838 packages in 5s\n\nfound 0 vulnerabilities",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "src/auth/saml.js",
                    "const { Strategy } = require('passport-saml')",
                    "const { Strategy } = require('@node-saml/passport-saml')",
                ),
                ed(
                    "src/auth/saml.js",
                    "    cert: idp.cert,\n    callbackUrl: idp.callbackUrl,",
                    "    idpCert: idp.cert,\n    callbackUrl: idp.callbackUrl ?? `${BASE_URL}/auth/saml/${idp.slug}/callback`,\n    wantAuthnResponseSigned: false,",
                ),
            ]
        ),
        A(
            tools=[
                sh(
                    "npx jest test/saml 2>&1 | tail -3",
                    "  ● SAML › rejects an assertion for another audience\n    expected 401, got 200\nTests:       1 failed, 16 passed, 17 total",
                    code=1,
                )
            ]
        ),
        A(
            "One real difference: v5 only checks the audience if `audience` is set. We relied on the old default (issuer). Setting it explicitly.",
            tools=[
                ed(
                    "src/auth/saml.js",
                    "    wantAuthnResponseSigned: false,",
                    "    wantAuthnResponseSigned: false,\n    audience: idp.audience ?? idp.issuer,",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "npx jest test/saml 2>&1 | tail -2 && npx jest 2>&1 | tail -2 && npm audit --omit=dev",
                    "Tests:       17 passed, 17 total\nTests:       684 passed, 684 total\nTime:        39.40 s\nfound 0 vulnerabilities",
                )
            ]
        ),
        A(
            "Checking a real login round trip against the Okta sandbox fixture, not just the unit tests.",
            tools=[
                sh(
                    "npm run dev >/tmp/dev.log 2>&1 & sleep 4; node scripts/saml-e2e.js --idp okta-sandbox 2>&1 | tail -4",
                    '→ GET /auth/saml/okta-sandbox  302 (AuthnRequest signed, 1.2 KB)\n→ POST /auth/saml/okta-sandbox/callback  302 → /app\n→ GET /api/me  200 {"email":"qa+saml@docvault.io","sso":true}\nok (3 requests, 812 ms)',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "node scripts/saml-e2e.js --idp azure-sandbox 2>&1 | tail -2",
                    '→ GET /api/me  200 {"email":"qa-azure@docvault.io","sso":true}\nok (3 requests, 1041 ms)',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "node scripts/saml-e2e.js --idp okta-sandbox --tamper signature 2>&1 | tail -2",
                    '→ POST /auth/saml/okta-sandbox/callback  401 {"error":"Invalid signature"}\nok (expected failure)',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "git add -A src test package.json package-lock.json && git commit -qm 'security: safeJoin for file routes; move to @node-saml/passport-saml 5' && git log --oneline -1",
                    "a7f0e31 security: safeJoin for file routes; move to @node-saml/passport-saml 5",
                )
            ]
        ),
        A(
            "Both done: traversal fixed (3 handlers, 27 regression tests, 50k fuzz cases), SAML moved to `@node-saml/passport-saml@5` with the audience check kept, `npm audit` clean, 684 tests pass. Nothing deployed.",
            tools=[
                todo(
                    [
                        ("safeJoin helper + unit tests", "completed"),
                        ("Use safeJoin in download, preview, exports", "completed"),
                        ("Regression + fuzz tests", "completed"),
                        ("Check access logs for exploitation", "completed"),
                        ("npm audit: xml2js / xml-crypto via passport-saml", "completed"),
                    ]
                )
            ],
        ),
        H("write the advisory text for the researcher and a changelog line, then stop"),
        # ^ NOT silent.
        A(
            tools=[
                wr(
                    "SECURITY-ADVISORY-2026-11.md",
                    "# Path traversal in file download, preview and export endpoints\n\nReported by: (researcher), 2026-11-19. Fixed: 2026-11-20.\n"
                    "Impact: any authenticated user could read files readable by the service user.\nExploitation: only the reporter's 3 requests in 90 days of logs.\n",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "CHANGELOG.md",
                    "## Unreleased\n",
                    "## Unreleased\n\n- Security: reject file names that resolve outside the upload/export directories (path traversal). Replace passport-saml with @node-saml/passport-saml 5.\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "npx markdownlint SECURITY-ADVISORY-2026-11.md CHANGELOG.md && git add SECURITY-ADVISORY-2026-11.md CHANGELOG.md && git commit -qm 'docs: advisory and changelog for the traversal fix' && git log --oneline -2",
                    "c12d9b8 docs: advisory and changelog for the traversal fix\na7f0e31 security: safeJoin for file routes; move to @node-saml/passport-saml 5",
                )
            ]
        ),
        A("Advisory in `SECURITY-ADVISORY-2026-11.md`, changelog updated. Stopping here."),
    ]
    return s


SCENARIOS = [
    Scenario(
        name="heldout-docvault-traversal",
        title="Path traversal report and SAML dependency CVEs",
        cwd=CWD,
        steps=steps(),
        model="gemini-3-pro-preview",
        start="2026-11-20T07:15:00Z",
        seconds_per_step=40,
        notes="pivots: implicit_approval (…), continue_after_milestone (ok), delegation_after_dead_end (go for it)",
    )
]
