-- A signature's image is checked by the size its PNG declares (issue 24, migration 20261128180100):
-- private.png_data_url_size reads width and height from the header without decoding the image,
-- private.answer_value_problem refuses more than 2 megapixels with the wording of
-- signatureImageSizeProblem (_shared/schemas/templates.ts), and an inspector writing straight to
-- public.answers (the Data API's path, around the api function) is held to the same rule.
begin;
select plan(22);

-- The header reader.
select is(private.png_data_url_size(tests.png_data_url(600, 200)), '{600,200}', 'reads width and height from the IHDR of a data URL');
select is(private.png_data_url_size(tests.png_data_url(4294967295, 4294967295)), '{4294967295,4294967295}',
  'reads the largest sides a header can declare, unsigned');
select is(private.png_data_url_size(
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='), '{1,1}',
  'reads a real 1 × 1 PNG');
select is(private.png_data_url_size('data:image/png;base64,iVBORw0KGgo='), null, 'a PNG signature without its IHDR has no size');
select is(private.png_data_url_size('data:image/png;base64,' || repeat('A', 200000 - 22)), null, 'data that is not a PNG has no size');
select is(private.png_data_url_size(tests.png_data_url(0, 200)), null, 'a zero width is no PNG');
select is(private.png_data_url_size(replace(tests.png_data_url(600, 200), 'data:image/png', 'data:image/gif')), null,
  'another media type has no size');
-- Colour type 5 (no such type): the low bits of the colour type byte are the 35th base64 character.
select is(private.png_data_url_size(overlay(tests.png_data_url(600, 200) placing 'U' from 22 + 35 for 1)), null,
  'an impossible colour type is no PNG');
select is(private.png_data_url_size(null), null, 'null has no size');

-- The rule, with the message users see.
create function pg_temp.problem(image text) returns text language sql as $$
  select private.answer_value_problem('{"key":"s","kind":"signature","label":"Signature","help":null,"required":false,"weight":0}',
                                      jsonb_build_object('signer', 'Mia', 'image', image));
$$;
select is(pg_temp.problem(tests.png_data_url(600, 200)), null, 'the web pad''s 600 × 200 signature is accepted');
select is(pg_temp.problem(tests.png_data_url(2000, 1000)), null, 'exactly 2 megapixels are accepted');
select is(pg_temp.problem(tests.png_data_url(2000, 1001)),
  'The signature image is too large (2000 × 1001 pixels; the limit is 2 megapixels); clear it and sign again.',
  'one row more than 2 megapixels is refused, with its size');
select is(pg_temp.problem(tests.png_data_url(7000, 7000, 190000)),
  'The signature image is too large (7000 × 7000 pixels; the limit is 2 megapixels); clear it and sign again.',
  'the 7000 × 7000 PNG of the finding, within the 200 000 characters, is refused');
select is(pg_temp.problem(tests.png_data_url(4294967295, 4294967295)),
  'The signature image is too large (4294967295 × 4294967295 pixels; the limit is 2 megapixels); clear it and sign again.',
  'the largest declarable size is refused without overflowing');
select is(pg_temp.problem(tests.png_data_url(1, 3000000)),
  'The signature image is too large (1 × 3000000 pixels; the limit is 2 megapixels); clear it and sign again.',
  'a thin image is counted by its pixels');
select is(pg_temp.problem('data:image/png;base64,iVBORw0KGgo='), 'Send the signature as a PNG data URL.',
  'a data URL without a PNG header is refused');
select is(pg_temp.problem('data:image/png;base64,' || repeat('A', 1000)), 'Send the signature as a PNG data URL.',
  'base64 that is not a PNG is refused');

-- Straight to the table as an inspector: the trigger asks the same rule.
create temp table actors on commit drop as
  select m.*, t.site, t.template from tests.create_org_matrix('122') m,
    tests.create_published_template(m.org_a,
      '[{"key":"sig","kind":"signature","label":"Manager signature","help":null,"required":false,"weight":0}]') t;
create temp table insp on commit drop as select tests.create_inspection(org_a, site, template, 'in_progress') as id from actors;
grant select on actors, insp to authenticated;
create function pg_temp.sign_sql(image text) returns text language sql as $$
  select format('insert into public.answers (inspection_id, item_key, value) values (%L, ''sig'', %L::jsonb)
                 on conflict (inspection_id, item_key) do update set value = excluded.value',
                (select id from insp), jsonb_build_object('signer', 'Mia', 'image', image));
$$;
select tests.act_as((select inspector from actors));
select is(tests.error_of(pg_temp.sign_sql(tests.png_data_url(7000, 7000, 190000))),
  'validation_failed {"field" : "value", "message" : "The signature image is too large (7000 × 7000 pixels; the limit is 2 megapixels); clear it and sign again."}',
  'an inspector writing a 7000 × 7000 signature to the table is refused on value');
select is((select count(*)::int from public.answers where inspection_id = (select id from insp)), 0, '... and nothing is stored');
select lives_ok(pg_temp.sign_sql(tests.png_data_url(600, 200, 20000)), 'the same inspector stores a 600 × 200 signature');
select is(tests.error_of(pg_temp.sign_sql(tests.png_data_url(3000, 3000))),
  'validation_failed {"field" : "value", "message" : "The signature image is too large (3000 × 3000 pixels; the limit is 2 megapixels); clear it and sign again."}',
  'replacing it with a 9 MP one is refused');
select is((select private.png_data_url_size(value ->> 'image') from public.answers where inspection_id = (select id from insp)), '{600,200}',
  '... and the stored signature is still the 600 × 200 one');

select * from finish();
rollback;
