-- Demo data for local development (`npm run db:reset`, `supabase db reset`). Never runs on a
-- hosted project. Logins are listed in README.md.

-- The demo owner. Token columns are '' rather than null because GoTrue scans them as strings.
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        confirmation_token, recovery_token, email_change_token_new, email_change,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('00000000-0000-0000-0000-000000000000', 'd0000000-0000-4000-8000-000000000001', 'authenticated',
        'authenticated', 'owner@demo.fieldcheck.test',
        extensions.crypt('fieldcheck-demo-1', extensions.gen_salt('bf', 10)), now(), '', '', '', '',
        '{"provider":"email","providers":["email"]}', '{"display_name":"Olivia Owner"}', now(), now());

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select id::text, id, jsonb_build_object('sub', id::text, 'email', email, 'email_verified', true), 'email', now(), now(), now()
from auth.users
where email = 'owner@demo.fieldcheck.test';
