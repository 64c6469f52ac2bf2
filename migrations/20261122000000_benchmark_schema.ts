import type { Knex } from "knex";

/**
 * The benchmark data: reference data (coverages, lines of business), companies,
 * their programs and loss events, and the dataset version that every import bumps.
 *
 * Money is numeric(20,2): exact cents (DATA-FORMAT.md). Identifiers of companies,
 * programs and loss events go up to 2^53 - 1, so bigint; coverage and LOB ids
 * fit an integer. Checks mirror the data format, so even a hand-made INSERT
 * cannot store what an import would reject.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table coverages (
      coverage_id integer primary key check (coverage_id > 0),
      name text not null check (name <> '')
    );

    create table lines_of_business (
      line_of_business_id integer primary key check (line_of_business_id > 0),
      coverage_id integer not null references coverages on delete cascade,
      name text not null check (name <> ''),
      -- the target of the (coverage, LOB) foreign keys below: a program's LOB
      -- must belong to the program's coverage
      unique (coverage_id, line_of_business_id)
    );

    create table companies (
      company_id bigint primary key check (company_id > 0 and company_id <= 9007199254740991),
      company_name text not null check (company_name <> ''),
      organization_type text not null check (organization_type ~ '^[A-Z]{2,8}$'),
      naics text check (naics ~ '^[0-9]{2,6}$'),
      -- the two prefixes a peer group matches on (SEMANTICS.md section 1)
      naics2 text generated always as (left(naics, 2)) stored,
      naics3 text generated always as (case when length(naics) >= 3 then left(naics, 3) end) stored,
      revenues numeric(20, 2) check (revenues >= 0),
      employees bigint check (employees >= 0 and employees <= 9007199254740991),
      market_cap numeric(20, 2) check (market_cap >= 0)
    );
    create index companies_naics2 on companies (naics2);
    create index companies_naics3 on companies (naics3);
    create index companies_organization_type on companies (organization_type);
    create index companies_revenues on companies (revenues);
    create index companies_employees on companies (employees);
    create index companies_market_cap on companies (market_cap);
    -- case-insensitive name lookups and prefix searches
    create index companies_lower_name on companies (lower(company_name) text_pattern_ops);

    create table programs (
      program_id bigint primary key check (program_id > 0 and program_id <= 9007199254740991),
      company_id bigint not null references companies on delete cascade,
      coverage_id integer not null,
      line_of_business_id integer not null,
      effective_date date not null,
      limit_amount numeric(20, 2) check (limit_amount >= 0),
      premium numeric(20, 2) check (premium >= 0),
      retention numeric(20, 2) check (retention >= 0),
      source text,
      foreign key (coverage_id, line_of_business_id)
        references lines_of_business (coverage_id, line_of_business_id) on delete cascade
    );
    -- a peer group is one coverage over a window of effective dates
    create index programs_coverage_effective on programs (coverage_id, effective_date);
    create index programs_company on programs (company_id);
    create index programs_line_of_business on programs (line_of_business_id);

    create table loss_events (
      loss_event_id bigint primary key check (loss_event_id > 0 and loss_event_id <= 9007199254740991),
      company_id bigint not null references companies on delete cascade,
      coverage_id integer not null,
      line_of_business_id integer not null,
      loss_category text not null check (loss_category <> ''),
      loss_type text not null check (loss_type <> ''),
      accident_date timestamp(0),
      filing_date timestamp(0) not null,
      status text not null check (status <> ''),
      total_amount bigint not null check (total_amount >= 0 and total_amount <= 9007199254740991),
      description text,
      -- SEMANTICS.md section 3: the accident's year, else the filing's
      loss_year integer generated always as
        (extract(year from coalesce(accident_date, filing_date))::integer) stored,
      foreign key (coverage_id, line_of_business_id)
        references lines_of_business (coverage_id, line_of_business_id) on delete cascade
    );
    create index loss_events_coverage_year on loss_events (coverage_id, loss_year);
    create index loss_events_company on loss_events (company_id);
    create index loss_events_line_of_business on loss_events (line_of_business_id);

    -- One row: the version of the data being served. Every import bumps it, in
    -- the import's own transaction, so a server can tell its cached answers are stale.
    create table dataset_version (
      singleton boolean primary key default true check (singleton),
      version bigint not null,
      changed_at timestamptz not null default now()
    );
    insert into dataset_version (version) values (0);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table dataset_version;
    drop table loss_events;
    drop table programs;
    drop table companies;
    drop table lines_of_business;
    drop table coverages;
  `);
}
