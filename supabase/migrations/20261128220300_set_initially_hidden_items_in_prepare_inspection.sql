-- A new inspection's initially hidden items were set by a trigger of their own
-- (inspections_set_hidden_items, private.set_initially_hidden_items: migrations 20261126120300 and
-- 20261128200700) firing right after inspections_prepare and reading the same template version
-- again, once per inspection: thousands when a schedule's occurrences are made. prepare_inspection
-- reads the version anyway, to pin it or to check it belongs to the template, so it now takes the
-- stored initially_hidden_item_keys in the same read, and the trigger and its function go. The
-- same value as before: the version the inspection is pinned to, '{}' when it has none. (A client
-- refused at the top returns before either read, as before; the insert policy then refuses the
-- row, so the keys it would have had never mattered.)

create or replace function private.prepare_inspection()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  site record;
  template record;
  version_template uuid;
  initially_hidden text[];
begin
  -- A missing org_id counts as not theirs: the checks below would otherwise describe another
  -- organization's site or template to anyone who names its id.
  if private.is_client_request()
     and (new.org_id is null or new.org_id not in (select private.org_ids_of_current_user('{owner,admin,manager}'))) then
    return new;
  end if;

  select s.org_id, s.name, s.archived_at into site from public.sites s where s.id = new.site_id;
  if not found or site.org_id <> new.org_id then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'Choose a site of this organization.')::text;
  end if;
  if site.archived_at is not null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'This site is archived. Choose an active site.')::text;
  end if;

  -- Shared lock: archiving or publishing the template waits until this inspection is in.
  select t.org_id, t.name, t.status, t.latest_version into template
  from public.templates t where t.id = new.template_id
  for share;
  if not found or template.org_id <> new.org_id then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Choose a template of this organization.')::text;
  end if;
  if template.status = 'archived' then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'This template is archived. Choose an active template.')::text;
  end if;
  if template.latest_version is null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Publish this template before scheduling it.')::text;
  end if;

  if new.template_version_id is null then
    select v.id, v.initially_hidden_item_keys into new.template_version_id, initially_hidden
    from public.template_versions v
    where v.template_id = new.template_id and v.version = template.latest_version;
  else
    select v.template_id, v.initially_hidden_item_keys into version_template, initially_hidden
    from public.template_versions v where v.id = new.template_version_id;
    if version_template is distinct from new.template_id then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'template_version_id', 'message', 'Choose a version of this template.')::text;
    end if;
  end if;

  -- The items the version's rules hide before any answer (stored with the version).
  new.hidden_item_keys := coalesce(initially_hidden, '{}');

  perform private.check_inspection_assignee(new.org_id, new.assignee_id);

  -- Both names fit 120 characters each; the title keeps the first 120 of the pair.
  new.title := coalesce(new.title, rtrim(left(template.name || ' — ' || site.name, 120)));
  return new;
end;
$$;

comment on function private.prepare_inspection() is
  'Before-insert trigger: site, template and assignee consistency, pins the latest version and its initially hidden items, default title.';

drop trigger inspections_set_hidden_items on public.inspections;
drop function private.set_initially_hidden_items();
