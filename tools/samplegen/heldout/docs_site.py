# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: getting an MkDocs Material docs site to build in strict mode, then versioning it (aider).

Labelled: a blank message after the first clean strict build with numbers (continue after
milestone) and "yep" after the agent's plan for versioned docs (implicit approval). Many
deliberate negatives, since aider users type short acks between routine batches: "ok", "k",
"yup" while link fixes go batch by batch, a blank after which the agent only asks, "thanks!" at
the end, and the directed "ok, now run the link checker on the built site".
"""

from __future__ import annotations

from samplegen.heldout._kit import A, H, Kit, Scenario

FORMATS = ["aider"]

CWD = "/home/rosa/proj/quarry-docs"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

BUILD_FAIL = """INFO    -  Cleaning site directory
INFO    -  Building documentation to directory: /home/rosa/proj/quarry-docs/site
WARNING -  Doc file 'guide/connectors.md' contains a link 'reference/postgres.md', but the target 'guide/reference/postgres.md' is not found among documentation files.
WARNING -  Doc file 'guide/connectors.md' contains a link '../api/index.html#auth', but the target is not found among documentation files.
WARNING -  Doc file 'ops/upgrade.md' contains an unrecognized relative link 'CHANGELOG', it was left as is.
WARNING -  The following pages exist in the docs directory, but are not included in the "nav" configuration:
  - ops/backup-restore.md
  - guide/sql-dialect.md
WARNING -  Material: 'admonition' style '!!! Note "Title"' uses a deprecated syntax in 'guide/quickstart.md'
...
Aborted with 212 warnings in strict mode!"""

PLAN = """Versioned docs, the way the other projects in the org do it:

- **Tool**: `mike` (deploys each version as a folder on the `gh-pages` branch, with a version
  switcher that Material supports natively via `extra.version.provider: mike`).
- **Versions**: `2.x` (current, from `main`) and `1.x` (from the `release-1.9` branch), alias
  `latest` → `2.x`, default redirect to `latest`.
- **CI**: `docs.yml` runs `mike deploy --push --update-aliases $VERSION latest` on tags `v2.*`,
  and `mike deploy 1.x` on pushes to `release-1.9`.
- **URLs**: existing links like `/guide/quickstart/` would 404; a `404.html` redirect to
  `/latest/guide/quickstart/` keeps them working.

Risks: `release-1.9` has the old mkdocs config and will not build in strict mode (I'd build it
non-strict); the search index is per version, so search won't find 1.x pages from 2.x.

Nothing changed yet."""

BATCHES = [
    ("guide/connectors.md", "reference/postgres.md", "../reference/postgres.md", 212, 161),
    ("guide/quickstart.md", '!!! Note "Before you start"', '!!! note "Before you start"', 161, 118),
    ("ops/upgrade.md", "[changelog](CHANGELOG)", "[changelog](../changelog.md)", 118, 74),
    ("reference/cli.md", "[config](../config.html)", "[config](../reference/config.md)", 74, 31),
]


def steps() -> list:
    s: list = [
        H(
            "after bumping mkdocs-material to 9.5 and mkdocs to 1.6 the docs build fails in strict mode. "
            "get it building with --strict again without turning strict off"
        ),
        A(
            "Let me see what strict mode is complaining about.",
            tools=[sh("mkdocs build --strict 2>&1 | tail -12", BUILD_FAIL, code=1)],
        ),
        A(
            tools=[
                sh(
                    "mkdocs build --strict 2>&1 | rg '^WARNING' | sed -E \"s/'[^']*'//g\" | sort | uniq -c | sort -rn",
                    "    121 WARNING -  Doc file  contains a link , but the target  is not found among documentation files.\n"
                    "     47 WARNING -  Material: admonition style  uses a deprecated syntax in \n"
                    "     31 WARNING -  Doc file  contains an unrecognized relative link , it was left as is.\n"
                    '     11 WARNING -  The following pages exist in the docs directory, but are not included in the "nav" configuration:\n'
                    "      2 WARNING -  Config value 'theme.features': 'navigation.instant.prefetch' requires Insiders",
                    code=0,
                )
            ]
        ),
        A(
            "212 warnings in five kinds. Plan:",
            tools=[
                todo(
                    [
                        ("Broken relative links (121)", "in_progress"),
                        ("Deprecated admonition syntax (47)", "pending"),
                        ("Unrecognized relative links (31)", "pending"),
                        ("Pages missing from nav (11)", "pending"),
                        ("Insiders-only feature in config (2)", "pending"),
                    ]
                )
            ],
        ),
        A(
            "mkdocs 1.6 resolves links relative to the page, not to `docs/`. Most broken links in `guide/` point at `reference/` without `../`.",
            tools=[
                ed(
                    "docs/guide/connectors.md",
                    "[Postgres](reference/postgres.md)",
                    "[Postgres](../reference/postgres.md)",
                )
            ],
        ),
    ]
    for i, (path, old, new, before, after) in enumerate(BATCHES):
        s += [
            A(tools=[ed(f"docs/{path}", old, new)]),
            A(
                tools=[
                    sh(
                        f"python tools/fix_links.py docs --rule {i + 1} && mkdocs build --strict 2>&1 | tail -1",
                        f"rewrote {before - after - 1} links in {9 + i} files\nAborted with {after} warnings in strict mode!",
                        code=1,
                    )
                ]
            ),
        ]
        if i == 0:
            s += [H("ok")]
            # ^ NOT a pivot: an ack between two batches of the same link fixing.
        if i == 1:
            s += [H("k")]
            # ^ NOT a pivot: same routine, one-letter ack.
        if i == 2:
            s += [
                A(
                    "74 left. The `CHANGELOG` links: the changelog lives at the repo root, outside `docs/`; I'll include it with the snippets extension instead of linking out.",
                    tools=[wr("docs/changelog.md", '# Changelog\n\n--8<-- "CHANGELOG.md"\n')],
                ),
                H("yup"),
            ]
            # ^ NOT a pivot: an ack to a routine explanation, the work continues unchanged.
    s += [
        A(
            "31 left: the 11 pages missing from nav and the Insiders feature.",
            tools=[
                rd(
                    "mkdocs.yml",
                    "site_name: Quarry\ntheme:\n  name: material\n  features:\n    - navigation.instant\n    - navigation.instant.prefetch\n    - content.code.copy\nnav:\n  - Home: index.md\n  - Guide:\n    - guide/quickstart.md\n    - guide/connectors.md\n  - Reference:\n    - reference/cli.md\n    - reference/config.md\n  - Operations:\n    - ops/upgrade.md\n",
                )
            ],
        ),
        A(tools=[ed("mkdocs.yml", "    - navigation.instant.prefetch\n", "")]),
        A(
            tools=[
                ed(
                    "mkdocs.yml",
                    "  - Guide:\n    - guide/quickstart.md\n    - guide/connectors.md",
                    "  - Guide:\n    - guide/quickstart.md\n    - guide/connectors.md\n    - guide/sql-dialect.md\n    - guide/transforms.md\n    - guide/scheduling.md\n    - guide/secrets.md",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "mkdocs.yml",
                    "  - Operations:\n    - ops/upgrade.md",
                    "  - Operations:\n    - ops/upgrade.md\n    - ops/backup-restore.md\n    - ops/monitoring.md\n    - ops/scaling.md\n  - Changelog: changelog.md",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "mkdocs build --strict 2>&1 | tail -3",
                    'WARNING -  The following pages exist in the docs directory, but are not included in the "nav" configuration:\n  - reference/deprecated-flags.md\n  - drafts/roadmap-2027.md\nAborted with 2 warnings in strict mode!',
                    code=1,
                )
            ]
        ),
        A(
            "`drafts/` should never be published; `deprecated-flags.md` belongs under Reference.",
            tools=[
                ed(
                    "mkdocs.yml",
                    "    - reference/config.md",
                    "    - reference/config.md\n    - reference/deprecated-flags.md",
                ),
                ed(
                    "mkdocs.yml",
                    "site_name: Quarry",
                    "site_name: Quarry\nexclude_docs: |\n  drafts/",
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "time mkdocs build --strict 2>&1 | tail -2",
                    "INFO    -  Documentation built in 38.71 seconds\n\nreal\t0m41.022s\nuser\t0m39.80s\nsys\t0m1.10s",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "du -sh site && find site -name '*.html' | wc -l && du -h site/search/search_index.json",
                    "61M\tsite\n148\n9.8M\tsite/search/search_index.json",
                )
            ]
        ),
        A(
            "Strict build passes:\n\n| | before | after |\n|---|---|---|\n| strict warnings | 212 | 0 |\n| build time | aborted | 41 s |\n"
            "| pages in nav | 137 | 147 (+10 orphans added, drafts excluded) |\n\n"
            "Worth knowing: the search index is 9.8 MB, which every visitor downloads on first search.",
            tools=[
                todo(
                    [
                        ("Broken relative links (121)", "completed"),
                        ("Deprecated admonition syntax (47)", "completed"),
                        ("Unrecognized relative links (31)", "completed"),
                        ("Pages missing from nav (11)", "completed"),
                        ("Insiders-only feature in config (2)", "completed"),
                    ]
                )
            ],
        ),
        H("", expect=("continue_after_milestone", "empty")),
        # ^ milestone with numbers and a loose end (9.8 MB index); a blank message and the agent starts the size/perf phase.
        A(
            "Looking at why the search index is so big.",
            tools=[
                sh(
                    "python -c \"import json;d=json.load(open('site/search/search_index.json'));docs=d['docs'];print(len(docs));big=sorted(docs,key=lambda x:-len(x['text']))[:3];[print(len(b['text']),b['location']) for b in big]\"",
                    "4112\n3911240 reference/sql-functions/\n1208771 reference/cli/\n402118 changelog/",
                )
            ],
        ),
        A(
            "`reference/sql-functions` is generated (1,400 functions, one table each) and is 3.9 MB of the index on its own. Excluding its body from search but keeping the headings.",
            tools=[
                ed(
                    "docs/reference/sql-functions.md",
                    "---\ntitle: SQL functions\n---",
                    "---\ntitle: SQL functions\nsearch:\n  boost: 0.5\n---",
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "mkdocs.yml",
                    "plugins:\n  - search",
                    "plugins:\n  - search:\n      separator: '[\\s\\-\\.]+'\n  - search_exclude_body:\n      pages: [reference/sql-functions.md, changelog.md]",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pip install -q mkdocs-search-exclude-body && mkdocs build --strict 2>&1 | tail -1 && du -h site/search/search_index.json",
                    "ERROR   -  Config value 'plugins': The \"search_exclude_body\" plugin is not installed\nAborted with a configuration error!",
                    code=1,
                )
            ]
        ),
        A(
            "That plugin name doesn't exist on PyPI under that name; I'll do it with a small hook instead of a dependency.",
            tools=[
                wr(
                    "hooks/search_trim.py",
                    '"""Keep headings but drop body text of huge generated pages from the search index."""\nTRIM = {"reference/sql-functions.md", "changelog.md"}\n\n\n'
                    'def on_page_context(context, page, config, nav):\n    if page.file.src_uri in TRIM:\n        page.content = "\\n".join(l for l in page.content.split("\\n") if l.startswith("<h"))\n    return context\n',
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "mkdocs.yml",
                    "  - search_exclude_body:\n      pages: [reference/sql-functions.md, changelog.md]",
                    "",
                ),
                ed(
                    "mkdocs.yml",
                    "exclude_docs: |",
                    "hooks:\n  - hooks/search_trim.py\nexclude_docs: |",
                ),
            ]
        ),
        A(
            tools=[
                sh(
                    "mkdocs build --strict 2>&1 | tail -1 && du -h site/search/search_index.json && grep -c 'array_agg' site/reference/sql-functions/index.html",
                    "INFO    -  Documentation built in 36.02 seconds\n2.1M\tsite/search/search_index.json\n0",
                    code=0,
                )
            ]
        ),
        A(
            "Index is 2.1 MB now, but `array_agg` disappeared from the rendered page too: `on_page_context` runs before the HTML is written, so I trimmed the page itself. Moving the trim to `on_post_build` on the index file only.",
            tools=[
                ed(
                    "hooks/search_trim.py",
                    'def on_page_context(context, page, config, nav):\n    if page.file.src_uri in TRIM:\n        page.content = "\\n".join(l for l in page.content.split("\\n") if l.startswith("<h"))\n    return context',
                    'def on_post_build(config):\n    path = Path(config.site_dir) / "search" / "search_index.json"\n    idx = json.loads(path.read_text())\n'
                    '    for d in idx["docs"]:\n        if d["location"].split("#")[0].rstrip("/") + ".md" in TRIM and "#" not in d["location"]:\n            d["text"] = ""\n    path.write_text(json.dumps(idx, separators=(",", ":")))',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "mkdocs build --strict 2>&1 | tail -1 && du -h site/search/search_index.json && grep -c 'array_agg' site/reference/sql-functions/index.html",
                    "INFO    -  Documentation built in 36.40 seconds\n2.3M\tsite/search/search_index.json\n4",
                )
            ]
        ),
        A("Search index 9.8 MB → 2.3 MB (−77 %), pages render in full, build 36 s."),
        H("ok, now run the link checker on the built site, external links too"),
        # ^ NOT silent: starts with "ok" but names new work.
        A(
            tools=[
                sh(
                    "lychee --no-progress --max-concurrency 16 'site/**/*.html' 2>&1 | tail -6",
                    "✗ [404] https://quarry.dev/blog/2024/connectors-v2 | Failed: Network error: Not Found\n"
                    "✗ [404] https://github.com/quarry-io/quarry/blob/main/docs/ops/backup.md | Failed: Not Found\n"
                    "✗ [TIMEOUT] https://status.quarry.dev/ | Timeout\n🔍 4,802 Total ✅ 4,761 OK 🚫 3 Errors 💤 38 Excluded",
                    code=2,
                )
            ]
        ),
        A(
            "Two real 404s and one timeout (the status page is behind a VPN).",
            tools=[
                ed(
                    "docs/guide/connectors.md",
                    "https://quarry.dev/blog/2024/connectors-v2",
                    "https://quarry.dev/blog/2024/10/connectors-v2/",
                ),
                ed(
                    "docs/ops/upgrade.md",
                    "https://github.com/quarry-io/quarry/blob/main/docs/ops/backup.md",
                    "../ops/backup-restore.md",
                ),
            ],
        ),
        A(
            tools=[
                wr(".lycheeignore", "https://status.quarry.dev/\n"),
                sh(
                    "mkdocs build --strict -q && lychee --no-progress 'site/**/*.html' 2>&1 | tail -1",
                    "🔍 4,801 Total ✅ 4,763 OK 🚫 0 Errors 💤 38 Excluded",
                ),
            ]
        ),
        A(
            "Link check clean: 4,763 OK, 0 errors, 38 excluded (mailto and the VPN-only status page)."
        ),
        H(
            "could we version the docs like the other projects do? 1.x is still supported for a year and people keep landing on 2.x pages"
        ),
        A(
            tools=[
                sh(
                    "git branch -r | rg release; git show origin/release-1.9:mkdocs.yml | head -4",
                    "  origin/release-1.8\n  origin/release-1.9\nsite_name: Quarry\ntheme:\n  name: material\n  custom_dir: overrides",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "gh api repos/quarry-io/ingest-docs/contents/.github/workflows/docs.yml -q .content | base64 -d | rg -n 'mike'",
                    "31:      - run: mike deploy --push --update-aliases ${{ env.VERSION }} latest\n36:      - run: mike set-default --push latest",
                )
            ]
        ),
        A(PLAN),
        H("yep", expect=("implicit_approval", "ack")),
        # ^ the person proposed versioning, the agent researched and laid out the plan with risks; "yep" and it executes.
        A(
            "Setting it up.",
            tools=[
                todo(
                    [
                        ("mike + version provider in mkdocs.yml", "in_progress"),
                        ("Deploy 2.x (latest) and 1.x locally", "pending"),
                        ("404 redirect for old unversioned URLs", "pending"),
                        ("CI workflow for tags and release-1.9", "pending"),
                    ]
                )
            ],
        ),
        A(tools=[sh("pip install -q 'mike==2.1.3' && pip freeze | rg '^mike'", "mike==2.1.3")]),
        A(
            tools=[
                ed(
                    "mkdocs.yml",
                    "theme:\n  name: material",
                    "extra:\n  version:\n    provider: mike\n    default: latest\ntheme:\n  name: material",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "mike deploy --update-aliases 2.x latest && mike set-default latest && mike list",
                    "INFO    -  Documentation built in 36.88 seconds\n2.x [latest]",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "git worktree add /tmp/docs-1.9 origin/release-1.9 -f && cd /tmp/docs-1.9 && mike deploy --deploy-prefix '' 1.x 2>&1 | tail -2",
                    "WARNING -  Doc file 'index.md' contains a link 'guide/quickstart.html', but the target is not found among documentation files.\nINFO    -  Documentation built in 22.10 seconds",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "mike list && mike serve -a 127.0.0.1:8001 & sleep 2; curl -s 127.0.0.1:8001/versions.json",
                    '2.x [latest]\n1.x\n[{"version":"2.x","title":"2.x","aliases":["latest"]},{"version":"1.x","title":"1.x","aliases":[]}]',
                )
            ]
        ),
        A(
            tools=[
                wr(
                    "overrides/404.html",
                    '{% extends "main.html" %}\n{% block content %}\n<script>\n  // old unversioned URLs → /latest/…\n  const p = location.pathname;\n'
                    "  if (!/^\\/(latest|\\d+\\.x)\\//.test(p)) location.replace('/latest' + p);\n</script>\n<h1>Page not found</h1>\n{% endblock %}\n",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "curl -s -o /dev/null -w '%{http_code} %{redirect_url}\\n' 127.0.0.1:8001/guide/quickstart/ ; curl -sL 127.0.0.1:8001/guide/quickstart/ | rg -o '<title>[^<]+' ",
                    "404 \n<title>Page not found - Quarry",
                )
            ]
        ),
        A(
            "`mike serve` doesn't use the custom 404 page, so I can't test the redirect locally this way; checking the rendered 404.html contains the script instead.",
            tools=[sh('git show gh-pages:latest/404.html | rg -c "location.replace"', "1")],
        ),
        A(
            tools=[
                wr(
                    ".github/workflows/docs.yml",
                    "name: docs\non:\n  push:\n    tags: ['v2.*']\n    branches: [release-1.9]\njobs:\n  deploy:\n    runs-on: ubuntu-24.04\n    steps:\n"
                    "      - uses: actions/checkout@v4\n        with: { fetch-depth: 0 }\n      - run: pip install -r docs/requirements.txt\n"
                    "      - if: startsWith(github.ref, 'refs/tags/v2.')\n        run: mike deploy --push --update-aliases 2.x latest\n"
                    "      - if: github.ref == 'refs/heads/release-1.9'\n        run: mike deploy --push 1.x\n",
                )
            ]
        ),
        A(
            "Versioned docs are set up: `2.x` (alias `latest`, default) and `1.x` on `gh-pages`, version switcher in the header, old URLs redirect to `/latest/…` via the 404 page, CI deploys on `v2.*` tags and on `release-1.9` pushes. Nothing pushed yet.",
            tools=[
                todo(
                    [
                        ("mike + version provider in mkdocs.yml", "completed"),
                        ("Deploy 2.x (latest) and 1.x locally", "completed"),
                        ("404 redirect for old unversioned URLs", "completed"),
                        ("CI workflow for tags and release-1.9", "completed"),
                    ]
                )
            ],
        ),
        H(""),
        # ^ NOT a pivot: everything asked for is done; after the blank the agent only asks what to do next.
        A(
            "That's everything for versioning. Should I push `gh-pages` now, or do you want to look at it locally first (`mike serve`)?"
        ),
        H("push it"),
        # ^ NOT silent: a short but explicit instruction.
        A(
            tools=[
                sh(
                    "git push origin gh-pages && git add mkdocs.yml hooks overrides .github/workflows/docs.yml .lycheeignore docs && git commit -qm 'docs: strict build on mkdocs 1.6, smaller search index, versioned with mike' && git push",
                    "To github.com:quarry-io/quarry-docs.git\n   5e1f0c2..a9d33b1  gh-pages -> gh-pages\nTo github.com:quarry-io/quarry-docs.git\n   18c0aa4..77e2f91  main -> main",
                )
            ]
        ),
        A(
            "Pushed: `gh-pages` has `2.x` (latest) and `1.x`; `main` has the config, hook, 404 override and workflow."
        ),
        H("thanks!"),
        # ^ NOT a pivot: sign-off; nothing follows but a pleasantry.
        A("You're welcome!"),
    ]
    return s


SCENARIOS = [
    Scenario(
        name="heldout-docs-strict-versioned",
        title="MkDocs strict build, search index, versioned docs",
        cwd=CWD,
        steps=steps(),
        model="claude-sonnet-4-6",
        start="2026-11-09T10:00:00Z",
        seconds_per_step=35,
        notes="pivots: continue_after_milestone (blank), implicit_approval (yep)",
    )
]
