# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: splitting customer addresses into their own table (FastAPI + SQLAlchemy + Alembic).

Claude Code dialect. Three labelled pivots (approval by "sure", a dead end on the staging
copy broken by ".", a finished backfill followed by "keep going") and several deliberate
non-pivots ("ok" mid-routine, a directed "yes but …", a /clear command wrapper, "thanks" at the end).
"""

from __future__ import annotations

from samplegen.heldout._kit import A, H, Kit, Meta, Scenario

FORMATS = ["claude"]

CWD = "/home/mara/src/ledgerly"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

MODEL_SRC = """class Customer(Base):
    __tablename__ = "customers"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    street: Mapped[str | None] = mapped_column(String(200))
    city: Mapped[str | None] = mapped_column(String(100))
    postcode: Mapped[str | None] = mapped_column(String(20))
    country: Mapped[str | None] = mapped_column(String(2))
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())
"""

PLAN = """Here is what I found and what I would do.

**Where the address lives today**
- `customers` has four nullable columns: `street`, `city`, `postcode`, `country`.
- 23 call sites read them (grep above): 9 in `app/api/customers.py`, 6 in `app/billing/invoice.py`,
  5 in `app/exports/csv.py`, 3 in tests.
- Staging copy: 1,812,455 customers, 1,790,002 with a non-null street. Table is 1.9 GB.

**Proposed shape** (expand → migrate → contract, so the API never breaks)
1. Migration `0042_addresses`: create `addresses(id, customer_id FK ON DELETE CASCADE, kind,
   street, city, postcode, country, is_primary, created_at)` with an index on `customer_id`.
2. Backfill one primary address per customer from the old columns (same migration, in SQL).
3. ORM: `Customer.addresses` relationship + a `primary_address` property; keep the old
   columns readable for one release.
4. Switch the 23 call sites to `primary_address`, then a later migration drops the old columns.

**Risks**
- The backfill touches 1.8M rows; a single `INSERT … SELECT` holds locks for the whole copy.
  On staging that's probably a few minutes, and `customers` is hot (checkout writes to it).
- Invoices render the address at print time, so historical PDFs will change if an address is
  edited later; that's the same as today, just worth knowing.
- `downgrade()` has to copy the primary address back before dropping the table.

Nothing is changed yet. Want me to go ahead with step 1–3?"""

STATUS = """## Where we are

**Goal**: move customer addresses into `addresses` (one-to-many) without downtime.

**Done**
- `0042_addresses` migration: table + index + `INSERT … SELECT` backfill; `downgrade()` copies back.
- ORM: `Customer.addresses`, `Customer.primary_address`; 412 unit tests pass on an empty DB.

**What failed on the staging copy (1.8M rows)**
1. `alembic upgrade head` → `LockNotAvailable: canceling statement due to lock timeout` (5 s).
2. With `lock_timeout` raised to 60 s → `UniqueViolation` on `uq_addresses_customer_primary`:
   2,118 customers have duplicate rows from the old import job (same id twice in the join).
3. `alembic downgrade -1` to retry → failed: `DROP TABLE` waited on the half-done backfill.
4. Last retry: `upgrade head` still running after 10 min, my poll gave up; unknown if it is
   blocked or just slow.

**Current state**: migration possibly still holding a lock on `customers` on staging;
`alembic_version` still says `0041`.

**Next**
1. Look at `pg_stat_activity` / `pg_locks` to see what the upgrade is waiting on.
2. Cancel it if blocked; dedupe the source with `DISTINCT ON (id)`.
3. Move the backfill out of the DDL transaction into batches of 50k with a short
   `lock_timeout`, so checkout writes are never blocked for long."""


def steps() -> list:
    return [
        Meta(
            "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>"
        ),
        H(
            "customers can only have one address right now because it's four columns on the customers table. "
            "billing wants shipping + billing addresses. should we move address into its own table so a "
            "customer can have several? look at what it would take first, don't change anything yet"
        ),
        A(
            "I'll look at the current model, the migrations and every place that reads the address.",
            tools=[
                rd("app/models/customer.py", MODEL_SRC),
                sh(
                    "ls migrations/versions | tail -5",
                    "0037_invoice_number_seq.py\n0038_customer_email_ci.py\n0039_drop_legacy_tokens.py\n"
                    "0040_invoice_pdf_url.py\n0041_orders_status_idx.py",
                ),
            ],
        ),
        A(
            tools=[
                grep(
                    r"\.(street|city|postcode|country)\b",
                    "app",
                    "app/api/customers.py:41:        street=c.street,\napp/api/customers.py:42:        city=c.city,\n"
                    "app/api/customers.py:43:        postcode=c.postcode,\napp/api/customers.py:44:        country=c.country,\n"
                    "app/api/customers.py:88:    c.street = body.street\napp/api/customers.py:89:    c.city = body.city\n"
                    "app/api/customers.py:90:    c.postcode = body.postcode\napp/api/customers.py:91:    c.country = body.country\n"
                    'app/api/customers.py:120:    if not c.country:\napp/billing/invoice.py:57:    lines.append(c.street or "")\n'
                    'app/billing/invoice.py:58:    lines.append(f"{c.postcode} {c.city}")\napp/billing/invoice.py:59:    lines.append(COUNTRIES[c.country])\n'
                    "app/billing/invoice.py:102:    vat = vat_rate(c.country)\napp/billing/invoice.py:140:    if c.country in EU:\n"
                    "app/billing/invoice.py:141:        reverse_charge = c.country != SELLER_COUNTRY\n"
                    "app/exports/csv.py:22:    row += [c.street, c.city, c.postcode, c.country]\n"
                    'app/exports/csv.py:30:        "street", "city", "postcode", "country",\n'
                    "app/exports/csv.py:61:    if c.country is None:\napp/exports/csv.py:62:        skipped += 1\n"
                    "app/exports/csv.py:63:        continue",
                )
            ]
        ),
        A(
            "Now the size of the real data on the staging copy.",
            tools=[
                sh(
                    'psql "$STAGING_URL" -c "select count(*), count(street) from customers"',
                    "  count  |  count  \n---------+---------\n 1812455 | 1790002\n(1 row)",
                ),
                sh(
                    'psql "$STAGING_URL" -c "select pg_size_pretty(pg_total_relation_size(\'customers\'))"',
                    " pg_size_pretty \n----------------\n 1901 MB\n(1 row)",
                ),
            ],
        ),
        A(
            tools=[
                rd(
                    "migrations/env.py",
                    "from alembic import context\nfrom app.db import Base\n\n"
                    "target_metadata = Base.metadata\n\ndef run_migrations_online():\n"
                    "    connectable = engine_from_config(config.get_section(config.config_ini_section))\n"
                    "    with connectable.connect() as connection:\n"
                    "        context.configure(connection=connection, target_metadata=target_metadata,\n"
                    "                          transaction_per_migration=True)\n",
                )
            ]
        ),
        A(PLAN),
        H("sure", expect=("implicit_approval", "ack")),
        # ^ the person asked, the agent laid out a plan with risks and asked to go ahead; "sure" hands it the work.
        A(
            "Starting with the migration.",
            tools=[
                todo(
                    [
                        ("Write migration 0042_addresses (table, index, backfill)", "in_progress"),
                        ("Add Address model and Customer.addresses relationship", "pending"),
                        ("Switch 23 call sites to primary_address", "pending"),
                        ("Run the test suite", "pending"),
                        ("Dry-run the upgrade on the staging copy", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "alembic revision -m addresses --rev-id 0042",
                    "  Generating /home/mara/src/ledgerly/migrations/versions/0042_addresses.py ...  done",
                )
            ]
        ),
        A(
            tools=[
                wr(
                    "migrations/versions/0042_addresses.py",
                    '"""addresses table"""\nimport sqlalchemy as sa\nfrom alembic import op\n\nrevision = "0042"\n'
                    'down_revision = "0041"\n\n\ndef upgrade():\n    op.create_table(\n        "addresses",\n'
                    '        sa.Column("id", sa.BigInteger, primary_key=True),\n'
                    '        sa.Column("customer_id", sa.BigInteger, sa.ForeignKey("customers.id", ondelete="CASCADE"), nullable=False),\n'
                    '        sa.Column("kind", sa.String(16), nullable=False, server_default="primary"),\n'
                    '        sa.Column("street", sa.String(200)),\n        sa.Column("city", sa.String(100)),\n'
                    '        sa.Column("postcode", sa.String(20)),\n        sa.Column("country", sa.String(2)),\n'
                    '        sa.Column("is_primary", sa.Boolean, nullable=False, server_default=sa.true()),\n'
                    '        sa.Column("created_at", sa.DateTime, server_default=sa.func.now()),\n    )\n'
                    '    op.create_index("ix_addresses_customer_id", "addresses", ["customer_id"])\n'
                    '    op.create_index("uq_addresses_customer_primary", "addresses", ["customer_id"], unique=True,\n'
                    '                    postgresql_where=sa.text("is_primary"))\n'
                    '    op.execute("""INSERT INTO addresses (customer_id, street, city, postcode, country)\n'
                    "                  SELECT c.id, c.street, c.city, c.postcode, c.country FROM customers c\n"
                    "                  JOIN customer_import_log l ON l.customer_id = c.id\n"
                    '                  WHERE c.street IS NOT NULL""")\n\n\ndef downgrade():\n'
                    '    op.execute("""UPDATE customers c SET street = a.street, city = a.city, postcode = a.postcode,\n'
                    '                  country = a.country FROM addresses a WHERE a.customer_id = c.id AND a.is_primary""")\n'
                    '    op.drop_table("addresses")\n',
                )
            ]
        ),
        A(
            "Now the model.",
            tools=[
                wr(
                    "app/models/address.py",
                    'class Address(Base):\n    __tablename__ = "addresses"\n\n    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)\n'
                    '    customer_id: Mapped[int] = mapped_column(ForeignKey("customers.id", ondelete="CASCADE"))\n'
                    '    kind: Mapped[str] = mapped_column(String(16), default="primary")\n'
                    "    street: Mapped[str | None]\n    city: Mapped[str | None]\n    postcode: Mapped[str | None]\n"
                    "    country: Mapped[str | None] = mapped_column(String(2))\n    is_primary: Mapped[bool] = mapped_column(default=True)\n",
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "app/models/customer.py",
                    "    created_at: Mapped[datetime] = mapped_column(server_default=func.now())\n",
                    "    created_at: Mapped[datetime] = mapped_column(server_default=func.now())\n\n"
                    '    addresses: Mapped[list[Address]] = relationship(cascade="all, delete-orphan", lazy="selectin")\n\n'
                    "    @property\n    def primary_address(self) -> Address | None:\n"
                    "        return next((a for a in self.addresses if a.is_primary), None)\n",
                )
            ]
        ),
        A(
            tools=[
                todo(
                    [
                        ("Write migration 0042_addresses (table, index, backfill)", "completed"),
                        ("Add Address model and Customer.addresses relationship", "completed"),
                        ("Switch 23 call sites to primary_address", "in_progress"),
                        ("Run the test suite", "pending"),
                        ("Dry-run the upgrade on the staging copy", "pending"),
                    ]
                )
            ]
        ),
        A(
            "Switching `app/api/customers.py` first (9 call sites).",
            tools=[
                ed(
                    "app/api/customers.py",
                    "        street=c.street,\n        city=c.city,\n        postcode=c.postcode,\n        country=c.country,",
                    "        address=AddressOut.from_orm(c.primary_address) if c.primary_address else None,",
                )
            ],
        ),
        A(
            tools=[
                ed(
                    "app/api/customers.py",
                    "    c.street = body.street\n    c.city = body.city\n    c.postcode = body.postcode\n    c.country = body.country",
                    "    set_primary_address(db, c, body.address)",
                )
            ]
        ),
        A(
            "`customers.py` done; 3 of 23 call sites groups converted. Moving on to invoices.",
            tools=[
                ed(
                    "app/billing/invoice.py",
                    '    lines.append(c.street or "")\n    lines.append(f"{c.postcode} {c.city}")\n    lines.append(COUNTRIES[c.country])',
                    '    addr = c.billing_address or c.primary_address\n    lines.append(addr.street or "")\n'
                    '    lines.append(f"{addr.postcode} {addr.city}")\n    lines.append(COUNTRIES[addr.country])',
                )
            ],
        ),
        H("ok"),
        # ^ NOT a pivot: routine call-site conversion before and after, nothing changes mode.
        A(
            tools=[
                ed(
                    "app/billing/invoice.py",
                    "    vat = vat_rate(c.country)",
                    "    vat = vat_rate((c.billing_address or c.primary_address).country)",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "app/billing/invoice.py",
                    "    if c.country in EU:\n        reverse_charge = c.country != SELLER_COUNTRY",
                    "    country = (c.billing_address or c.primary_address).country\n    if country in EU:\n"
                    "        reverse_charge = country != SELLER_COUNTRY",
                )
            ]
        ),
        A(
            "And the CSV export.",
            tools=[
                ed(
                    "app/exports/csv.py",
                    "    row += [c.street, c.city, c.postcode, c.country]",
                    "    a = c.primary_address\n    row += [a.street, a.city, a.postcode, a.country] if a else [None] * 4",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "pytest -q -x",
                    "........................................................................ [ 17%]\n"
                    "..................F\n=================================== FAILURES ===================================\n"
                    "___________________________ test_export_skips_no_country ___________________________\n"
                    "    def test_export_skips_no_country(db, customer_factory):\n"
                    ">       customer_factory(country=None)\nE       TypeError: 'country' is an invalid keyword argument for Customer\n"
                    "tests/exports/test_csv.py:18: TypeError\n=========================== short test summary info ============================\n"
                    "FAILED tests/exports/test_csv.py::test_export_skips_no_country - TypeError: 'country' is an invalid keyword...\n"
                    "!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!\n1 failed, 90 passed in 6.12s",
                    code=1,
                )
            ]
        ),
        A(
            "The factory still sets the old columns. Updating it to build an `Address`.",
            tools=[
                ed(
                    "tests/factories.py",
                    '    street = factory.Faker("street_address")\n    city = factory.Faker("city")\n'
                    '    postcode = factory.Faker("postcode")\n    country = "DE"',
                    '    addresses = factory.RelatedFactoryList(AddressFactory, "customer", size=1)',
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "pytest -q",
                    "........................................................................ [ 17%]\n"
                    "........................................................................ [ 34%]\n"
                    "........................................................................ [ 52%]\n"
                    "........................................................................ [ 69%]\n"
                    "........................................................................ [ 87%]\n"
                    "....................................................                     [100%]\n412 passed in 31.84s",
                )
            ]
        ),
        A(
            "All 412 tests pass against the empty test DB. Before the staging dry run: the test "
            "container is Postgres 13 from the old compose file. Staging runs 15. Should I bump the "
            "test image too?"
        ),
        H("yes but use postgres 16, prod moves to 16 next month"),
        # ^ NOT silent: a directed answer with new content (a version), the agent just does it.
        A(
            tools=[
                ed(
                    "docker-compose.test.yml",
                    "    image: postgres:13-alpine",
                    "    image: postgres:16-alpine",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "docker compose -f docker-compose.test.yml up -d --force-recreate db && sleep 4 && pytest -q",
                    " Container ledgerly-db-1  Recreated\n Container ledgerly-db-1  Started\n"
                    "........................................................................ [ 17%]\n"
                    "..........................................................................[100%]\n412 passed in 30.91s",
                )
            ]
        ),
        A(
            "Green on Postgres 16 too. Now the dry run on the staging copy.",
            tools=[
                todo(
                    [
                        ("Write migration 0042_addresses (table, index, backfill)", "completed"),
                        ("Add Address model and Customer.addresses relationship", "completed"),
                        ("Switch 23 call sites to primary_address", "completed"),
                        ("Run the test suite", "completed"),
                        ("Dry-run the upgrade on the staging copy", "in_progress"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                sh(
                    'DATABASE_URL="$STAGING_URL" alembic upgrade head',
                    "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\n"
                    "INFO  [alembic.runtime.migration] Will assume transactional DDL.\n"
                    "INFO  [alembic.runtime.migration] Running upgrade 0041 -> 0042, addresses table\n"
                    'Traceback (most recent call last):\n  File "/home/mara/src/ledgerly/.venv/lib/python3.12/site-packages/sqlalchemy/engine/base.py", line 1967, in _exec_single_context\n'
                    "psycopg.errors.LockNotAvailable: canceling statement due to lock timeout\n"
                    "[SQL: INSERT INTO addresses (customer_id, street, city, postcode, country) SELECT ...]\n"
                    "sqlalchemy.exc.OperationalError: (psycopg.errors.LockNotAvailable) canceling statement due to lock timeout",
                    code=1,
                    ms=5412,
                )
            ]
        ),
        A(
            "Lock timeout after 5 s: staging has `lock_timeout=5s` set on the role. The backfill needs "
            "a share lock on `customers` while checkout traffic replays writes. Raising it for this "
            "session only and retrying.",
            tools=[
                sh(
                    "PGOPTIONS='-c lock_timeout=60s' DATABASE_URL=\"$STAGING_URL\" alembic upgrade head",
                    "INFO  [alembic.runtime.migration] Running upgrade 0041 -> 0042, addresses table\n"
                    'psycopg.errors.UniqueViolation: duplicate key value violates unique constraint "uq_addresses_customer_primary"\n'
                    "DETAIL:  Key (customer_id)=(88123) already exists.\n"
                    "sqlalchemy.exc.IntegrityError: (psycopg.errors.UniqueViolation) duplicate key value violates unique constraint",
                    code=1,
                    ms=71230,
                )
            ],
        ),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -c "select customer_id, count(*) from customer_import_log group by 1 having count(*) > 1 limit 5"',
                    " customer_id | count \n-------------+-------\n       88123 |     2\n      101877 |     2\n"
                    "      140002 |     3\n      140003 |     2\n      201554 |     2\n(5 rows)",
                )
            ]
        ),
        A(
            "The join with `customer_import_log` multiplies rows: 2,118 customers were imported twice. "
            "I'll drop the join (it was only there to skip test accounts) and filter on `is_test` instead. "
            "First roll back the partial state.",
            tools=[
                sh(
                    'DATABASE_URL="$STAGING_URL" alembic downgrade -1',
                    "INFO  [alembic.runtime.migration] Running downgrade 0042 -> 0041, addresses table\n"
                    'psycopg.errors.UndefinedTable: relation "addresses" does not exist\n'
                    "FAILED: downgrade of 0042 could not run: alembic_version is 0041",
                    code=1,
                    ms=812,
                )
            ],
        ),
        A(
            "The upgrade was transactional, so nothing was left behind; the downgrade failed only "
            "because there was nothing to undo. Fixing the backfill query.",
            tools=[
                ed(
                    "migrations/versions/0042_addresses.py",
                    "                  JOIN customer_import_log l ON l.customer_id = c.id\n                  WHERE c.street IS NOT NULL",
                    "                  WHERE c.street IS NOT NULL AND NOT c.is_test",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "PGOPTIONS='-c lock_timeout=60s' DATABASE_URL=\"$STAGING_URL\" timeout 600 alembic upgrade head",
                    "INFO  [alembic.runtime.migration] Running upgrade 0041 -> 0042, addresses table\n",
                    code=124,
                    ms=600000,
                )
            ]
        ),
        A(
            "It ran for the full 10 minutes and `timeout` killed the client. I can't tell from here "
            "whether the server-side statement is still running, blocked behind something, or "
            "was cancelled with the client.",
            tools=[
                sh(
                    'for i in $(seq 1 12); do psql "$STAGING_URL" -Atc "select version_num from alembic_version"; sleep 10; done',
                    "0041\n0041\n0041\n0041\n0041\n0041\n0041\n0041\n0041\n0041\n0041\n0041",
                )
            ],
        ),
        A(
            "Still `0041` after two more minutes of polling. So far: lock timeout, duplicate keys, a "
            "failed downgrade, and now an upgrade that neither finished nor reported an error. "
            "I don't have a clear explanation for the last one yet."
        ),
        H(".", expect=("delegation_after_dead_end", "ack")),
        # ^ after four failed/inconclusive attempts the person says nothing of substance; the agent re-orients and acts alone.
        A(STATUS),
        A(
            tools=[
                sh(
                    "psql \"$STAGING_URL\" -c \"select pid, state, wait_event_type, wait_event, now()-query_start as age, left(query,60) from pg_stat_activity where datname='ledgerly_staging' and state <> 'idle'\"",
                    "  pid  |        state        | wait_event_type | wait_event |       age       |                             left\n"
                    "-------+---------------------+-----------------+------------+-----------------+--------------------------------------------------------------\n"
                    " 41877 | active              | Lock            | relation   | 00:13:02.118331 | INSERT INTO addresses (customer_id, street, city, postcode, c\n"
                    " 40211 | idle in transaction | Client          | ClientRead | 02:47:19.550012 | SELECT id FROM customers WHERE email = $1 FOR UPDATE\n(2 rows)",
                )
            ]
        ),
        A(
            "Found it: pid 40211 has been `idle in transaction` for 2 h 47 min holding a `FOR UPDATE` "
            "row lock set, and our INSERT (pid 41877) is queued behind it. That's the replay worker on "
            "staging, not prod. Cancelling our statement and terminating the stuck session.",
            tools=[
                sh(
                    'psql "$STAGING_URL" -c "select pg_cancel_backend(41877), pg_terminate_backend(40211)"',
                    " pg_cancel_backend | pg_terminate_backend \n-------------------+----------------------\n t                 | t\n(1 row)",
                )
            ],
        ),
        A(
            "Even without that stuck session, one `INSERT … SELECT` over 1.8M rows inside the DDL "
            "transaction is the wrong shape for a hot table. Moving the backfill into batches of 50k "
            "after the table exists, each batch its own transaction.",
            tools=[
                ed(
                    "migrations/versions/0042_addresses.py",
                    '    op.execute("""INSERT INTO addresses (customer_id, street, city, postcode, country)\n'
                    "                  SELECT c.id, c.street, c.city, c.postcode, c.country FROM customers c\n"
                    '                  WHERE c.street IS NOT NULL AND NOT c.is_test""")',
                    "    # backfill runs in scripts/backfill_addresses.py, in batches, outside this transaction",
                )
            ],
        ),
        A(
            tools=[
                wr(
                    "scripts/backfill_addresses.py",
                    '"""Copy customers\' inline address into addresses, 50k ids per transaction."""\n'
                    'BATCH = 50_000\n\nSQL = text("""\nINSERT INTO addresses (customer_id, street, city, postcode, country)\n'
                    "SELECT c.id, c.street, c.city, c.postcode, c.country FROM customers c\n"
                    "WHERE c.id > :lo AND c.id <= :hi AND c.street IS NOT NULL AND NOT c.is_test\n"
                    'ON CONFLICT DO NOTHING\n""")\n\n\ndef main(url: str) -> None:\n'
                    "    eng = create_engine(url)\n    with eng.connect() as conn:\n"
                    '        top = conn.scalar(text("select max(id) from customers"))\n'
                    "    lo = 0\n    while lo < top:\n        with eng.begin() as conn:\n"
                    "            conn.execute(text(\"set local lock_timeout = '2s'\"))\n"
                    '            n = conn.execute(SQL, {"lo": lo, "hi": lo + BATCH}).rowcount\n'
                    '        print(f"{lo + BATCH:>9} {n:>6}", flush=True)\n        lo += BATCH\n',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'DATABASE_URL="$STAGING_URL" alembic upgrade head',
                    "INFO  [alembic.runtime.migration] Running upgrade 0041 -> 0042, addresses table",
                    ms=1840,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'time python scripts/backfill_addresses.py "$STAGING_URL" | tail -4',
                    "  1700000  49873\n  1750000  49911\n  1800000  49702\n  1850000  12455\n\n"
                    "real\t4m12.307s\nuser\t0m1.911s\nsys\t0m0.204s",
                    ms=252307,
                )
            ]
        ),
        A(
            tools=[
                sh(
                    'psql "$STAGING_URL" -c "select count(*) as addresses, count(distinct customer_id) as customers, '
                    "(select count(*) from customers c where street is not null and not is_test and not exists "
                    '(select 1 from addresses a where a.customer_id=c.id)) as missing from addresses"',
                    " addresses | customers | missing \n-----------+-----------+---------\n   1789011 |   1789011 |       0\n(1 row)",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pytest -q",
                    "........................................................................ [ 17%]\n"
                    "..........................................................................[100%]\n412 passed in 31.02s",
                )
            ]
        ),
        A(
            "Backfill done on staging:\n\n| step | result |\n|---|---|\n| `alembic upgrade head` | 1.8 s (DDL only) |\n"
            "| backfill, 37 batches of 50k | 4 min 12 s, 1,789,011 rows |\n| customers without an address | 0 |\n"
            "| longest lock held by a batch | ~140 ms |\n| test suite | 412 passed |\n\n"
            "The 991 customers not copied are `is_test` accounts. The stuck replay worker was the reason "
            "for the silent 10-minute hang.",
            tools=[
                todo(
                    [
                        ("Write migration 0042_addresses (table, index, backfill)", "completed"),
                        ("Add Address model and Customer.addresses relationship", "completed"),
                        ("Switch 23 call sites to primary_address", "completed"),
                        ("Run the test suite", "completed"),
                        ("Dry-run the upgrade on the staging copy", "completed"),
                    ]
                )
            ],
        ),
        H("keep going", expect=("continue_after_milestone", "ack")),
        # ^ the milestone (backfill works, numbers reported) is followed by a bare go-on; the agent opens the contract phase.
        A(
            "Expand and migrate are done, so the next phase is the contract side: stop writing the old "
            "columns, add a billing address kind, then a migration that drops `street/city/postcode/country` "
            "from `customers` once nothing reads them.",
            tools=[
                todo(
                    [
                        ("Stop writing the inline address columns", "in_progress"),
                        ("Add billing address kind + API field", "pending"),
                        ("Migration 0043: drop inline address columns", "pending"),
                        ("Check ORM/queries for leftovers (grep + mypy)", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                grep(
                    r"\b(street|postcode)\b",
                    "app",
                    "app/models/customer.py:9:    street: Mapped[str | None] = mapped_column(String(200))\n"
                    "app/models/customer.py:11:    postcode: Mapped[str | None] = mapped_column(String(20))\n"
                    "app/api/schemas.py:31:    street: str | None = None\napp/api/schemas.py:33:    postcode: str | None = None\n"
                    "app/models/address.py:7:    street: Mapped[str | None]\napp/models/address.py:9:    postcode: Mapped[str | None]",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "app/api/schemas.py",
                    "class CustomerIn(BaseModel):\n    email: EmailStr\n    name: str\n    street: str | None = None\n"
                    "    city: str | None = None\n    postcode: str | None = None\n    country: str | None = None",
                    "class CustomerIn(BaseModel):\n    email: EmailStr\n    name: str\n    address: AddressIn | None = None\n"
                    "    billing_address: AddressIn | None = None",
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "app/models/customer.py",
                    "    street: Mapped[str | None] = mapped_column(String(200))\n    city: Mapped[str | None] = mapped_column(String(100))\n"
                    "    postcode: Mapped[str | None] = mapped_column(String(20))\n    country: Mapped[str | None] = mapped_column(String(2))\n",
                    "    # inline address columns are deprecated: read-only until 0043 drops them\n"
                    '    _street: Mapped[str | None] = mapped_column("street", String(200), deferred=True)\n',
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "app/models/customer.py",
                    "        return next((a for a in self.addresses if a.is_primary), None)\n",
                    "        return next((a for a in self.addresses if a.is_primary), None)\n\n"
                    "    @property\n    def billing_address(self) -> Address | None:\n"
                    '        return next((a for a in self.addresses if a.kind == "billing"), None)\n',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "mypy app",
                    'app/exports/csv.py:61: error: "Customer" has no attribute "country"  [attr-defined]\n'
                    'app/api/customers.py:120: error: "Customer" has no attribute "country"  [attr-defined]\n'
                    "Found 2 errors in 2 files (checked 87 source files)",
                    code=1,
                )
            ]
        ),
        A(
            "Two leftovers mypy caught.",
            tools=[
                ed(
                    "app/exports/csv.py",
                    "    if c.country is None:",
                    "    if c.primary_address is None or c.primary_address.country is None:",
                ),
                ed(
                    "app/api/customers.py",
                    "    if not c.country:",
                    "    if not (c.primary_address and c.primary_address.country):",
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "mypy app && pytest -q",
                    "Success: no issues found in 87 source files\n"
                    "........................................................................ [ 17%]\n"
                    "..........................................................................[100%]\n418 passed in 32.40s",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "alembic revision -m drop_inline_address --rev-id 0043",
                    "  Generating /home/mara/src/ledgerly/migrations/versions/0043_drop_inline_address.py ...  done",
                )
            ]
        ),
        A(
            tools=[
                wr(
                    "migrations/versions/0043_drop_inline_address.py",
                    'revision = "0043"\ndown_revision = "0042"\n\n\ndef upgrade():\n'
                    '    for col in ("street", "city", "postcode", "country"):\n        op.drop_column("customers", col)\n\n\n'
                    'def downgrade():\n    for col, n in (("street", 200), ("city", 100), ("postcode", 20), ("country", 2)):\n'
                    '        op.add_column("customers", sa.Column(col, sa.String(n)))\n',
                )
            ]
        ),
        A(
            "0043 is written but I have not run it on staging: dropping the columns should wait until "
            "the release with 0042 has been live for a while. Summary of this phase:\n\n"
            "- old columns are no longer written; `billing_address` exists in model and API\n"
            "- mypy clean, 418 tests pass (6 new for billing address)\n- `0043_drop_inline_address` ready, not applied",
            tools=[
                todo(
                    [
                        ("Stop writing the inline address columns", "completed"),
                        ("Add billing address kind + API field", "completed"),
                        ("Migration 0043: drop inline address columns", "completed"),
                        ("Check ORM/queries for leftovers (grep + mypy)", "completed"),
                    ]
                )
            ],
        ),
        H("thanks"),
        # ^ NOT a pivot: closing pleasantry, nothing changes afterwards (the agent just signs off).
        A(
            "You're welcome. When 0042 has been in production for a release, run 0043 in a quiet window."
        ),
    ]


SCENARIOS = [
    Scenario(
        name="heldout-backend-addresses",
        title="Move customer addresses into their own table",
        cwd=CWD,
        steps=steps(),
        model="claude-sonnet-4-6",
        start="2026-10-14T08:12:00Z",
        seconds_per_step=55,
        notes="pivots: implicit_approval (sure), delegation_after_dead_end (.), continue_after_milestone (keep going)",
    )
]
