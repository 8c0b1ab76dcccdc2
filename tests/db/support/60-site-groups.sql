-- Fixtures for the site group tests (issue 27, tests/db/240-249). Like the other fixtures they
-- write as the superuser, so call them before acting as anyone. plpgsql, so this file loads
-- (its bodies are checked when first run) whatever the schema of the branch it runs on.

-- A group of the organization, under `parent` (null: a top-level group).
create or replace function tests.create_site_group(org uuid, group_name text, parent uuid default null)
returns uuid
language plpgsql
as $$
declare
  created uuid;
begin
  insert into public.site_groups (org_id, parent_id, name) values (org, parent, group_name) returning id into created;
  return created;
end;
$$;

-- Limits a member to `group_ids` (and their descendants), as the members' access editor does.
create or replace function tests.limit_member(org uuid, member uuid, group_ids uuid[])
returns void
language plpgsql
as $$
begin
  update public.memberships m set site_access_limited = true where m.org_id = org and m.user_id = member;
  insert into public.membership_site_groups (org_id, user_id, site_group_id)
  select org, member, g from unnest(group_ids) g;
end;
$$;

-- A new user who is a member of `org` with `member_role`, limited to `group_ids`.
create or replace function tests.create_limited_member(org uuid, email text, member_role public.org_role, group_ids uuid[])
returns uuid
language plpgsql
as $$
declare
  created uuid := tests.create_user(email, initcap(split_part(email, '@', 1)));
begin
  perform tests.add_member(org, created, member_role);
  perform tests.limit_member(org, created, group_ids);
  return created;
end;
$$;

-- An API key of `org` with `key_role`, limited at its creation to `group_ids`.
create or replace function tests.create_limited_api_key(org uuid, key_role public.org_role, group_ids uuid[],
                                                        key_name text default 'Regional integration')
returns uuid
language plpgsql
as $$
declare
  created uuid;
begin
  insert into public.api_keys (org_id, name, prefix, secret_hash, role, site_access_limited)
  values (org, key_name, 'fck_' || substr(md5(random()::text), 1, 8), sha256(gen_random_uuid()::text::bytea), key_role, true)
  returning id into created;
  insert into public.api_key_site_groups (api_key_id, org_id, site_group_id)
  select created, org, g from unnest(group_ids) g;
  return created;
end;
$$;

-- The world of the site group files: create_org_matrix's organization A (every role org-wide), B
-- and an outsider; in A the tree North › Harbour › Pier and South, a site in North, one in Pier
-- (North's grandchild), one in South and one in no group; a published template (a pass/fail item
-- and a photo item); one inspection in progress at each site, unassigned; a limited manager,
-- inspector and viewer and a limited manager key, each limited to North (so Harbour and Pier too);
-- and an org-wide manager key. tag keeps emails and slugs unique per file.
create or replace function tests.create_site_group_world(tag text)
returns table (org_a uuid, org_b uuid, owner uuid, admin uuid, manager uuid, inspector uuid, viewer uuid,
               b_owner uuid, outsider uuid, l_manager uuid, l_inspector uuid, l_viewer uuid,
               k_limited uuid, k_wide uuid, north uuid, harbour uuid, pier uuid, south uuid,
               north_site uuid, pier_site uuid, south_site uuid, loose_site uuid, template uuid, version_id uuid,
               north_insp uuid, pier_insp uuid, south_insp uuid, loose_insp uuid)
language plpgsql
as $$
declare
  m record;
  p record;
  g_north uuid;
  g_harbour uuid;
  g_pier uuid;
  g_south uuid;
  s_pier uuid;
  s_south uuid;
  s_loose uuid;
begin
  select * into m from tests.create_org_matrix(tag);
  select * into p from tests.create_published_template(m.org_a, '[
    {"key":"floor","kind":"pass_fail","label":"Floor clean","help":null,"required":false,"weight":1},
    {"key":"photo","kind":"photo","label":"Photos","help":null,"required":false,"weight":0,"max_photos":10}]');
  g_north := tests.create_site_group(m.org_a, 'North');
  g_harbour := tests.create_site_group(m.org_a, 'Harbour', g_north);
  g_pier := tests.create_site_group(m.org_a, 'Pier', g_harbour);
  g_south := tests.create_site_group(m.org_a, 'South');
  update public.sites s set name = 'North kitchen', group_id = g_north where s.id = p.site;
  insert into public.sites (org_id, name, group_id) values (m.org_a, 'Pier kiosk', g_pier) returning id into s_pier;
  insert into public.sites (org_id, name, group_id) values (m.org_a, 'South depot', g_south) returning id into s_south;
  insert into public.sites (org_id, name) values (m.org_a, 'Loose yard') returning id into s_loose;
  return query select m.org_a, m.org_b, m.owner, m.admin, m.manager, m.inspector, m.viewer, m.b_owner, m.outsider,
    tests.create_limited_member(m.org_a, 'l-manager-' || tag || '@example.test', 'manager', array[g_north]),
    tests.create_limited_member(m.org_a, 'l-inspector-' || tag || '@example.test', 'inspector', array[g_north]),
    tests.create_limited_member(m.org_a, 'l-viewer-' || tag || '@example.test', 'viewer', array[g_north]),
    tests.create_limited_api_key(m.org_a, 'manager', array[g_north]),
    tests.create_api_key(m.org_a, 'manager', 'Head office integration'),
    g_north, g_harbour, g_pier, g_south, p.site, s_pier, s_south, s_loose, p.template, p.version_id,
    tests.create_inspection(m.org_a, p.site, p.template),
    tests.create_inspection(m.org_a, s_pier, p.template),
    tests.create_inspection(m.org_a, s_south, p.template),
    tests.create_inspection(m.org_a, s_loose, p.template);
end;
$$;

-- What a statement did, as the current role: 'n rows', or the error it raised ('error <SQLSTATE>:
-- <message>'). A `using` clause that filters the row out shows as '0 rows'; a refusal that should
-- have been 0 rows shows its error instead of ending the file.
create or replace function tests.outcome(statement text)
returns text
language plpgsql
as $$
declare
  n bigint;
begin
  execute statement;
  get diagnostics n = row_count;
  return n || ' rows';
exception when others then
  return 'error ' || sqlstate || ': ' || sqlerrm;
end;
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;
