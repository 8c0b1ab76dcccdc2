-- Answers (PRODUCT.md §3): one row per (inspection, item key), so several inspectors can fill
-- one inspection at once without overwriting each other; each row has its own version.
-- SKELETON by the lead: table, indexes, base policies. The answers owner completes it (value
-- validation per kind, failed, score, version bump, freeze outside in_progress, audit, live).

create table public.answers (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  inspection_id uuid not null references public.inspections (id) on delete cascade,
  item_key text not null,
  -- Shape depends on the item's kind (docs/templates.md); null = cleared / not answered.
  value jsonb,
  note text
    constraint answers_note_check check (char_length(note) between 1 and 2000),
  -- Whether the answer fails the item's rules; null when the item is not scored or unanswered.
  failed boolean,
  -- The item's weight when the answer counts toward the score, else 0.
  weight numeric not null default 0,
  answered_by uuid default auth.uid() references auth.users (id) on delete set null,
  answered_at timestamptz not null default now(),
  -- Row version for optimistic concurrency (PUT …/answers base_version).
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint answers_inspection_id_item_key_key unique (inspection_id, item_key)
);

comment on table public.answers is 'One answer per inspection item, versioned for concurrent editing.';

create index answers_org_id_idx on public.answers (org_id);
create index answers_answered_by_idx on public.answers (answered_by);

create trigger answers_set_updated_at
  before update on public.answers
  for each row execute function private.set_updated_at();

alter table public.answers enable row level security;

create policy "Members can read their organization's answers"
  on public.answers
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

revoke all on table public.answers from anon, authenticated;
grant select on table public.answers to authenticated;
grant all on table public.answers to service_role;
