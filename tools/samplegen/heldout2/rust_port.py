"""Porting a Python address-normalisation module to Rust (PyO3): a Unicode dead end, then packaging."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import H, Meta, Nudge, Scenario
from samplegen.heldout2._kit import a, ed, rd, sh, todo, wr

CWD = "/home/dev/geo/addrnorm"

FUNCS = [
    (
        "collapse_ws",
        "re.sub(r'\\s+', ' ', s).strip()",
        's.split_whitespace().collect::<Vec<_>>().join(" ")',
        6,
    ),
    (
        "expand_abbrev",
        "ABBREV.get(tok.lower().rstrip('.'), tok)",
        "ABBREV.get(tok.trim_end_matches('.').to_lowercase().as_str()).copied().unwrap_or(tok)",
        14,
    ),
    (
        "split_unit",
        "m = UNIT_RE.match(s); return (m['unit'], m['rest']) if m else (None, s)",
        'UNIT_RE.captures(s).map(|c| (Some(c["unit"].to_owned()), c["rest"].to_owned())).unwrap_or((None, s.to_owned()))',
        9,
    ),
    (
        "parse_postcode",
        "POSTCODE[country].search(s)",
        "POSTCODE.get(country)?.find(s).map(|m| m.as_str())",
        11,
    ),
    (
        "street_case",
        "' '.join(w if w in KEEP else w.capitalize() for w in s.split())",
        "s.split(' ').map(|w| if KEEP.contains(w) { w.to_owned() } else { capitalize(w) }).collect::<Vec<_>>().join(\" \")",
        8,
    ),
    (
        "fold",
        "unicodedata.normalize('NFKD', s).encode('ascii', 'ignore').decode()",
        "s.nfkd().filter(char::is_ascii).collect()",
        7,
    ),
]

port = []
for name, py, rs, ntests in FUNCS:
    port.append(
        a(
            f"Porting `{name}`.",
            rd(f"{CWD}/addrnorm/core.py", f"def {name}(s):\n    return {py}"),
            ed(
                f"{CWD}/rust/src/lib.rs",
                "// next fn",
                f"pub fn {name}(s: &str) -> String {{\n    {rs}\n}}\n\n// next fn",
            ),
        )
    )
    port.append(
        a(
            "",
            sh(
                f"cd rust && cargo test {name} -q",
                f"running {ntests} tests\n{'.' * ntests}\ntest result: ok. {ntests} passed; 0 failed; 0 ignored",
            ),
        )
    )

benches = [
    a(
        f"Benchmark: {label}.",
        sh(
            f"python bench/compare.py --n {n} --impl py --impl rs",
            f"py: {py_ms:.1f} ms / {n:,} addresses\nrs: {rs_ms:.1f} ms / {n:,} addresses  ({py_ms / rs_ms:.1f}x)",
        ),
    )
    for label, n, py_ms, rs_ms in [
        ("short US addresses", 10_000, 412.0, 13.2),
        ("long DE addresses with units", 10_000, 538.4, 17.9),
        ("mixed 50k sample", 50_000, 2291.7, 74.0),
    ]
]

wheels = [
    a(
        f"Building the {target} wheel.",
        sh(
            f"maturin build --release --target {target} -i python3.11 -i python3.12 -i python3.13",
            f"📦 Built wheel for CPython 3.11 to target/wheels/addrnorm-2.0.0-cp311-cp311-{tag}.whl\n📦 Built wheel for CPython 3.12 to target/wheels/addrnorm-2.0.0-cp312-cp312-{tag}.whl\n📦 Built wheel for CPython 3.13 to target/wheels/addrnorm-2.0.0-cp313-cp313-{tag}.whl",
        ),
    )
    for target, tag in [
        ("x86_64-unknown-linux-gnu", "manylinux_2_28_x86_64"),
        ("aarch64-unknown-linux-gnu", "manylinux_2_28_aarch64"),
        ("aarch64-apple-darwin", "macosx_11_0_arm64"),
    ]
]

COUNTRIES = [
    ("US", 14_210),
    ("DE", 9_877),
    ("FR", 6_102),
    ("PL", 4_415),
    ("TR", 3_990),
    ("GB", 5_306),
    ("JP", 2_771),
    ("BR", 3_329),
]
per_country = [
    a(
        f"Differential check for {cc} ({n:,} addresses).",
        sh(f"python tests/diff_impls.py --country {cc}", f"mismatches: 0 / {n:,}"),
    )
    for cc, n in COUNTRIES
]
CALLERS = [
    (
        "geocoder/pipeline.py",
        "from addrnorm import normalize\n...\n    addr = normalize(row.raw, country=row.cc)",
    ),
    (
        "geocoder/batch.py",
        "from addrnorm import normalize_batch\n    out = normalize_batch(rows, country)",
    ),
    ("api/handlers/search.py", "from addrnorm.core import fold\n    q = fold(query)"),
    ("tests/test_core.py", "# 212 tests\ndef test_normalize_unit_suffix(): ..."),
]
callers = [a(f"Call site `{path}`.", rd(f"{CWD}/../{path}", body)) for path, body in CALLERS]
wheel_tests = [
    a(
        f"Smoke-testing the {plat} wheel in a clean environment.",
        sh(
            f"python scripts/wheel_smoke.py target/wheels/*cp312*{plat}*.whl",
            "import ok; normalize('12 main st apt 4') -> Address(number='12', street='Main Street', unit='Apt 4', postcode=None)",
        ),
    )
    for plat in ("linux_x86_64", "linux_aarch64", "macosx_11_0_arm64")
]

steps = [
    H(
        "port addrnorm/core.py to rust with pyo3 so the geocoder stops spending half its time in it. same public api, outputs must match the python version exactly"
    ),
    a(
        "Looking at the module and how it's used.",
        sh("wc -l addrnorm/core.py && grep -c '^def ' addrnorm/core.py", "318 addrnorm/core.py\n9"),
        sh(
            "python -X importtime -c 'import addrnorm' 2>&1 | tail -1 && py-spy record -d 20 -o /tmp/prof.txt --format raw -- python bench/geocode_sample.py && head -3 /tmp/prof.txt",
            "import time:      8812 |      21790 | addrnorm\nnormalize (addrnorm/core.py:201) 51.3%\nfold (addrnorm/core.py:44) 17.9%",
        ),
        todo(
            ("Cargo crate with pyo3 + maturin", "in_progress"),
            ("Port 6 helpers", "pending"),
            ("Port normalize()", "pending"),
            ("Differential test vs Python (50k)", "pending"),
        ),
    ),
    *callers,
    a(
        "Public API to keep: `normalize`, `normalize_batch`, `fold` (imported directly by the search API). The crate needs pyo3. Should I add pyo3 0.23 and maturin as the build backend?"
    ),
    H("yes but pin the versions exactly, we got bitten by a pyo3 minor bump last year"),
    a(
        "Pinned.",
        wr(
            f"{CWD}/rust/Cargo.toml",
            '[package]\nname = "addrnorm"\nversion = "2.0.0"\nedition = "2021"\n\n[lib]\ncrate-type = ["cdylib", "rlib"]\n\n[dependencies]\npyo3 = { version = "=0.23.4", features = ["extension-module"] }\nregex = "=1.11.1"\nunicode-normalization = "=0.1.24"\nonce_cell = "=1.20.2"',
        ),
        ed(
            f"{CWD}/pyproject.toml",
            'build-backend = "setuptools.build_meta"',
            'build-backend = "maturin"',
        ),
        sh("cd rust && cargo build -q && echo ok", "ok"),
        todo(("Cargo crate with pyo3 + maturin", "completed"), ("Port 6 helpers", "in_progress")),
    ),
    # Deliberate negative: an injected system reminder (synthetic, not the person).
    Meta(
        "<system-reminder>The TodoWrite tool hasn't been used recently. If you're working on tasks that would benefit from tracking progress, consider using the TodoWrite tool to track progress.</system-reminder>"
    ),
    *port[:6],
    Nudge(),  # Deliberate negative: a harness nudge alone during routine porting.
    *port[6:9],
    # Deliberate negative: an ellipsis mid-port; the agent keeps porting the next helper, as before.
    H("…"),
    *port[9:],
    a(
        "Helpers done. Porting `normalize()`, which chains them.",
        rd(
            f"{CWD}/addrnorm/core.py",
            "def normalize(raw, country='US'):\n    s = fold(collapse_ws(raw))\n    unit, rest = split_unit(s)\n    toks = [expand_abbrev(t) for t in rest.split(' ')]\n    ...",
        ),
        ed(
            f"{CWD}/rust/src/lib.rs",
            "// next fn",
            '#[pyfunction]\n#[pyo3(signature = (raw, country="US"))]\npub fn normalize(raw: &str, country: &str) -> PyResult<Address> { ... }',
        ),
        todo(
            ("Port 6 helpers", "completed"),
            ("Port normalize()", "completed"),
            ("Differential test vs Python (50k)", "in_progress"),
        ),
    ),
    a(
        "Differential test over the 50k real addresses in the fixture set.",
        sh(
            "maturin develop -q --release && python tests/diff_impls.py --n 50000",
            "mismatches: 1,204 / 50,000 (2.41%)\nfirst: 'Straße 5' py='Strasse 5' rs='Strae 5'\n       'Ｍａｉｎ Ｓｔ' py='Main St' rs='Main St'\n       'Łódzka 3' py='odzka 3' rs='Lodzka 3'",
            code=1,
        ),
    ),
    a(
        "Two kinds of mismatch. `ß` is dropped by my fold (NFKD doesn't decompose it; Python's version has a table for it that I missed), and `Ł` — Python *drops* it, Rust folds it. Porting the table and matching Python's dropping behaviour.",
        rd(f"{CWD}/addrnorm/core.py", "EXTRA_FOLD = {'ß': 'ss', 'æ': 'ae', 'ø': 'o', 'đ': 'd'}"),
        ed(
            f"{CWD}/rust/src/lib.rs",
            "s.nfkd().filter(char::is_ascii).collect()",
            "s.chars().flat_map(|c| EXTRA_FOLD.get(&c).map(|r| r.chars().collect()).unwrap_or_else(|| c.to_string().nfkd().collect::<Vec<_>>())).filter(char::is_ascii).collect()",
        ),
        sh(
            "maturin develop -q --release && python tests/diff_impls.py --n 50000",
            "mismatches: 388 / 50,000 (0.78%)\nfirst: 'Łódzka 3' py='odzka 3' rs='Lodzka 3'\n       'İstiklal Cd.' py='Istiklal Cadde' rs='Istiklal Cd.'",
            code=1,
        ),
    ),
    a(
        "388 left. `Ł` has no NFKD decomposition, so Rust's `unicode-normalization` shouldn't fold it either… yet it does. Checking the crate's behaviour directly.",
        sh(
            "cd rust && cargo run -q --example nfkd -- 'Ł' 'İ'",
            "Ł -> [U+0141]\nİ -> [U+0049, U+0307]",
        ),
        sh(
            "python -c \"import unicodedata as u; print([hex(ord(c)) for c in u.normalize('NFKD','İ')]); print(u.unidata_version)\"",
            "['0x49', '0x307']\n15.1.0",
        ),
        sh(
            "maturin develop -q --release && python tests/diff_impls.py --n 50000 --only-failing --explain | head -4",
            "388 mismatches: all in expand_abbrev after fold\n'İstiklal Cd.': py folds 'İ'->'I' then lower() -> 'i̇stiklal'?? rs -> 'istiklal'\nTraceback (most recent call last):\n  File \"tests/diff_impls.py\", line 88, in explain\nKeyError: 'Cd'",
            code=1,
        ),
    ),
    a(
        "That contradicts my theory (the crate doesn't fold `Ł`), and the explain script crashes on the abbreviation table. Trying Python's own `str.lower()` semantics for the abbreviation lookup.",
        ed(
            f"{CWD}/rust/src/lib.rs",
            "tok.trim_end_matches('.').to_lowercase()",
            "py_lower(tok.trim_end_matches('.'))",
        ),
        sh(
            "cd rust && cargo test -q",
            "error[E0425]: cannot find function `py_lower` in this scope\n  --> src/lib.rs:88:41\nerror: could not compile `addrnorm` (lib) due to 1 previous error",
            code=101,
        ),
        todo(("Differential test vs Python (50k)", "FAILED: 388 mismatches, cause unclear")),
    ),
    a(
        "I'm stuck on the last 388: the ß table fixed 816 mismatches, but my explanation for `Ł`/`İ` was wrong, the explain tool crashes, and the `py_lower` idea doesn't compile yet. I don't have a solid hypothesis."
    ),
    # Dead end: three failed attempts, a wrong theory, no plan; the person sends nothing.
    H("", expect=("delegation_after_dead_end", "empty")),
    a(
        "**Status:** 6 helpers + normalize() ported; differential test 49,612/50,000 match. Remaining 388 mismatches all involve `Ł`, `İ` or similar.\n\n"
        "**What I got wrong:** the mismatch is not in NFKD. Next I'll diff per *stage* (fold → collapse → split_unit → abbrev) on the 388 inputs instead of guessing.",
    ),
    a(
        "",
        wr(
            f"{CWD}/tests/diff_stages.py",
            "for raw in failing:\n    for stage in STAGES:\n        py, rs = getattr(core, stage)(raw), getattr(_rs, stage)(raw)\n        if py != rs:\n            print(stage, repr(raw), repr(py), repr(rs)); break",
        ),
        sh(
            "python tests/diff_stages.py tests/fixtures/failing_388.txt | cut -d' ' -f1 | sort | uniq -c",
            "    388 fold",
        ),
    ),
    a(
        "All 388 diverge in `fold`. Looking at what Python's fold really does with `Ł`.",
        sh(
            "python -c \"from addrnorm.core import fold; print(repr(fold('Łódzka'))); import addrnorm.core as c; print(c.fold.__wrapped__ if hasattr(c.fold,'__wrapped__') else 'plain')\"",
            "'odzka'\nplain",
        ),
        rd(
            f"{CWD}/addrnorm/core.py",
            "def fold(s):\n    s = ''.join(EXTRA_FOLD.get(c, c) for c in s)\n    return unicodedata.normalize('NFKD', s).encode('ascii', 'ignore').decode()",
        ),
    ),
    a(
        "Python drops `Ł` because it has no decomposition and isn't in EXTRA_FOLD; my Rust kept it as `L` because I wrote `Ł` into the Rust EXTRA_FOLD map while porting (my mistake, it's not in the Python table). Same for `İ`: Python keeps the combining dot and then drops it, giving `I`; my Rust lowercased first. Making the Rust table match Python's 4 entries exactly and applying the same order.",
        ed(
            f"{CWD}/rust/src/fold.rs",
            "('ß', \"ss\"), ('æ', \"ae\"), ('ø', \"o\"), ('đ', \"d\"), ('ł', \"l\"), ('Ł', \"L\")",
            "('ß', \"ss\"), ('æ', \"ae\"), ('ø', \"o\"), ('đ', \"d\")",
        ),
        ed(
            f"{CWD}/rust/src/lib.rs",
            "py_lower(tok.trim_end_matches('.'))",
            "tok.trim_end_matches('.').to_lowercase()",
        ),
        sh(
            "maturin develop -q --release && python tests/diff_impls.py --n 50000",
            "mismatches: 0 / 50,000",
        ),
    ),
    a(
        "0 mismatches on 50k. Also running the hypothesis-based fuzz comparison for inputs outside the fixtures.",
        sh(
            "pytest tests/test_equivalence.py -q --hypothesis-seed=0",
            "....\n4 passed in 61.02s (hypothesis: 40,000 examples)",
        ),
        todo(("Differential test vs Python (50k)", "completed"), ("Benchmarks", "in_progress")),
    ),
    *per_country,
    *benches,
    a(
        "The port is done and exact:\n\n| input | Python | Rust | speed-up |\n|---|---|---|---|\n| 10k short US | 412.0 ms | 13.2 ms | 31.2× |\n| 10k DE with units | 538.4 ms | 17.9 ms | 30.1× |\n| 50k mixed | 2,291.7 ms | 74.0 ms | 31.0× |\n\n"
        "Outputs identical on 50,000 real addresses and 40,000 fuzzed ones.",
        todo(("Benchmarks", "completed")),
    ),
    # Milestone (exact match + figures); a bare "k" and the agent moves on to packaging on its own.
    H("k", expect=("continue_after_milestone", "ack")),
    a(
        "Next phase is shipping it: wheels for the platforms the geocoder runs on (linux x86_64/aarch64, macOS arm64 for dev laptops) and a pure-Python fallback.",
        ed(
            f"{CWD}/addrnorm/__init__.py",
            "from .core import normalize",
            "try:\n    from ._addrnorm_rs import normalize\nexcept ImportError:  # no wheel for this platform\n    from .core import normalize",
        ),
        todo(
            ("Wheels: linux x86_64, linux aarch64, macOS arm64", "in_progress"),
            ("Fallback import", "completed"),
            ("CI release job", "pending"),
        ),
    ),
    *wheels,
    *wheel_tests,
    a(
        "Release job for CI.",
        wr(
            f"{CWD}/.github/workflows/wheels.yml",
            "on: {push: {tags: ['v*']}}\njobs:\n  build:\n    strategy: {matrix: {target: [x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu, aarch64-apple-darwin]}}\n    steps:\n      - uses: PyO3/maturin-action@v1\n        with: {target: '${{ matrix.target }}', args: '--release -i 3.11 3.12 3.13', manylinux: '2_28'}",
        ),
        todo(
            ("Wheels: linux x86_64, linux aarch64, macOS arm64", "completed"),
            ("CI release job", "completed"),
        ),
    ),
    a(
        "addrnorm 2.0.0 is ready to tag: 9 wheels (3 targets × CPython 3.11–3.13), pure-Python fallback, and a tag-triggered wheel workflow."
    ),
    H("ok, tag it as v2.0.0-rc1 and push, don't publish to the index yet"),
    a(
        "",
        sh(
            "git tag -a v2.0.0-rc1 -m 'addrnorm 2.0.0-rc1: Rust core' && git push origin v2.0.0-rc1",
            "To github.com:geo/addrnorm.git\n * [new tag]         v2.0.0-rc1 -> v2.0.0-rc1",
        ),
    ),
    a("Tagged and pushed v2.0.0-rc1; nothing published."),
]

SCENARIOS = [
    Scenario(
        name="h2_rust_port",
        title="Port addrnorm to Rust",
        cwd=CWD,
        steps=steps,
        start="2026-11-09T14:00:00Z",
    )
]
FORMATS = ["claude", "opencode", "generic"]
