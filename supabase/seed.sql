-- Demo data for local development (`npm run db:reset`, `supabase db reset`). Never runs on a
-- hosted project. Logins are listed in README.md; every demo password is fieldcheck-demo-1.

-- One person per role, and a second inspector so two people can fill the same inspection at once
-- (README). Token columns are '' rather than null because GoTrue scans them as strings.
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
  ('d0000000-0000-4000-8000-000000000005'::uuid, 'viewer@demo.fieldcheck.test', 'Vera Viewer'),
  ('d0000000-0000-4000-8000-000000000006'::uuid, 'inspector2@demo.fieldcheck.test', 'Iris Inspector'),
  -- Limited to site groups (docs/site-groups.md): an inspector who sees the North region only, a
  -- manager who sees the South region only.
  ('d0000000-0000-4000-8000-000000000007'::uuid, 'inspector.north@demo.fieldcheck.test', 'Nina North'),
  ('d0000000-0000-4000-8000-000000000008'::uuid, 'manager.south@demo.fieldcheck.test', 'Sam South')
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
       ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000005', 'viewer'),
       ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000006', 'inspector');

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

-- And a kitchen in Auckland: the schedules below run in two time zones, each site at its own 08:00.
insert into public.sites (org_id, name, address, latitude, longitude, geofence_m, timezone, external_ref, created_by)
values ('0d000000-0000-4000-8000-000000000001', 'Auckland Viaduct Kitchen', '22 Viaduct Harbour Ave, Auckland 1010, New Zealand',
        -36.8441, 174.7590, 120, 'Pacific/Auckland', 'HF-AKL', 'd0000000-0000-4000-8000-000000000001');

-- Site groups (docs/site-groups.md): two regions, North (with the Seattle area beneath it) and
-- South; the Auckland kitchen in none. Olivia made them.
insert into public.site_groups (id, org_id, parent_id, name, created_by)
values ('6a000000-0000-4000-8000-000000000001', '0d000000-0000-4000-8000-000000000001', null, 'North', 'd0000000-0000-4000-8000-000000000001'),
       ('6a000000-0000-4000-8000-000000000002', '0d000000-0000-4000-8000-000000000001', null, 'South', 'd0000000-0000-4000-8000-000000000001'),
       ('6a000000-0000-4000-8000-000000000003', '0d000000-0000-4000-8000-000000000001', '6a000000-0000-4000-8000-000000000001', 'Seattle', 'd0000000-0000-4000-8000-000000000001');
update public.sites s set group_id = g.group_id
from (values
  ('HF-001', '6a000000-0000-4000-8000-000000000003'::uuid), ('HF-002', '6a000000-0000-4000-8000-000000000003'),
  ('HF-003', '6a000000-0000-4000-8000-000000000003'), ('HF-004', '6a000000-0000-4000-8000-000000000003'),
  ('HF-005', '6a000000-0000-4000-8000-000000000003'), ('HF-009', '6a000000-0000-4000-8000-000000000003'),
  ('HF-006', '6a000000-0000-4000-8000-000000000001'), ('HF-007', '6a000000-0000-4000-8000-000000000001'),
  ('HF-WH2', '6a000000-0000-4000-8000-000000000001'),
  ('HF-008', '6a000000-0000-4000-8000-000000000002'), ('HF-CK1', '6a000000-0000-4000-8000-000000000002'),
  ('HF-WH1', '6a000000-0000-4000-8000-000000000002')
) as g (external_ref, group_id)
where s.org_id = '0d000000-0000-4000-8000-000000000001' and s.external_ref = g.external_ref;

-- Nina inspects in the North only, Sam manages the South only.
insert into public.memberships (org_id, user_id, role, site_access_limited)
values ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000007', 'inspector', true),
       ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000008', 'manager', true);
insert into public.membership_site_groups (org_id, user_id, site_group_id)
values ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000007', '6a000000-0000-4000-8000-000000000001'),
       ('0d000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000008', '6a000000-0000-4000-8000-000000000002');

-- Templates, inspections and answers are written as the demo people who would write them (JWT
-- claims set as the api sets them), so their triggers, audit entries and "by" columns read true.
create function pg_temp.act_as(person uuid) returns void language sql as $$
  select set_config('request.jwt.claims', json_build_object('sub', person, 'role', 'authenticated', 'aal', 'aal1')::text, false);
$$;

select pg_temp.act_as('d0000000-0000-4000-8000-000000000003');

-- Two templates that use every item kind (docs/templates.md). Inserting a version publishes the
-- draft as version 1. Both have logic (docs/templates.md, "Logic"): the audit's cooking section
-- shows only where food is cooked on site, and its thermometer photo only when the walk-in
-- fridge is out of range; the fire walk asks for the last alarm test's date only when the alarm
-- was not tested this week.
insert into public.templates (id, org_id, name, description, definition)
values
  ('7e000000-0000-4000-8000-000000000001', '0d000000-0000-4000-8000-000000000001', 'Restaurant food-safety audit',
   'Monthly audit of storage, temperatures, hygiene, cleaning and pests in a restaurant kitchen.',
   $json${
  "sections": [
    {
      "key": "arrival",
      "title": "Arrival and records",
      "items": [
        {
          "key": "visit-date",
          "kind": "date",
          "label": "Date of visit",
          "help": null,
          "required": true,
          "weight": 0
        },
        {
          "key": "manager-on-duty",
          "kind": "text",
          "label": "Manager on duty",
          "help": null,
          "required": true,
          "weight": 0
        },
        {
          "key": "last-inspection-grade",
          "kind": "single_choice",
          "label": "Grade shown at the last inspection",
          "help": null,
          "required": true,
          "weight": 1,
          "options": [
            "A",
            "B",
            "C",
            "Not displayed"
          ],
          "failing_options": [
            "C",
            "Not displayed"
          ]
        },
        {
          "key": "haccp-plan",
          "kind": "yes_no",
          "label": "Is the HACCP plan available on site?",
          "help": null,
          "required": true,
          "weight": 1,
          "fail_on": "no"
        },
        {
          "key": "temperature-log",
          "kind": "yes_no",
          "label": "Are temperature logs filled in for the last 7 days?",
          "help": null,
          "required": true,
          "weight": 1,
          "fail_on": "no"
        },
        {
          "key": "cooks-on-site",
          "kind": "yes_no",
          "label": "Is food cooked or held hot on site?",
          "help": "No: the cooking and hot-holding section does not apply.",
          "required": true,
          "weight": 0,
          "fail_on": null
        },
        {
          "key": "entrance-photo",
          "kind": "photo",
          "label": "Photo of the entrance and licence display",
          "help": null,
          "required": false,
          "weight": 0,
          "max_photos": 2
        }
      ]
    },
    {
      "key": "cold-storage",
      "title": "Cold storage",
      "items": [
        {
          "key": "walk-in-fridge-temp",
          "kind": "number",
          "label": "Walk-in fridge temperature",
          "help": "Probe a product in the middle of the unit, not the air.",
          "required": true,
          "weight": 2,
          "min": 0,
          "max": 5,
          "unit": "°C"
        },
        {
          "key": "reach-in-fridge-temp",
          "kind": "number",
          "label": "Reach-in fridge temperature",
          "help": null,
          "required": true,
          "weight": 2,
          "min": 0,
          "max": 5,
          "unit": "°C"
        },
        {
          "key": "freezer-temp",
          "kind": "number",
          "label": "Freezer temperature",
          "help": null,
          "required": true,
          "weight": 2,
          "min": -30,
          "max": -18,
          "unit": "°C"
        },
        {
          "key": "raw-below-ready",
          "kind": "pass_fail",
          "label": "Raw meat stored below ready-to-eat food",
          "help": null,
          "required": true,
          "weight": 3
        },
        {
          "key": "food-covered-labelled",
          "kind": "pass_fail",
          "label": "Food covered, labelled and dated",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "fifo",
          "kind": "pass_fail",
          "label": "Stock rotated first in, first out",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "no-expired-stock",
          "kind": "pass_fail",
          "label": "No food past its use-by date",
          "help": null,
          "required": true,
          "weight": 3
        },
        {
          "key": "cold-storage-photo",
          "kind": "photo",
          "label": "Photo of the walk-in fridge thermometer",
          "help": "Asked for when the walk-in fridge is out of range.",
          "required": true,
          "weight": 0,
          "max_photos": 4,
          "show_when": {
            "match": "all",
            "conditions": [
              {
                "item": "walk-in-fridge-temp",
                "op": "failed"
              }
            ]
          }
        }
      ]
    },
    {
      "key": "hot-holding",
      "title": "Cooking and hot holding",
      "show_when": {
        "match": "all",
        "conditions": [
          {
            "item": "cooks-on-site",
            "op": "equals",
            "value": "yes"
          }
        ]
      },
      "items": [
        {
          "key": "core-cook-temp",
          "kind": "number",
          "label": "Core temperature of a cooked dish",
          "help": null,
          "required": true,
          "weight": 3,
          "min": 75,
          "max": null,
          "unit": "°C"
        },
        {
          "key": "hot-holding-temp",
          "kind": "number",
          "label": "Hot-holding temperature",
          "help": null,
          "required": true,
          "weight": 2,
          "min": 63,
          "max": null,
          "unit": "°C"
        },
        {
          "key": "thermometer-calibrated",
          "kind": "pass_fail",
          "label": "Probe thermometer calibrated this month",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "cooling-procedure",
          "kind": "pass_fail",
          "label": "Cooked food cooled within 90 minutes",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "reheating",
          "kind": "pass_fail",
          "label": "Reheated food reaches 75 °C",
          "help": null,
          "required": true,
          "weight": 1
        }
      ]
    },
    {
      "key": "hygiene",
      "title": "Personal hygiene",
      "items": [
        {
          "key": "handwash-stations",
          "kind": "pass_fail",
          "label": "Hand-wash stations stocked with soap and paper towels",
          "help": null,
          "required": true,
          "weight": 2
        },
        {
          "key": "handwashing-observed",
          "kind": "pass_fail",
          "label": "Staff wash hands between tasks",
          "help": null,
          "required": true,
          "weight": 2
        },
        {
          "key": "clean-uniforms",
          "kind": "pass_fail",
          "label": "Clean uniforms and hair covered",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "no-jewellery",
          "kind": "pass_fail",
          "label": "No jewellery apart from a plain band",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "illness-reporting",
          "kind": "yes_no",
          "label": "Do staff know how to report illness?",
          "help": null,
          "required": true,
          "weight": 1,
          "fail_on": "no"
        },
        {
          "key": "training-records",
          "kind": "single_choice",
          "label": "Food-hygiene training records",
          "help": null,
          "required": true,
          "weight": 1,
          "options": [
            "All staff trained",
            "Some staff trained",
            "No records"
          ],
          "failing_options": [
            "No records"
          ]
        }
      ]
    },
    {
      "key": "cleaning",
      "title": "Cleaning and sanitation",
      "items": [
        {
          "key": "surfaces-clean",
          "kind": "pass_fail",
          "label": "Food-contact surfaces clean and sanitised",
          "help": null,
          "required": true,
          "weight": 2
        },
        {
          "key": "chopping-boards",
          "kind": "pass_fail",
          "label": "Colour-coded chopping boards in use",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "sanitiser-concentration",
          "kind": "number",
          "label": "Sanitiser concentration",
          "help": null,
          "required": true,
          "weight": 1,
          "min": 100,
          "max": 400,
          "unit": "ppm"
        },
        {
          "key": "dishwasher-temp",
          "kind": "pass_fail",
          "label": "Dishwasher final rinse reaches 82 °C",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "cleaning-schedule",
          "kind": "yes_no",
          "label": "Is the cleaning schedule signed off?",
          "help": null,
          "required": true,
          "weight": 1,
          "fail_on": "no"
        },
        {
          "key": "chemicals",
          "kind": "multi_choice",
          "label": "Chemicals found in food areas",
          "help": null,
          "required": false,
          "weight": 1,
          "options": [
            "None",
            "Bleach",
            "Degreaser",
            "Unlabelled spray bottle"
          ],
          "failing_options": [
            "Bleach",
            "Degreaser",
            "Unlabelled spray bottle"
          ]
        }
      ]
    },
    {
      "key": "pests-waste",
      "title": "Pests and waste",
      "items": [
        {
          "key": "no-pest-evidence",
          "kind": "pass_fail",
          "label": "No evidence of pests",
          "help": null,
          "required": true,
          "weight": 3
        },
        {
          "key": "pest-contract-date",
          "kind": "date",
          "label": "Date of the last pest-control visit",
          "help": null,
          "required": true,
          "weight": 0
        },
        {
          "key": "bins-lidded",
          "kind": "pass_fail",
          "label": "Bins lidded and emptied regularly",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "doors-screened",
          "kind": "pass_fail",
          "label": "External doors closed or screened",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "pest-photo",
          "kind": "photo",
          "label": "Photo of any pest evidence",
          "help": null,
          "required": false,
          "weight": 0,
          "max_photos": 5
        }
      ]
    },
    {
      "key": "sign-off",
      "title": "Summary and sign-off",
      "items": [
        {
          "key": "overall-rating",
          "kind": "single_choice",
          "label": "Overall rating",
          "help": null,
          "required": true,
          "weight": 2,
          "options": [
            "Excellent",
            "Good",
            "Needs improvement",
            "Unsatisfactory"
          ],
          "failing_options": [
            "Needs improvement",
            "Unsatisfactory"
          ]
        },
        {
          "key": "summary",
          "kind": "text",
          "label": "Summary of findings",
          "help": null,
          "required": true,
          "weight": 0
        },
        {
          "key": "follow-up-needed",
          "kind": "yes_no",
          "label": "Is a follow-up visit needed?",
          "help": null,
          "required": false,
          "weight": 0,
          "fail_on": null
        },
        {
          "key": "manager-signature",
          "kind": "signature",
          "label": "Signature of the manager on duty",
          "help": null,
          "required": true,
          "weight": 0
        }
      ]
    }
  ]
}$json$),
  ('7e000000-0000-4000-8000-000000000002', '0d000000-0000-4000-8000-000000000001', 'Building fire-safety walk',
   'Weekly walk of escape routes, alarms, extinguishers and housekeeping.',
   $json${
  "sections": [
    {
      "key": "escape-routes",
      "title": "Escape routes",
      "items": [
        {
          "key": "routes-clear",
          "kind": "pass_fail",
          "label": "Escape routes clear of obstructions",
          "help": null,
          "required": true,
          "weight": 3
        },
        {
          "key": "doors-open-easily",
          "kind": "pass_fail",
          "label": "Fire exit doors open easily from inside",
          "help": null,
          "required": true,
          "weight": 3
        },
        {
          "key": "exit-signs-lit",
          "kind": "pass_fail",
          "label": "Exit signs present and lit",
          "help": null,
          "required": true,
          "weight": 2
        },
        {
          "key": "emergency-lighting",
          "kind": "pass_fail",
          "label": "Emergency lighting working in the monthly test",
          "help": null,
          "required": true,
          "weight": 2
        },
        {
          "key": "exits-checked",
          "kind": "number",
          "label": "Number of fire exits checked",
          "help": null,
          "required": true,
          "weight": 1,
          "min": 1,
          "max": null,
          "unit": "exits"
        },
        {
          "key": "assembly-point",
          "kind": "pass_fail",
          "label": "Assembly point signed and clear",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "obstruction-photo",
          "kind": "photo",
          "label": "Photo of any obstruction",
          "help": null,
          "required": false,
          "weight": 0,
          "max_photos": 5
        }
      ]
    },
    {
      "key": "detection",
      "title": "Detection and alarm",
      "items": [
        {
          "key": "alarm-tested",
          "kind": "yes_no",
          "label": "Was the alarm tested this week?",
          "help": null,
          "required": true,
          "weight": 2,
          "fail_on": "no"
        },
        {
          "key": "alarm-test-date",
          "kind": "date",
          "label": "Date of the last alarm test",
          "help": null,
          "required": true,
          "weight": 0,
          "show_when": {
            "match": "all",
            "conditions": [
              {
                "item": "alarm-tested",
                "op": "equals",
                "value": "no"
              }
            ]
          }
        },
        {
          "key": "call-points",
          "kind": "pass_fail",
          "label": "Manual call points unobstructed",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "detectors-clean",
          "kind": "pass_fail",
          "label": "Smoke detectors clean and uncovered",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "panel-status",
          "kind": "single_choice",
          "label": "Alarm panel status",
          "help": null,
          "required": true,
          "weight": 2,
          "options": [
            "Normal",
            "Fault",
            "Disabled zone"
          ],
          "failing_options": [
            "Fault",
            "Disabled zone"
          ]
        }
      ]
    },
    {
      "key": "extinguishers",
      "title": "Fire extinguishers",
      "items": [
        {
          "key": "extinguishers-in-place",
          "kind": "pass_fail",
          "label": "Extinguishers on their brackets and signed",
          "help": null,
          "required": true,
          "weight": 2
        },
        {
          "key": "extinguishers-serviced",
          "kind": "pass_fail",
          "label": "Extinguishers serviced within the last year",
          "help": null,
          "required": true,
          "weight": 2
        },
        {
          "key": "extinguisher-pressure",
          "kind": "number",
          "label": "Pressure gauge reading of the kitchen extinguisher",
          "help": null,
          "required": true,
          "weight": 1,
          "min": 12,
          "max": 15,
          "unit": "bar"
        },
        {
          "key": "extinguisher-types",
          "kind": "multi_choice",
          "label": "Extinguisher types present",
          "help": null,
          "required": true,
          "weight": 0,
          "options": [
            "Water",
            "Foam",
            "CO2",
            "Powder",
            "Wet chemical"
          ],
          "failing_options": []
        },
        {
          "key": "fire-blanket",
          "kind": "pass_fail",
          "label": "Fire blanket in the kitchen",
          "help": null,
          "required": true,
          "weight": 1
        }
      ]
    },
    {
      "key": "housekeeping",
      "title": "Housekeeping and storage",
      "items": [
        {
          "key": "combustibles",
          "kind": "pass_fail",
          "label": "Combustible waste removed daily",
          "help": null,
          "required": true,
          "weight": 1
        },
        {
          "key": "electrical",
          "kind": "pass_fail",
          "label": "No overloaded sockets or damaged cables",
          "help": null,
          "required": true,
          "weight": 2
        },
        {
          "key": "fire-doors-closed",
          "kind": "pass_fail",
          "label": "Fire doors closed, not wedged open",
          "help": null,
          "required": true,
          "weight": 3
        },
        {
          "key": "sprinkler-clearance",
          "kind": "yes_no",
          "label": "Is stock kept 50 cm below sprinkler heads?",
          "help": null,
          "required": true,
          "weight": 1,
          "fail_on": "no"
        }
      ]
    },
    {
      "key": "sign-off",
      "title": "Sign-off",
      "items": [
        {
          "key": "responsible-person",
          "kind": "text",
          "label": "Responsible person on site",
          "help": null,
          "required": true,
          "weight": 0
        },
        {
          "key": "next-drill",
          "kind": "date",
          "label": "Date of the next fire drill",
          "help": null,
          "required": false,
          "weight": 0
        },
        {
          "key": "notes",
          "kind": "text",
          "label": "Other observations",
          "help": null,
          "required": false,
          "weight": 0
        },
        {
          "key": "inspector-signature",
          "kind": "signature",
          "label": "Inspector's signature",
          "help": null,
          "required": true,
          "weight": 0
        }
      ]
    }
  ]
}$json$);

insert into public.template_versions (template_id)
values ('7e000000-0000-4000-8000-000000000001'), ('7e000000-0000-4000-8000-000000000002');

-- One inspection in every state, plus overdue ones; the unassigned one in progress is open to
-- both demo inspectors at once.
insert into public.inspections (id, org_id, site_id, template_id, title, assignee_id, due_at)
select i.id, '0d000000-0000-4000-8000-000000000001', s.id, i.template_id, i.title, i.assignee_id, now() + i.due_in
from (values
  ('1e000000-0000-4000-8000-000000000001'::uuid, 'HF-001', '7e000000-0000-4000-8000-000000000001'::uuid,
   'Monthly food-safety audit — Pike Place', 'd0000000-0000-4000-8000-000000000004'::uuid, interval '3 days'),
  ('1e000000-0000-4000-8000-000000000002', 'HF-002', '7e000000-0000-4000-8000-000000000001',
   'Monthly food-safety audit — Ballard', 'd0000000-0000-4000-8000-000000000004', interval '-2 days'),
  ('1e000000-0000-4000-8000-000000000003', 'HF-003', '7e000000-0000-4000-8000-000000000001',
   'Monthly food-safety audit — Capitol Hill', null, interval '1 day'),
  ('1e000000-0000-4000-8000-000000000004', 'HF-CK1', '7e000000-0000-4000-8000-000000000002',
   'Fire-safety walk — Central Kitchen', 'd0000000-0000-4000-8000-000000000004', interval '-1 day'),
  ('1e000000-0000-4000-8000-000000000005', 'HF-WH1', '7e000000-0000-4000-8000-000000000002',
   'Fire-safety walk — Kent warehouse', 'd0000000-0000-4000-8000-000000000006', interval '2 days'),
  ('1e000000-0000-4000-8000-000000000006', 'HF-004', '7e000000-0000-4000-8000-000000000001',
   'Monthly food-safety audit — Fremont', 'd0000000-0000-4000-8000-000000000006', interval '-5 days'),
  ('1e000000-0000-4000-8000-000000000007', 'HF-WH2', '7e000000-0000-4000-8000-000000000002',
   'Fire-safety walk — Everett', null, interval '7 days')
) as i (id, site_ref, template_id, title, assignee_id, due_in)
join public.sites s on s.org_id = '0d000000-0000-4000-8000-000000000001' and s.external_ref = i.site_ref;

-- A passing answer for every item but photos, by whoever the seed acts as; the items in `failing` fail.
-- One statement per inspection: the answers' statement triggers (audit, totals, realtime) run once.
create function pg_temp.answer_all(inspection uuid, failing text[]) returns void language sql as $$
  insert into public.answers (inspection_id, item_key, value)
  select inspection, item ->> 'key', case item ->> 'kind'
      when 'pass_fail' then to_jsonb(case when item ->> 'key' = any (failing) then 'fail' else 'pass' end)
      when 'yes_no' then to_jsonb(case when item ->> 'fail_on' = 'yes' then 'no' else 'yes' end)
      when 'number' then to_jsonb(case
        when item ->> 'key' = any (failing) then coalesce((item ->> 'max')::numeric + 3, (item ->> 'min')::numeric - 3)
        else coalesce(((item ->> 'min')::numeric + (item ->> 'max')::numeric) / 2, (item ->> 'min')::numeric + 1,
                      (item ->> 'max')::numeric - 1, 4) end)
      when 'text' then to_jsonb('Checked with the manager on duty; nothing further to report.'::text)
      when 'single_choice' then (item -> 'options') -> 0
      when 'multi_choice' then jsonb_build_array((item -> 'options') -> 0)
      when 'date' then to_jsonb(current_date::text)
      when 'signature' then jsonb_build_object('signer', 'Sam Carter', 'image',
        'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=')
    end
  from public.inspections n
  join public.template_versions v on v.id = n.template_version_id,
  jsonb_array_elements(v.definition -> 'sections') s, jsonb_array_elements(s -> 'items') item
  where n.id = inspection and item ->> 'kind' <> 'photo';
$$;

-- In progress: Ballard (overdue, a few answers, one failing) and Capitol Hill (unassigned).
select pg_temp.act_as('d0000000-0000-4000-8000-000000000004');
update public.inspections set status = 'in_progress', start_latitude = 47.66702, start_longitude = -122.38395, start_accuracy_m = 12
where id = '1e000000-0000-4000-8000-000000000002';
insert into public.answers (inspection_id, item_key, value, note) values
  ('1e000000-0000-4000-8000-000000000002', 'visit-date', to_jsonb(current_date::text), null),
  ('1e000000-0000-4000-8000-000000000002', 'manager-on-duty', '"Dana Ruiz"', null),
  ('1e000000-0000-4000-8000-000000000002', 'haccp-plan', '"yes"', null),
  ('1e000000-0000-4000-8000-000000000002', 'walk-in-fridge-temp', '7.5', 'Door seal torn; engineer called.'),
  ('1e000000-0000-4000-8000-000000000002', 'raw-below-ready', '"pass"', null);
update public.inspections set status = 'in_progress', start_latitude = 47.6146, start_longitude = -122.3209, start_accuracy_m = 20
where id = '1e000000-0000-4000-8000-000000000003';
insert into public.answers (inspection_id, item_key, value) values
  ('1e000000-0000-4000-8000-000000000003', 'visit-date', to_jsonb(current_date::text)),
  ('1e000000-0000-4000-8000-000000000003', 'haccp-plan', '"yes"');

-- Submitted: the Central Kitchen walk, started 600 m away (outside its geofence, flagged).
update public.inspections set status = 'in_progress', start_latitude = 47.5534, start_longitude = -122.3215, start_accuracy_m = 30
where id = '1e000000-0000-4000-8000-000000000004';
select pg_temp.answer_all('1e000000-0000-4000-8000-000000000004', '{doors-open-easily,extinguisher-pressure}');
update public.inspections set status = 'submitted' where id = '1e000000-0000-4000-8000-000000000004';

-- Kent warehouse (to be approved) and Fremont (to be sent back), both by Iris.
select pg_temp.act_as('d0000000-0000-4000-8000-000000000006');
update public.inspections set status = 'in_progress', start_latitude = 47.41435, start_longitude = -122.24195, start_accuracy_m = 8
where id = '1e000000-0000-4000-8000-000000000005';
select pg_temp.answer_all('1e000000-0000-4000-8000-000000000005', '{}');
update public.inspections set status = 'submitted' where id = '1e000000-0000-4000-8000-000000000005';
update public.inspections set status = 'in_progress', start_latitude = 47.65105, start_longitude = -122.35045, start_accuracy_m = 10
where id = '1e000000-0000-4000-8000-000000000006';
select pg_temp.answer_all('1e000000-0000-4000-8000-000000000006', '{reach-in-fridge-temp,no-expired-stock}');
update public.inspections set status = 'submitted' where id = '1e000000-0000-4000-8000-000000000006';

-- Maya reviews: Kent approved, Fremont sent back; Everett canceled (site closed this week).
select pg_temp.act_as('d0000000-0000-4000-8000-000000000003');
update public.inspections set status = 'approved', review_note = 'All clear. Thanks, Iris.'
where id = '1e000000-0000-4000-8000-000000000005';
update public.inspections set status = 'changes_requested',
  review_note = 'Please add a photo of the reach-in fridge thermometer and note what was thrown away.'
where id = '1e000000-0000-4000-8000-000000000006';
update public.inspections set status = 'canceled' where id = '1e000000-0000-4000-8000-000000000007';

-- Corrective actions. Submitting the Central Kitchen walk and the Fremont audit opened one per
-- failed item (four, for Ivan and Iris). Maya opens more by hand — one on the failing fridge of
-- the Ballard audit still in progress, overdue, and others at sites — so Ivan's list has an
-- action in every state, and some overdue.
select pg_temp.act_as('d0000000-0000-4000-8000-000000000003');
insert into public.actions (id, org_id, site_id, inspection_id, item_key, title, description, priority, assignee_id, due_at)
select a.id, '0d000000-0000-4000-8000-000000000001', s.id, a.inspection_id, a.item_key, a.title, a.description,
       a.priority::public.action_priority, 'd0000000-0000-4000-8000-000000000004', now() + a.due_in
from (values
  ('ac000000-0000-4000-8000-000000000001'::uuid, 'HF-002', '1e000000-0000-4000-8000-000000000002'::uuid, 'walk-in-fridge-temp',
   'Replace the torn door seal on the walk-in fridge', 'The fridge read 7.5 °C; the engineer found the door seal torn.',
   'high', interval '-2 days'),
  ('ac000000-0000-4000-8000-000000000002', 'HF-CK1', null, null,
   'Fire exit door sticks: fix the lock', 'The rear fire exit needs a shoulder push to open.', 'critical', interval '-6 hours'),
  ('ac000000-0000-4000-8000-000000000003', 'HF-001', null, null,
   'Re-grout the cracked floor tiles by the dish pit', null, 'medium', interval '5 days'),
  ('ac000000-0000-4000-8000-000000000004', 'HF-008', null, null,
   'Pest bait stations missing from the delivery door', 'Reported by the morning crew.', 'low', interval '20 days')
) as a (id, site_ref, inspection_id, item_key, title, description, priority, due_in)
join public.sites s on s.org_id = '0d000000-0000-4000-8000-000000000001' and s.external_ref = a.site_ref;

-- Ivan works on his: the floor in progress; both Central Kitchen items resolved with a note.
select pg_temp.act_as('d0000000-0000-4000-8000-000000000004');
update public.actions set status = 'in_progress' where id = 'ac000000-0000-4000-8000-000000000003';
update public.actions set status = 'in_progress'
where inspection_id = '1e000000-0000-4000-8000-000000000004';
update public.actions set status = 'resolved', transition_note = 'Planed the door and adjusted the closer; it opens with one hand.'
where inspection_id = '1e000000-0000-4000-8000-000000000004' and item_key = 'doors-open-easily';
update public.actions set status = 'resolved', transition_note = 'Extinguisher serviced and recharged; tag updated.'
where inspection_id = '1e000000-0000-4000-8000-000000000004' and item_key = 'extinguisher-pressure';

-- Maya verifies the extinguisher, cancels the bait stations (they were moved, not missing), and
-- leaves the door for the demo to verify.
select pg_temp.act_as('d0000000-0000-4000-8000-000000000003');
update public.actions set status = 'verified'
where inspection_id = '1e000000-0000-4000-8000-000000000004' and item_key = 'extinguisher-pressure';
update public.actions set status = 'canceled', transition_note = 'False alarm: the stations were moved inside during the refit.'
where id = 'ac000000-0000-4000-8000-000000000004';

-- Iris resolves the Fremont fridge; Maya reopens it, not convinced.
select pg_temp.act_as('d0000000-0000-4000-8000-000000000006');
update public.actions set status = 'in_progress' where inspection_id = '1e000000-0000-4000-8000-000000000006' and item_key = 'reach-in-fridge-temp';
update public.actions set status = 'resolved', transition_note = 'Turned the thermostat down one notch.'
where inspection_id = '1e000000-0000-4000-8000-000000000006' and item_key = 'reach-in-fridge-temp';
select pg_temp.act_as('d0000000-0000-4000-8000-000000000003');
update public.actions set status = 'open', transition_note = 'The log still shows 7 °C in the afternoons; please have the compressor checked.'
where inspection_id = '1e000000-0000-4000-8000-000000000006' and item_key = 'reach-in-fridge-temp';

-- Two schedules (docs/schedules.md) that have run for the last four weeks, so the calendar and
-- compliance have a history: a food-safety audit every Monday at 08:00, due Friday 17:00, at two
-- Seattle restaurants and the Auckland kitchen, Ivan and Iris taking turns; and a fire-safety walk
-- every Tuesday and Thursday at 07:00, due by 17:00 the same day, at the central kitchen and in
-- Auckland, for either inspector to take. Maya makes them; each makes its open occurrences and the
-- next 14 days' at once, as in the app.
select pg_temp.act_as('d0000000-0000-4000-8000-000000000003');
insert into public.schedules (id, org_id, name, template_id, rrule, start_date, time_of_day, due_after, rotation_user_ids, title_pattern)
values
  ('5c000000-0000-4000-8000-000000000001', '0d000000-0000-4000-8000-000000000001', 'Weekly food-safety audit',
   '7e000000-0000-4000-8000-000000000001', 'FREQ=WEEKLY;BYDAY=MO', date_trunc('week', now() at time zone 'America/Los_Angeles')::date - 28,
   '08:00', 'P4DT9H', array['d0000000-0000-4000-8000-000000000004', 'd0000000-0000-4000-8000-000000000006']::uuid[],
   'Weekly food-safety audit — {site} — {date}'),
  ('5c000000-0000-4000-8000-000000000002', '0d000000-0000-4000-8000-000000000001', 'Fire-safety walk',
   '7e000000-0000-4000-8000-000000000002', 'FREQ=WEEKLY;BYDAY=TU,TH', (now() at time zone 'America/Los_Angeles')::date - 28,
   '07:00', 'PT10H', '{}', 'Fire-safety walk — {site} — {date}');
insert into public.schedule_sites (schedule_id, site_id)
select x.schedule_id, s.id
from (values
  ('5c000000-0000-4000-8000-000000000001'::uuid, 'HF-001'), ('5c000000-0000-4000-8000-000000000001', 'HF-003'),
  ('5c000000-0000-4000-8000-000000000001', 'HF-AKL'),
  ('5c000000-0000-4000-8000-000000000002', 'HF-CK1'), ('5c000000-0000-4000-8000-000000000002', 'HF-AKL')
) as x (schedule_id, site_ref)
join public.sites s on s.org_id = '0d000000-0000-4000-8000-000000000001' and s.external_ref = x.site_ref;

-- The past four weeks' occurrences, as the background run made them then (by nobody: "Fieldcheck").
select set_config('request.jwt.claims', '', false);
select private.materialise_schedule(s.id, now() - interval '14 days', (s.start_date - 2)::timestamptz, false)
from public.schedules s
where s.org_id = '0d000000-0000-4000-8000-000000000001';

-- What became of them: of those due more than six hours ago, in due order, every fifth from the
-- first was missed, every fifth from the second was done late, the rest on time (the last six
-- hours' are missed or still open). Done by their assignee, or for anyone: Iris in Auckland, Ivan
-- at the central kitchen.
create temp table demo_occurrences as
select i.id, i.occurrence_at, i.due_at, k,
       case when k % 5 = 1 then 'missed' when k % 5 = 2 then 'late' else 'on_time' end as outcome,
       coalesce(i.assignee_id, case when s.external_ref = 'HF-AKL' then 'd0000000-0000-4000-8000-000000000006'::uuid
                                    else 'd0000000-0000-4000-8000-000000000004'::uuid end) as done_by
from (
  select i.*, row_number() over (order by i.due_at, i.site_id) as k
  from public.inspections i
  where i.org_id = '0d000000-0000-4000-8000-000000000001' and i.schedule_id is not null and i.due_at < now() - interval '6 hours'
) i
join public.sites s on s.id = i.site_id;

create function pg_temp.fill_in(inspection uuid, person uuid) returns void language plpgsql as $$
begin
  perform pg_temp.act_as(person);
  update public.inspections set status = 'in_progress' where id = inspection;
  perform pg_temp.answer_all(inspection, '{}');
  update public.inspections set status = 'submitted' where id = inspection;
end;
$$;

select pg_temp.fill_in(o.id, o.done_by) from demo_occurrences o where o.outcome <> 'missed' order by o.due_at, o.id;

-- Maya approved every third one done on time.
select pg_temp.act_as('d0000000-0000-4000-8000-000000000003');
update public.inspections i set status = 'approved', review_note = 'Thanks, all in order.'
from demo_occurrences o where o.id = i.id and o.outcome = 'on_time' and o.k % 3 = 0;
select set_config('request.jwt.claims', '', false);

-- The seed runs now, so the database stamped all of it now; this dates each one when it happened:
-- made 14 days before it opened, started and submitted within two hours of opening (on time) or
-- up to 20 hours after it was due (late), reviewed the next morning. Without the triggers, which
-- would take a dated column for a change to guard, audit or announce (the audit log keeps the
-- seed's own time: it is append-only). Replica mode is what migration 20261128200300 uses too.
set session_replication_role = replica;
update public.schedules s set created_at = s.start_date - 7, updated_at = s.start_date - 7
where s.org_id = '0d000000-0000-4000-8000-000000000001';
update public.inspections i set created_at = i.occurrence_at - interval '14 days', updated_at = i.occurrence_at - interval '14 days'
from demo_occurrences o where o.id = i.id;
update public.inspections i set
  started_at = d.submitted_at - interval '45 minutes',
  submitted_at = d.submitted_at,
  first_submitted_at = d.submitted_at,
  reviewed_at = case when i.reviewed_at is not null then least(d.submitted_at + interval '18 hours', now() - interval '5 minutes') end,
  updated_at = coalesce(case when i.reviewed_at is not null then least(d.submitted_at + interval '18 hours', now() - interval '5 minutes') end, d.submitted_at)
from (
  select o.id, case o.outcome
           when 'on_time' then o.occurrence_at + interval '90 minutes' + (o.k % 4) * interval '10 minutes'
           else least(o.due_at + interval '20 hours', now() - interval '1 hour')
         end as submitted_at
  from demo_occurrences o where o.outcome <> 'missed'
) d
where d.id = i.id;
update public.answers a set answered_at = i.started_at + interval '20 minutes', created_at = i.started_at + interval '20 minutes',
                            updated_at = i.started_at + interval '20 minutes'
from public.inspections i join demo_occurrences o on o.id = i.id
where a.inspection_id = i.id and o.outcome <> 'missed';
set session_replication_role = origin;
drop table demo_occurrences;

select set_config('request.jwt.claims', '', false);

-- The analytics rollups (docs/analytics.md) follow every write through triggers, but the dates above
-- were rewritten without them: recompute the rollups from what the seed left.
select private.rebuild_analytics();
