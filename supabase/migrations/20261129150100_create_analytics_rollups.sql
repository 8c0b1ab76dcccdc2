-- Analytics rollups (issue 28; docs/analytics.md): per-day totals that the analytics measures read
-- instead of scanning inspections, answers and actions on every request. One row per organization,
-- local day, site and template (and item, or action priority), kept by triggers in the writes' own
-- transactions (migrations 20261129150200 and 20261129150300) and recomputable from the base
-- tables with private.rebuild_analytics (20261129150400).
--
-- The day is the site's own calendar day (sites.timezone): an inspection submitted on Monday
-- morning in Auckland counts on Monday, not on Sunday UTC, as the schedules count occurrences on
-- each site's calendar. The rows are per site, so they follow the same rule as the rows they sum
-- (issue 27, private.can_see_site): a member or key reads the rollups of the sites it sees — every
-- site of an organization where it is org-wide, the sites of its groups and their descendants where
-- it is limited — so a limited member's figures cover their sites only. The policies write the
-- rule's two tests out, as the sites policy does, so that each helper runs once per statement.
-- Nobody writes the rollups but the triggers (security definer functions): callers may only read.
--
-- A key whose every contribution has gone (an inspection sent back, an occurrence canceled) keeps a
-- row of zeros until the next rebuild; the measures skip empty rows.

create table public.analytics_inspection_days (
  org_id uuid not null references public.organizations (id) on delete cascade,
  day date not null,
  site_id uuid not null,
  template_id uuid not null,
  -- The version the inspections ran: which items they could have failed (analytics_item_days).
  template_version_id uuid not null,
  inspections integer not null default 0,
  scored integer not null default 0,
  score_sum numeric not null default 0,
  primary key (org_id, day, site_id, template_id, template_version_id)
);

comment on table public.analytics_inspection_days is
  'Submitted and approved inspections per site, template version and local day of their submission, with the sum of their scores in percent (analytics: scores, sites, and the answers of failed items).';
comment on column public.analytics_inspection_days.inspections is 'Inspections submitted or approved, submitted that day (the latest submission).';
comment on column public.analytics_inspection_days.scored is 'Of those, the ones with something to score (max_score > 0): what the average score averages.';
comment on column public.analytics_inspection_days.score_sum is 'The sum of 100 × score ÷ max_score over the scored ones.';

create index analytics_inspection_days_site_id_day_idx on public.analytics_inspection_days (site_id, day);

-- Sparse: an inspection adds a row only for an item of its version that can fail (a scored item,
-- private.scored_item_keys) and that it failed or did not judge (hidden, n/a, not answered). How
-- many judged an item is then the inspections of the versions that have it, less those that did
-- not judge it. A checklist mostly passes, so this holds a small share of the answers.
create table public.analytics_item_days (
  org_id uuid not null references public.organizations (id) on delete cascade,
  day date not null,
  site_id uuid not null,
  template_id uuid not null,
  item_key text not null,
  failed integer not null default 0,
  unjudged integer not null default 0,
  primary key (org_id, day, site_id, template_id, item_key)
);

comment on table public.analytics_item_days is
  'Per scored item of submitted and approved inspections, per site, template and local day of submission: the answers that failed, and the inspections that did not judge the item (hidden by a visibility rule, n/a or not answered). Hidden items never count as answered (analytics: failed items).';
comment on column public.analytics_item_days.failed is 'Answers that failed (on items shown).';
comment on column public.analytics_item_days.unjudged is 'Inspections whose version has the item but that did not pass or fail it: hidden, n/a, or not answered.';

create index analytics_item_days_site_id_day_idx on public.analytics_item_days (site_id, day);

create table public.analytics_occurrence_days (
  org_id uuid not null references public.organizations (id) on delete cascade,
  day date not null,
  site_id uuid not null,
  template_id uuid not null,
  occurrences integer not null default 0,
  on_time integer not null default 0,
  late integer not null default 0,
  primary key (org_id, day, site_id, template_id)
);

comment on table public.analytics_occurrence_days is
  'Schedules'' occurrences (not canceled) per site, template and local day of their due time, with those first submitted by it and after it (analytics: on-time, sites). Missed ones are the rest once the day has passed: derived, like private.occurrence_missed.';

create index analytics_occurrence_days_site_id_day_idx on public.analytics_occurrence_days (site_id, day);

create table public.analytics_action_days (
  org_id uuid not null references public.organizations (id) on delete cascade,
  day date not null,
  site_id uuid not null,
  -- The template of the inspection the action came from; null for an action about no inspection.
  template_id uuid,
  priority public.action_priority not null,
  opened integer not null default 0,
  resolved integer not null default 0,
  verified integer not null default 0,
  due integer not null default 0,
  resolved_by_due integer not null default 0,
  -- The medians cannot be summed: each resolution's and verification's duration is kept, exactly,
  -- on its day's row (in no order), and the medians are taken over the range's values.
  resolve_seconds numeric[] not null default '{}',
  verify_seconds numeric[] not null default '{}',
  constraint analytics_action_days_key unique nulls not distinct (org_id, day, site_id, template_id, priority)
);

comment on table public.analytics_action_days is
  'Corrective actions (not canceled) per site, template, priority and local day: opened (created that day), resolved and verified that day, and due that day with those resolved by their due time (analytics: actions). Overdue ones are the rest once the day has passed.';
comment on column public.analytics_action_days.resolved is 'Actions whose current resolution (resolved_at; a reopen clears it) is that day.';
comment on column public.analytics_action_days.resolved_by_due is 'Of the actions due that day, those resolved no later than their due time.';
comment on column public.analytics_action_days.resolve_seconds is 'For each action resolved that day, the seconds from its opening to its resolution (a multiset: no order).';
comment on column public.analytics_action_days.verify_seconds is 'For each action verified that day, the seconds from its resolution to its verification (a multiset: no order).';

create index analytics_action_days_site_id_day_idx on public.analytics_action_days (site_id, day);
-- The medians read the rows that hold durations, a third of them, from these alone (index-only:
-- 7 ms instead of a 40 ms scan of the table for a year of the bench's 100k-inspection organization).
create index analytics_action_days_resolve_seconds_idx on public.analytics_action_days (org_id, day)
  include (priority, site_id, template_id, resolve_seconds) where cardinality(resolve_seconds) > 0;
create index analytics_action_days_verify_seconds_idx on public.analytics_action_days (org_id, day)
  include (priority, site_id, template_id, verify_seconds) where cardinality(verify_seconds) > 0;

alter table public.analytics_inspection_days enable row level security;
alter table public.analytics_item_days enable row level security;
alter table public.analytics_occurrence_days enable row level security;
alter table public.analytics_action_days enable row level security;

create policy "Members can read the inspection rollups of their organization's sites" on public.analytics_inspection_days
  for select to authenticated
  using (org_id in (select private.org_ids_with_every_site()) or site_id in (select private.limited_site_ids()));
create policy "Members can read the item rollups of their organization's sites" on public.analytics_item_days
  for select to authenticated
  using (org_id in (select private.org_ids_with_every_site()) or site_id in (select private.limited_site_ids()));
create policy "Members can read the occurrence rollups of their organization's sites" on public.analytics_occurrence_days
  for select to authenticated
  using (org_id in (select private.org_ids_with_every_site()) or site_id in (select private.limited_site_ids()));
create policy "Members can read the action rollups of their organization's sites" on public.analytics_action_days
  for select to authenticated
  using (org_id in (select private.org_ids_with_every_site()) or site_id in (select private.limited_site_ids()));

revoke all on public.analytics_inspection_days, public.analytics_item_days, public.analytics_occurrence_days,
  public.analytics_action_days from anon, authenticated;
grant select on public.analytics_inspection_days, public.analytics_item_days, public.analytics_occurrence_days,
  public.analytics_action_days to authenticated;
grant all on public.analytics_inspection_days, public.analytics_item_days, public.analytics_occurrence_days,
  public.analytics_action_days to service_role;
