-- Demo data for local development (`npm run db:reset`, `supabase db reset`). Never runs on a
-- hosted project. Logins are listed in README.md; every demo password is fieldcheck-demo-1.

-- One person per role. Token columns are '' rather than null because GoTrue scans them as strings.
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        confirmation_token, recovery_token, email_change_token_new, email_change,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', demo.id, 'authenticated', 'authenticated', demo.email,
       extensions.crypt('fieldcheck-demo-1', extensions.gen_salt('bf', 10)), now(), '', '', '', '',
       '{"provider":"email","providers":["email"]}', jsonb_build_object('display_name', demo.display_name), now(), now()
from (values
  ('d0000000-0000-4000-8000-000000000001'::uuid, 'owner@demo.fieldcheck.test', 'Olivia Owner'),
  ('d0000000-0000-4000-8000-000000000002'::uuid, 'admin@demo.fieldcheck.test', 'Adam Admin'),
  ('d0000000-0000-4000-8000-000000000003'::uuid, 'manager@demo.fieldcheck.test', 'Maya Manager'),
  ('d0000000-0000-4000-8000-000000000004'::uuid, 'inspector@demo.fieldcheck.test', 'Ivan Inspector'),
  ('d0000000-0000-4000-8000-000000000005'::uuid, 'viewer@demo.fieldcheck.test', 'Vera Viewer')
) as demo (id, email, display_name);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select id::text, id, jsonb_build_object('sub', id::text, 'email', email, 'email_verified', true), 'email', now(), now(), now()
from auth.users
where email like '%@demo.fieldcheck.test';

-- The demo organization; its creator becomes the owner through the trigger.
insert into public.organizations (id, slug, name, default_geofence_m, created_by)
values ('0d000000-0000-4000-8000-000000000001', 'harbor-foods', 'Harbor Foods Group', 150,
        'd0000000-0000-4000-8000-000000000001');

insert into public.memberships (org_id, user_id, role)
values ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000002', 'admin'),
       ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000003', 'manager'),
       ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004', 'inspector'),
       ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000005', 'viewer');

-- A dozen places around Puget Sound: restaurants, a central kitchen, warehouses; one archived.
insert into public.sites (org_id, name, address, latitude, longitude, geofence_m, timezone, external_ref, archived_at, created_by)
select '0d000000-0000-4000-8000-000000000001', s.name, s.address, s.latitude, s.longitude, s.geofence_m,
       'America/Los_Angeles', s.external_ref, s.archived_at, 'd0000000-0000-4000-8000-000000000001'
from (values
  ('Pike Place Bistro', '1501 Pike Pl, Seattle, WA 98101', 47.6097, -122.3422, 100, 'HF-001', null::timestamptz),
  ('Ballard Fish House', '5300 Ballard Ave NW, Seattle, WA 98107', 47.6670, -122.3840, 100, 'HF-002', null),
  ('Capitol Hill Taqueria', '1520 Broadway, Seattle, WA 98122', 47.6145, -122.3208, 100, 'HF-003', null),
  ('Fremont Bakery & Café', '3509 Fremont Ave N, Seattle, WA 98103', 47.6510, -122.3505, 100, 'HF-004', null),
  ('South Lake Union Deli', '400 Westlake Ave N, Seattle, WA 98109', 47.6222, -122.3384, 100, 'HF-005', null),
  ('Bellevue Noodle Bar', '575 Bellevue Square, Bellevue, WA 98004', 47.6163, -122.2036, 120, 'HF-006', null),
  ('Redmond Town Grill', '7525 166th Ave NE, Redmond, WA 98052', 47.6712, -122.1187, 120, 'HF-007', null),
  ('Tacoma Waterfront Oyster Bar', '2201 Ruston Way, Tacoma, WA 98402', 47.2750, -122.4806, 150, 'HF-008', null),
  ('Georgetown Central Kitchen', '6000 Airport Way S, Seattle, WA 98108', 47.5480, -122.3215, 250, 'HF-CK1', null),
  ('Kent Cold Storage Warehouse', '21000 72nd Ave S, Kent, WA 98032', 47.4143, -122.2420, 400, 'HF-WH1', null),
  ('Everett Distribution Center', '11400 Airport Rd, Everett, WA 98204', 47.9030, -122.2700, 400, 'HF-WH2', null),
  ('Queen Anne Pop-up (closed)', '100 Mercer St, Seattle, WA 98109', 47.6249, -122.3540, 100, 'HF-009', now() - interval '30 days')
) as s (name, address, latitude, longitude, geofence_m, external_ref, archived_at);
