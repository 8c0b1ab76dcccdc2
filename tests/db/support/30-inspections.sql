-- Fixtures for the template, inspection, answer and photo tests. Like the organization fixtures
-- they write as the superuser, so call them before acting as anyone.

-- A site of the organization and a template whose one section holds `items`, published as
-- version 1 (the version's own trigger copies the draft).
create or replace function tests.create_published_template(org uuid, items jsonb)
returns table (site uuid, template uuid, version_id uuid)
language plpgsql
as $$
declare
  new_site uuid;
  new_template uuid;
  new_version uuid;
begin
  insert into public.sites (org_id, name) values (org, 'Kitchen') returning id into new_site;
  insert into public.templates (org_id, name, definition)
  values (org, 'Audit', jsonb_build_object('sections', jsonb_build_array(
    jsonb_build_object('key', 's', 'title', 'Section', 'items', items))))
  returning id into new_template;
  insert into public.template_versions (template_id) values (new_template) returning id into new_version;
  return query select new_site, new_template, new_version;
end;
$$;

-- An inspection of the template placed straight in `status` past the transition rules (replica
-- mode), started an hour ago unless scheduled: for files about what a state allows, not how it
-- is reached.
create or replace function tests.create_inspection(org uuid, site uuid, template uuid,
                                                   status public.inspection_status default 'in_progress',
                                                   assignee uuid default null, title text default null)
returns uuid
language plpgsql
as $$
declare
  created uuid;
begin
  insert into public.inspections (org_id, site_id, template_id, assignee_id, title)
  values (org, site, template, assignee, title)
  returning id into created;
  if status <> 'scheduled' then
    -- The SET statement, not set_config(): hosted allows `postgres` only the statement.
    set local session_replication_role = replica;
    update public.inspections i set status = create_inspection.status, started_at = now() - interval '1 hour'
    where i.id = created;
    set local session_replication_role = origin;
  end if;
  return created;
end;
$$;

-- The message and detail of the error a statement raises (null when it succeeds), as the api
-- reads them: 'validation_failed {"field" : …, "message" : …}'.
create or replace function tests.error_of(statement text)
returns text
language plpgsql
as $$
declare
  message text;
  detail text;
begin
  execute statement;
  return null;
exception when others then
  get stacked diagnostics message = message_text, detail = pg_exception_detail;
  return message || coalesce(' ' || detail, '');
end;
$$;

-- A signature image as the answers store it: a PNG data URL whose data starts with a real PNG
-- header (signature, then IHDR: width × height, 8-bit RGBA, not interlaced; its CRC left zero,
-- which nothing checks before decoding), then `fill` up to `length` base64 characters. Only the
-- header is read at save (private.png_data_url_size); the rest is never decoded there.
create or replace function tests.png_data_url(width bigint, height bigint, length integer default 48, fill text default 'A')
returns text
language sql
as $$
  select 'data:image/png;base64,'
    || encode('\x89504e470d0a1a0a0000000d49484452'::bytea || substr(int8send(width), 5, 4) || substr(int8send(height), 5, 4)
              || '\x080600000000000000000000'::bytea, 'base64')
    || repeat(fill, length - 48);
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;
