# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: Pydantic v1 → v2 (and FastAPI 0.95 → 0.115) in a billing API (Codex CLI).

Labelled: an empty message after the agent's researched plan (implicit approval); an empty
message after failed fixes that is immediately followed by an automatic compaction and its
summary (one pivot, anchored at the empty message — the compaction belongs to its cluster);
"proceed" after the green test run with benchmark numbers (continue after milestone).
Negatives: "ok" while failing tests are fixed batch by batch, "sounds good, but pin fastapi to
0.115.x" (directed), an empty message at the end after which the agent only asks.
"""

from __future__ import annotations

from samplegen.heldout._kit import A, Compact, H, Kit, Scenario

FORMATS = ["codex"]

CWD = "/srv/dev/billing-api"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

RESEARCH = """Blast radius of Pydantic v2 in `billing-api`:

- **Models**: 143 `BaseModel` subclasses in 38 files; 29 use `class Config`, 17 `orm_mode = True`.
- **Validators**: 41 `@validator`, 6 `@root_validator` (3 with `pre=True`), 2 `each_item=True`.
- **Serialization**: `json_encoders` for `Decimal` and `datetime` in the base model — v2 drops
  `json_encoders` semantics we rely on (money as string, datetimes with `Z`).
- **FastAPI**: 0.95 pins pydantic<2; needs ≥0.100. 0.115 is current.
- **Other deps**: `sqlmodel 0.0.8` (v1 only → 0.0.22), `fastapi-pagination 0.11` (→ 0.12),
  `pydantic-settings` split out of pydantic.
- **Tests**: 1,904 tests, 214 of them snapshot JSON responses.

**Plan**
1. Branch, bump fastapi/pydantic/sqlmodel/fastapi-pagination/pydantic-settings together.
2. Run `bump-pydantic` for the mechanical parts (Config → model_config, validators).
3. Hand-fix root validators, `json_encoders` → `PlainSerializer` on `Money`/`UtcDatetime` types.
4. Get the suite green without touching snapshots; snapshot diffs = real behaviour changes.
5. Benchmark serialization of the invoice list endpoint before/after.

**Risks**: subtle JSON changes for API clients (money and datetime formats), `from_orm` →
`model_validate(from_attributes=True)` on lazy relationships, and sqlmodel's v2 support being young.

I haven't changed anything yet."""

STUCK = """Where I am: from 212 failures down to 43, but the last two groups are resisting.

- **37 snapshot tests**: datetimes now serialize as `2026-03-01T10:00:00+00:00` instead of
  `2026-03-01T10:00:00Z`. My `UtcDatetime` serializer works on direct fields but not inside
  `dict[str, datetime]` and on `sqlmodel` table models. Tried an `Annotated` type, then a
  `model_serializer(mode="wrap")` on the base — the second broke `by_alias` (8 new failures).
- **6 tests**: `RecursionError` building the schema for `Account.parent: Account | None` since
  sqlmodel 0.0.22; `model_rebuild()` did not help.

Last run: `43 failed, 1861 passed`."""

COMPACT_SUMMARY = """## Task
Upgrade billing-api from Pydantic v1 / FastAPI 0.95 to Pydantic 2.9 / FastAPI 0.115.x (pinned by the user), keeping the JSON API byte-compatible.

## Done
- Dependencies bumped on branch `deps/pydantic-v2` (fastapi 0.115.6, pydantic 2.9.2, sqlmodel 0.0.22, fastapi-pagination 0.12.31, pydantic-settings 2.6.1).
- bump-pydantic applied to 38 files; root validators rewritten as `model_validator`; `Money` type with `PlainSerializer` (string, 2 decimals).
- Failures: 212 → 43.

## Open problems
- 37 snapshot tests: datetimes render `+00:00` instead of `Z` inside dicts and in sqlmodel table models.
- 6 tests: RecursionError on self-referencing `Account.parent` (sqlmodel 0.0.22).
- A wrap `model_serializer` on the base model broke `by_alias`; reverted.

## Files
app/models/base.py, app/models/types.py, app/models/account.py, app/api/invoices.py, tests/snapshots/*

## Next
Use a custom `JSONResponse` / `ser_json_timedelta`-style config: set `ser_json_datetime`? (not in 2.9) → instead register the datetime serializer via `TypeAdapter` in the response class; split `Account` table model from its API schema to break the recursion."""

BATCHES = [
    (
        "tests/api/test_customers.py",
        "`orm_mode` leftovers: `from_orm` → `model_validate(..., from_attributes=True)`",
        212,
        171,
    ),
    (
        "tests/api/test_invoices.py",
        "`.dict()`/`.json()` → `model_dump()`/`model_dump_json()` in handlers",
        171,
        122,
    ),
    (
        "tests/services/test_dunning.py",
        "`Optional[X]` fields without default are now required",
        122,
        87,
    ),
    (
        "tests/api/test_credit_notes.py",
        '`@root_validator(pre=True)` → `@model_validator(mode="before")` with classmethod',
        87,
        61,
    ),
]


def steps() -> list:
    s: list = [
        H(
            "should we finally do pydantic v2 in billing-api? fastapi keeps nagging. what's the blast radius"
        ),
        A(
            "Let me count what depends on v1 behaviour.",
            tools=[
                sh(
                    "rg -c 'class .*\\(BaseModel\\)|class .*\\(SQLModel' app | awk -F: '{s+=$2} END {print s, NR}'",
                    "143 38",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "rg -c '@validator|@root_validator|orm_mode|json_encoders|class Config' app | sort -t: -k2 -nr | head -6",
                    "app/models/invoice.py:19\napp/models/customer.py:14\napp/models/base.py:6\napp/models/account.py:6\napp/api/schemas/payments.py:5\napp/models/credit_note.py:5",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sed -n '1,40p' app/models/base.py",
                    "class BillingModel(BaseModel):\n    class Config:\n        orm_mode = True\n        allow_population_by_field_name = True\n"
                    '        json_encoders = {\n            Decimal: lambda d: f"{d:.2f}",\n            datetime: lambda dt: dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),\n        }\n',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pip index versions fastapi 2>/dev/null | head -1; pip index versions sqlmodel 2>/dev/null | head -1; pip show fastapi-pagination | rg '^Requires'",
                    "fastapi (0.115.6)\nsqlmodel (0.0.22)\nRequires: fastapi, pydantic, typing-extensions",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pytest -q -p no:randomly 2>&1 | tail -1; rg -l 'assert_snapshot' tests | wc -l",
                    "1904 passed, 3 skipped in 141.20s (0:02:21)\n214",
                )
            ]
        ),
        A(RESEARCH),
        H("", expect=("implicit_approval", "empty")),
        # ^ the person's question was researched into a plan with risks; an empty reply and the agent starts the upgrade.
        A(
            "Starting the upgrade on a branch.",
            tools=[
                todo(
                    [
                        ("Bump fastapi/pydantic/sqlmodel/pagination/settings", "in_progress"),
                        ("Run bump-pydantic", "pending"),
                        ("Hand-fix validators and serializers", "pending"),
                        ("Green test suite without snapshot changes", "pending"),
                        ("Benchmark invoice list serialization", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "git switch -c deps/pydantic-v2 && uv pip compile pyproject.toml -o requirements.lock --upgrade-package fastapi --upgrade-package pydantic --upgrade-package sqlmodel --upgrade-package fastapi-pagination 2>&1 | rg 'fastapi|pydantic|sqlmodel'",
                    "Switched to a new branch 'deps/pydantic-v2'\nfastapi==0.115.6\nfastapi-pagination==0.12.31\npydantic==2.9.2\npydantic-core==2.23.4\npydantic-settings==2.6.1\nsqlmodel==0.0.22",
                )
            ]
        ),
        A(
            "Before I go further: fastapi resolved to 0.115.6. Do you want it pinned exactly, or `>=0.115`?"
        ),
        H(
            "sounds good, but pin fastapi to 0.115.x, we had a bad surprise with a minor bump before"
        ),
        # ^ NOT silent: an answer that carries a concrete constraint.
        A(
            tools=[
                ed("pyproject.toml", '    "fastapi>=0.95,<0.96",', '    "fastapi~=0.115.6",'),
                sh(
                    "uv pip sync requirements.lock && python -c 'import pydantic, fastapi; print(pydantic.VERSION, fastapi.__version__)'",
                    "Resolved 61 packages in 412ms\nInstalled 6 packages in 88ms\n2.9.2 0.115.6",
                ),
            ]
        ),
        A(
            tools=[
                sh(
                    "bump-pydantic app",
                    "[09:14:02] Start bump-pydantic.\n           Found 38 files to process.\n[09:14:09] Run successfully!\n           38 files modified.",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "git diff --stat | tail -1; pytest -q -x 2>&1 | tail -4",
                    " 38 files changed, 611 insertions(+), 498 deletions(-)\nE   pydantic.errors.PydanticUserError: `json_encoders` is deprecated and `Decimal` cannot be configured this way; use `PlainSerializer` instead.\n"
                    "ERROR tests/conftest.py - pydantic.errors.PydanticUserError\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 2.31s",
                    code=2,
                )
            ]
        ),
        A(
            "As expected, `json_encoders` on the base model. Replacing with annotated types.",
            tools=[
                wr(
                    "app/models/types.py",
                    '"""Wire formats the API promised clients in v1: money as a 2-decimal string, UTC datetimes with Z."""\n'
                    'Money = Annotated[Decimal, PlainSerializer(lambda d: f"{d:.2f}", return_type=str, when_used="json")]\n'
                    'UtcDatetime = Annotated[datetime, PlainSerializer(lambda dt: dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), return_type=str, when_used="json")]\n',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "rg -l ': Decimal|: datetime' app/models app/api | xargs sed -i -E 's/: Decimal\\b/: Money/; s/: datetime\\b/: UtcDatetime/' && python -m compileall -q app && pytest -q 2>&1 | tail -1",
                    "212 failed, 1689 passed, 3 skipped in 151.08s (0:02:31)",
                    code=1,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pytest -q 2>&1 | rg '^FAILED' | sed -E 's/::.*- /  /' | cut -c1-90 | sort | uniq -c | sort -rn | head -6",
                    "     41 FAILED tests/api/test_customers.py  AttributeError: 'Customer' object has no attribute 'from_orm'\n"
                    "     37 FAILED tests/snapshots/test_invoice_json.py  AssertionError: snapshot mismatch\n"
                    "     33 FAILED tests/api/test_invoices.py  PydanticDeprecatedSince20: The `dict` method is deprecated\n"
                    "     35 FAILED tests/services/test_dunning.py  ValidationError: 1 validation error for DunningRun\n"
                    "     26 FAILED tests/api/test_credit_notes.py  TypeError: root_validator() got an unexpected keyword\n"
                    "      6 FAILED tests/models/test_account_tree.py  RecursionError: maximum recursion depth exceeded",
                )
            ]
        ),
        A(
            "212 failures in six groups. Working through them one group at a time.",
            tools=[
                todo(
                    [
                        ("Bump fastapi/pydantic/sqlmodel/pagination/settings", "completed"),
                        ("Run bump-pydantic", "completed"),
                        ("Hand-fix validators and serializers", "in_progress"),
                        ("Green test suite without snapshot changes", "pending"),
                        ("Benchmark invoice list serialization", "pending"),
                    ]
                )
            ],
        ),
    ]
    for i, (path, what, before, after) in enumerate(BATCHES):
        s += [
            A(
                f"Group: {what}.",
                tools=[
                    sh(
                        f"pytest -q {path} 2>&1 | tail -1",
                        f"{before - after} failed, {312 - (before - after)} passed in 9.{i}1s",
                        code=1,
                    )
                ],
            ),
            A(
                tools=[
                    sh(
                        f"rg -l 'from_orm|\\.dict\\(|\\.json\\(|root_validator' app | head -{3 + i}",
                        "\n".join(
                            f"app/{p}"
                            for p in [
                                "api/customers.py",
                                "api/invoices.py",
                                "services/dunning.py",
                                "models/credit_note.py",
                                "api/payments.py",
                                "models/invoice.py",
                                "api/refunds.py",
                            ][: 3 + i]
                        ),
                    )
                ]
            ),
            A(
                tools=[
                    sh(
                        f"python scripts/v2_fixups.py --rule {i + 1} app && pytest -q {path} 2>&1 | tail -1",
                        f"{312 - (before - after)} passed in 8.{i}4s",
                    )
                ]
            ),
            A(
                f"{path}: green. Whole suite now at {after} failures.",
                tools=[
                    sh(
                        "pytest -q 2>&1 | tail -1",
                        f"{after} failed, {1901 - after} passed, 3 skipped in 14{i}.3s",
                        code=1,
                    )
                ],
            ),
        ]
        if i == 1:
            s += [
                H("ok"),
                # ^ NOT a pivot: an ack between two batches of the same mechanical fixing.
            ]
        if i == 3:
            s += [
                H("cool"),
                # ^ NOT a pivot: another ack mid-fixing; the next step is the next failure group.
            ]
    s += [
        A(
            "Remaining: 37 snapshot mismatches and 6 recursion errors, plus 18 in `test_payments.py`.",
            tools=[
                sh(
                    "pytest -q tests/api/test_payments.py 2>&1 | rg -m2 'Error'",
                    "E   pydantic_core._pydantic_core.ValidationError: 1 validation error for PaymentIn\nE   amount\n  Input should be a valid decimal [type=decimal_type, input_value=12.5, input_type=float]",
                )
            ],
        ),
        A(
            "v2 is strict about float → Decimal in JSON. Clients send `12.5`; allowing lax mode on `Money` input.",
            tools=[
                ed(
                    "app/models/types.py",
                    "Money = Annotated[Decimal, PlainSerializer(",
                    "Money = Annotated[Decimal, BeforeValidator(lambda v: Decimal(str(v)) if isinstance(v, float) else v), PlainSerializer(",
                ),
                sh(
                    "pytest -q 2>&1 | tail -1",
                    "43 failed, 1858 passed, 3 skipped in 146.77s (0:02:26)",
                    code=1,
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "pytest -q tests/snapshots/test_invoice_json.py -k issued 2>&1 | rg -A3 'snapshot mismatch' | head -6",
                    'AssertionError: snapshot mismatch\n-  "issued_at": "2026-03-01T10:00:00Z",\n+  "issued_at": "2026-03-01T10:00:00+00:00",\n   "lines": [',
                )
            ]
        ),
        A(
            "`issued_at` lives in a `dict[str, datetime]` (`timestamps`) and the annotated serializer doesn't apply inside untyped containers. Trying a wrap serializer on the base model.",
            tools=[
                ed(
                    "app/models/base.py",
                    "class BillingModel(BaseModel):\n    model_config = ConfigDict(from_attributes=True, populate_by_name=True)",
                    "class BillingModel(BaseModel):\n    model_config = ConfigDict(from_attributes=True, populate_by_name=True)\n\n"
                    '    @model_serializer(mode="wrap")\n    def _utc_z(self, handler):\n        return _fix_datetimes(handler(self))',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "pytest -q 2>&1 | tail -1",
                    "51 failed, 1850 passed, 3 skipped in 149.02s (0:02:29)",
                    code=1,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pytest -q 2>&1 | rg '^FAILED' | rg -v snapshots | head -3",
                    "FAILED tests/api/test_customers.py::test_aliases_in_response - AssertionError: 'customerId' not in {'customer_id': 'cus_81'}\n"
                    "FAILED tests/api/test_invoices.py::test_list_aliases - AssertionError: 'invoiceNo' not in {...}\n"
                    "FAILED tests/api/test_refunds.py::test_refund_alias - AssertionError: 'refundId' not in {...}",
                )
            ]
        ),
        A(
            "The wrap serializer drops `by_alias` (8 new failures). Reverting it.",
            tools=[
                ed(
                    "app/models/base.py",
                    '\n\n    @model_serializer(mode="wrap")\n    def _utc_z(self, handler):\n        return _fix_datetimes(handler(self))',
                    "",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "sed -n '1,20p' app/models/account.py && python -c 'from app.models.account import Account; Account.model_rebuild(); print(Account.model_json_schema())' 2>&1 | tail -2",
                    'class Account(SQLModel, table=True):\n    id: int | None = Field(default=None, primary_key=True)\n    parent_id: int | None = Field(default=None, foreign_key="account.id")\n'
                    '    parent: "Account | None" = Relationship(back_populates="children", sa_relationship_kwargs={"remote_side": "Account.id"})\n'
                    '    children: list["Account"] = Relationship(back_populates="parent")\n'
                    '  File "/srv/dev/billing-api/.venv/lib/python3.12/site-packages/pydantic/_internal/_generate_schema.py", line 1022, in _generate_schema_inner\nRecursionError: maximum recursion depth exceeded',
                    code=1,
                )
            ]
        ),
        A(STUCK),
        H("", expect=("delegation_after_dead_end", "empty")),
        # ^ failed fixes and no next step; the empty message is followed at once by an automatic compaction and
        #   its summary — one pivot anchored here, the compaction is part of its cluster (not labelled separately).
        Compact(COMPACT_SUMMARY, auto=True),
        A(
            "Picking it up from the summary. Two separate fixes: split the table model from the API schema for `Account`, and make datetime output uniform at the response layer.",
            tools=[
                sh(
                    "rg -n 'Account\\b' app/api | head -4",
                    "app/api/accounts.py:14:    response_model=Account,\napp/api/accounts.py:31:    response_model=list[Account],\napp/api/accounts.py:48:def move_account(body: AccountMove) -> Account:",
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "app/models/account.py",
                    "class Account(SQLModel, table=True):",
                    "class AccountOut(BillingModel):\n    id: int\n    parent_id: int | None\n    name: str\n    children_ids: list[int] = []\n\n\nclass Account(SQLModel, table=True):",
                ),
                sh(
                    "sed -i 's/response_model=Account,/response_model=AccountOut,/; s/response_model=list\\[Account\\]/response_model=list[AccountOut]/; s/) -> Account:/) -> AccountOut:/' app/api/accounts.py && pytest -q tests/models/test_account_tree.py 2>&1 | tail -1",
                    "6 passed in 0.91s",
                ),
            ]
        ),
        A(
            tools=[
                wr(
                    "app/api/responses.py",
                    '"""One place that decides the wire format of datetimes, wherever they sit in the payload."""\n'
                    "class BillingJSONResponse(JSONResponse):\n    def render(self, content) -> bytes:\n"
                    '        return _ADAPTER.dump_json(content, by_alias=True)\n\n\n_ADAPTER = TypeAdapter(Any, config=ConfigDict(ser_json_timedelta="iso8601"))\n',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pytest -q tests/snapshots 2>&1 | tail -1",
                    "37 failed, 177 passed in 11.02s",
                    code=1,
                )
            ]
        ),
        A(
            "`TypeAdapter(Any)` still uses the default datetime format. Registering a custom encoder for `datetime` in the adapter's `to_jsonable_python` fallback instead.",
            tools=[
                ed(
                    "app/api/responses.py",
                    "        return _ADAPTER.dump_json(content, by_alias=True)",
                    '        return json.dumps(to_jsonable_python(content, by_alias=True, fallback=_z), separators=(",", ":")).encode()',
                ),
                ed(
                    "app/api/responses.py",
                    '_ADAPTER = TypeAdapter(Any, config=ConfigDict(ser_json_timedelta="iso8601"))',
                    'def _z(v):\n    if isinstance(v, datetime):\n        return v.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")\n    raise TypeError(type(v))',
                ),
            ],
        ),
        A(tools=[sh("pytest -q tests/snapshots 2>&1 | tail -1", "214 passed in 10.48s")]),
        A(tools=[sh("pytest -q 2>&1 | tail -1", "1901 passed, 3 skipped in 139.55s (0:02:19)")]),
        A(tools=[sh("git diff --stat main -- tests/snapshots | tail -1 || true", "")]),
        A(
            "Snapshots untouched. Benchmarking the invoice list endpoint (500 invoices, 12 lines each).",
            tools=[
                todo(
                    [
                        ("Bump fastapi/pydantic/sqlmodel/pagination/settings", "completed"),
                        ("Run bump-pydantic", "completed"),
                        ("Hand-fix validators and serializers", "completed"),
                        ("Green test suite without snapshot changes", "completed"),
                        ("Benchmark invoice list serialization", "in_progress"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "git stash -q && python bench/invoice_list.py --n 500 --repeat 30; git stash pop -q && python bench/invoice_list.py --n 500 --repeat 30",
                    "pydantic 1.10.17: median 187.4 ms, p95 203.1 ms, 41.2 MB peak\npydantic 2.9.2: median 58.9 ms, p95 66.0 ms, 29.8 MB peak",
                    ms=48000,
                )
            ]
        ),
        A(
            "Upgrade works end to end:\n\n| | v1 (main) | v2 (branch) |\n|---|---|---|\n| tests | 1904 passed | 1901 passed, 3 skipped (same as main) |\n"
            "| snapshot diffs | — | 0 of 214 |\n| invoice list, 500 items, median | 187.4 ms | 58.9 ms (3.2× faster) |\n| p95 | 203.1 ms | 66.0 ms |\n| peak memory | 41.2 MB | 29.8 MB |\n\n"
            "There are still 211 `PydanticDeprecatedSince20` warnings from compatibility shims.",
            tools=[
                todo(
                    [
                        ("Bump fastapi/pydantic/sqlmodel/pagination/settings", "completed"),
                        ("Run bump-pydantic", "completed"),
                        ("Hand-fix validators and serializers", "completed"),
                        ("Green test suite without snapshot changes", "completed"),
                        ("Benchmark invoice list serialization", "completed"),
                    ]
                )
            ],
        ),
        H("proceed", expect=("continue_after_milestone", "ack")),
        # ^ working upgrade with numbers, then "proceed": the agent moves on to the cleanup phase (removing v1 shims, warnings as errors).
        A(
            "Next: remove the v1 compatibility shims so the deprecation warnings are gone, then make new ones fail CI.",
            tools=[
                todo(
                    [
                        ("Remove pydantic.v1 imports and .dict()/.json() shims", "in_progress"),
                        ("Turn PydanticDeprecatedSince20 into errors in pytest", "pending"),
                        ("Changelog entry for API clients", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "pytest -q -W error::pydantic.warnings.PydanticDeprecatedSince20 2>&1 | rg -o 'app/[a-z_/]+\\.py:[0-9]+' | sort | uniq -c | sort -rn | head -5",
                    "     64 app/services/dunning.py:118\n     41 app/api/exports.py:57\n     33 app/models/invoice.py:201\n     29 app/api/webhooks.py:88\n     17 app/services/tax.py:43",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "app/services/dunning.py",
                    "        payload = run.dict(exclude_none=True)",
                    "        payload = run.model_dump(exclude_none=True)",
                ),
                ed(
                    "app/api/exports.py",
                    "    return [row.json() for row in rows]",
                    "    return [row.model_dump_json() for row in rows]",
                ),
            ]
        ),
        A(
            tools=[
                ed(
                    "app/models/invoice.py",
                    '    @validator("due_date", always=True)\n    def _default_due(cls, v, values):',
                    '    @field_validator("due_date", mode="after")\n    @classmethod\n    def _default_due(cls, v, info: ValidationInfo):',
                ),
                ed(
                    "app/api/webhooks.py",
                    "from pydantic.v1 import parse_obj_as",
                    "from pydantic import TypeAdapter",
                ),
            ]
        ),
        A(
            tools=[
                ed(
                    "app/services/tax.py",
                    "    rates = parse_obj_as(list[TaxRate], raw)",
                    "    rates = TypeAdapter(list[TaxRate]).validate_python(raw)",
                ),
                sh(
                    "pytest -q -W error::pydantic.warnings.PydanticDeprecatedSince20 2>&1 | tail -1",
                    "1901 passed, 3 skipped in 137.10s (0:02:17)",
                ),
            ]
        ),
        A(
            tools=[
                ed(
                    "pyproject.toml",
                    'filterwarnings = [\n    "ignore::DeprecationWarning:botocore.*",\n]',
                    'filterwarnings = [\n    "ignore::DeprecationWarning:botocore.*",\n    "error::pydantic.warnings.PydanticDeprecatedSince20",\n]',
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "CHANGELOG.md",
                    "## Unreleased\n",
                    "## Unreleased\n\n- Internal: Pydantic 2.9 / FastAPI 0.115. JSON output unchanged (money as strings, UTC datetimes with `Z`). Float amounts in requests are still accepted.\n",
                )
            ]
        ),
        A(
            "Cleanup done: no v1 shims left, deprecation warnings are errors in pytest, changelog says the wire format is unchanged. The branch is `deps/pydantic-v2`, 4 commits.",
            tools=[
                todo(
                    [
                        ("Remove pydantic.v1 imports and .dict()/.json() shims", "completed"),
                        ("Turn PydanticDeprecatedSince20 into errors in pytest", "completed"),
                        ("Changelog entry for API clients", "completed"),
                    ]
                )
            ],
        ),
        H(""),
        # ^ NOT a pivot: nothing left on the list; after the empty message the agent only asks what's next.
        A(
            "Nothing left on my list for this upgrade. Do you want a PR, or should I look at another service next?"
        ),
        H("PR to main, request review from @billing-team"),
        # ^ NOT silent.
        A(
            tools=[
                sh(
                    "git push -u origin deps/pydantic-v2 -q && gh pr create --base main --fill --reviewer acme/billing-team",
                    "https://github.com/acme/billing-api/pull/912",
                )
            ]
        ),
        A(
            "PR: https://github.com/acme/billing-api/pull/912 (review requested from @acme/billing-team)."
        ),
    ]
    return s


SCENARIOS = [
    Scenario(
        name="heldout-pydantic-v2-upgrade",
        title="Pydantic v2 and FastAPI 0.115 upgrade",
        cwd=CWD,
        steps=steps(),
        model="gpt-5.2-codex",
        start="2026-10-28T09:02:00Z",
        seconds_per_step=38,
        notes="pivots: implicit_approval (empty), delegation_after_dead_end (empty + auto compaction cluster), continue_after_milestone (proceed)",
    )
]
