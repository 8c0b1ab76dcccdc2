-- Attachments (PRODUCT.md §3, §7 "Storage"): photo evidence on an inspection item. A row is
-- created when the api issues a signed upload URL (pending) and confirmed once the object's
-- size and magic bytes were checked.
-- SKELETON by the lead: table, indexes, base policies. The evidence owner completes it.

create table public.attachments (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  inspection_id uuid not null references public.inspections (id) on delete cascade,
  item_key text not null,
  -- `<org>/<inspection>/<item>/<uuid>.<ext>` in bucket `evidence`.
  object_path text not null,
  content_type text not null
    constraint attachments_content_type_check check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/heic')),
  byte_size bigint not null
    constraint attachments_byte_size_check check (byte_size between 1 and 10485760),
  confirmed_at timestamptz,
  uploaded_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint attachments_object_path_key unique (object_path)
);

comment on table public.attachments is 'Photos on inspection items; pending until the upload is checked.';

create index attachments_inspection_id_item_key_idx on public.attachments (inspection_id, item_key);
create index attachments_org_id_idx on public.attachments (org_id);
create index attachments_uploaded_by_idx on public.attachments (uploaded_by);

alter table public.attachments enable row level security;

create policy "Members can read their organization's attachments"
  on public.attachments
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

revoke all on table public.attachments from anon, authenticated;
grant select on table public.attachments to authenticated;
grant all on table public.attachments to service_role;
