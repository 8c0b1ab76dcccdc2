-- Answer values checked in SQL (private.answer_value_problem), kind by kind: accepted and refused
-- examples with the message users see, the same rules as answerValueSchemaFor in
-- _shared/schemas/templates.ts; then failed and weight (private.answer_failed).
begin;
select plan(74);

create temp table items (kind text primary key, item jsonb not null) on commit drop;
insert into items values
  ('pass_fail', '{"key":"pf","kind":"pass_fail","label":"Floor clean","help":null,"required":true,"weight":2}'),
  ('yes_no', '{"key":"yn","kind":"yes_no","label":"Locked","help":null,"required":true,"weight":1,"fail_on":"no"}'),
  ('yes_no_unscored', '{"key":"yn2","kind":"yes_no","label":"Seen","help":null,"required":false,"weight":1,"fail_on":null}'),
  ('number', '{"key":"n","kind":"number","label":"Temperature","help":null,"required":true,"weight":3,"min":0,"max":5,"unit":"°C"}'),
  ('number_min', '{"key":"n2","kind":"number","label":"Pressure","help":null,"required":false,"weight":4,"min":1.5,"max":null,"unit":null}'),
  ('number_unscored', '{"key":"n3","kind":"number","label":"Count","help":null,"required":false,"weight":4,"min":null,"max":null,"unit":null}'),
  ('text', '{"key":"t","kind":"text","label":"Remarks","help":null,"required":false,"weight":0}'),
  ('single_choice', '{"key":"sc","kind":"single_choice","label":"Cleanliness","help":null,"required":true,"weight":2,"options":["Good","Fair","Poor"],"failing_options":["Poor"]}'),
  ('single_unscored', '{"key":"sc2","kind":"single_choice","label":"Shift","help":null,"required":false,"weight":2,"options":["Day","Night"],"failing_options":[]}'),
  ('multi_choice', '{"key":"mc","kind":"multi_choice","label":"Hazards","help":null,"required":false,"weight":1,"options":["Wet floor","Blocked exit","None"],"failing_options":["Wet floor","Blocked exit"]}'),
  ('date', '{"key":"d","kind":"date","label":"Last service","help":null,"required":false,"weight":0}'),
  ('photo', '{"key":"p","kind":"photo","label":"Kitchen","help":null,"required":true,"weight":0,"max_photos":2}'),
  ('signature', '{"key":"s","kind":"signature","label":"Signature","help":null,"required":false,"weight":0}');
grant select on items to authenticated;

create function pg_temp.problem(kind text, value jsonb) returns text language sql as $$
  select private.answer_value_problem((select i.item from items i where i.kind = problem.kind), value);
$$;
create function pg_temp.failed(kind text, value jsonb) returns boolean language sql as $$
  select private.answer_failed((select i.item from items i where i.kind = failed.kind), value);
$$;

-- Null clears an answer of every kind, JSON null as well as SQL null.
select is((select count(*)::int from items where private.answer_value_problem(item, null) is null), 13, 'SQL null fits every kind');
select is((select count(*)::int from items where private.answer_value_problem(item, 'null') is null), 13, 'JSON null fits every kind');

-- pass_fail
select is(pg_temp.problem('pass_fail', '"pass"'), null, 'pass_fail accepts "pass"');
select is(pg_temp.problem('pass_fail', '"fail"'), null, 'pass_fail accepts "fail"');
select is(pg_temp.problem('pass_fail', '"na"'), null, 'pass_fail accepts "na"');
select is(pg_temp.problem('pass_fail', '"Pass"'), 'Choose pass, fail or n/a.', 'pass_fail refuses another spelling');
select is(pg_temp.problem('pass_fail', 'true'), 'Choose pass, fail or n/a.', 'pass_fail refuses a boolean');

-- yes_no
select is(pg_temp.problem('yes_no', '"yes"'), null, 'yes_no accepts "yes"');
select is(pg_temp.problem('yes_no', '"no"'), null, 'yes_no accepts "no"');
select is(pg_temp.problem('yes_no', '"maybe"'), 'Choose yes or no.', 'yes_no refuses "maybe"');
select is(pg_temp.problem('yes_no', 'false'), 'Choose yes or no.', 'yes_no refuses a boolean');

-- number
select is(pg_temp.problem('number', '3.5'), null, 'number accepts a decimal');
select is(pg_temp.problem('number', '-40'), null, 'number accepts a value outside the range (it fails, it is not invalid)');
select is(pg_temp.problem('number', '1e300'), null, 'number accepts a large finite number');
select is(pg_temp.problem('number', '"3.5"'), 'Enter a number.', 'number refuses a numeric string');
select is(pg_temp.problem('number', '"NaN"'), 'Enter a number.', 'number refuses "NaN"');
select is(pg_temp.problem('number', '[1]'), 'Enter a number.', 'number refuses an array');

-- text
select is(pg_temp.problem('text', '"All fine."'), null, 'text accepts a sentence');
select is(pg_temp.problem('text', to_jsonb(repeat('x', 4000))), null, 'text accepts 4000 characters');
select is(pg_temp.problem('text', to_jsonb(repeat('x', 4001))), 'Use at most 4000 characters.', 'text refuses 4001 characters');
select is(pg_temp.problem('text', '"   "'), 'Enter some text, or clear the answer.', 'text refuses blanks');
select is(pg_temp.problem('text', '""'), 'Enter some text, or clear the answer.', 'text refuses an empty string');
select is(pg_temp.problem('text', '42'), 'Enter some text.', 'text refuses a number');

-- single_choice
select is(pg_temp.problem('single_choice', '"Fair"'), null, 'single_choice accepts an option');
select is(pg_temp.problem('single_choice', '"fair"'), 'Choose one of the options.', 'single_choice refuses another case of an option');
select is(pg_temp.problem('single_choice', '["Fair"]'), 'Choose one of the options.', 'single_choice refuses a list');
select is(pg_temp.problem('single_choice', '"Excellent"'), 'Choose one of the options.', 'single_choice refuses a value that is not an option');

-- multi_choice
select is(pg_temp.problem('multi_choice', '["None"]'), null, 'multi_choice accepts one option');
select is(pg_temp.problem('multi_choice', '["Wet floor","Blocked exit"]'), null, 'multi_choice accepts several options');
select is(pg_temp.problem('multi_choice', '[]'), 'Choose at least one option, or clear the answer.', 'multi_choice refuses an empty list');
select is(pg_temp.problem('multi_choice', '"None"'), 'Choose at least one option.', 'multi_choice refuses a bare string');
select is(pg_temp.problem('multi_choice', '["None","Fire"]'), 'Choose from the options.', 'multi_choice refuses a value that is not an option');
select is(pg_temp.problem('multi_choice', '["None",1]'), 'Choose from the options.', 'multi_choice refuses a non-string element');
select is(pg_temp.problem('multi_choice', '["None","None"]'), 'Choose each option once.', 'multi_choice refuses a repeated option');

-- date
select is(pg_temp.problem('date', '"2026-01-31"'), null, 'date accepts a real day');
select is(pg_temp.problem('date', '"2024-02-29"'), null, 'date accepts 29 February of a leap year');
select is(pg_temp.problem('date', '"2025-02-29"'), 'Enter a date that exists, as YYYY-MM-DD.', 'date refuses 29 February of a common year');
select is(pg_temp.problem('date', '"2026-04-31"'), 'Enter a date that exists, as YYYY-MM-DD.', 'date refuses 31 April');
select is(pg_temp.problem('date', '"2026-13-01"'), 'Enter a date that exists, as YYYY-MM-DD.', 'date refuses month 13');
select is(pg_temp.problem('date', '"0000-01-01"'), 'Enter a date that exists, as YYYY-MM-DD.', 'date refuses year 0');
select is(pg_temp.problem('date', '"31/01/2026"'), 'Enter a date that exists, as YYYY-MM-DD.', 'date refuses another format');
select is(pg_temp.problem('date', '"2026-01-31T10:00:00Z"'), 'Enter a date that exists, as YYYY-MM-DD.', 'date refuses a timestamp');
select is(pg_temp.problem('date', '20260131'), 'Enter a date as YYYY-MM-DD.', 'date refuses a number');

-- photo: photos are attachments, the value stays empty
select is(pg_temp.problem('photo', '"photo.jpg"'), 'Add photos as attachments; a photo item has no value.', 'photo refuses a value');

-- signature
select is(pg_temp.problem('signature', '{"signer":"Mia Manager","image":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="}'), null,
  'signature accepts a signer and a PNG data URL');
select is(pg_temp.problem('signature', jsonb_build_object('signer', 'M', 'image', tests.png_data_url(600, 200, 200000 - 22))), null,
  'signature accepts an image of 200000 characters');
select is(pg_temp.problem('signature', jsonb_build_object('signer', 'M', 'image', tests.png_data_url(600, 200, 200000 - 21))),
  'The signature image is too large; clear it and sign again.', 'signature refuses an image of 200001 characters');
select is(pg_temp.problem('signature', '{"signer":"  ","image":"data:image/png;base64,iVBO"}'), 'Enter the signer''s name.', 'signature refuses a blank signer');
select is(pg_temp.problem('signature', jsonb_build_object('signer', repeat('x', 121), 'image', 'data:image/png;base64,iVBO')),
  'Use at most 120 characters.', 'signature refuses a signer of 121 characters');
select is(pg_temp.problem('signature', '{"signer":"Mia","image":"data:image/jpeg;base64,/9j/"}'), 'Send the signature as a PNG data URL.',
  'signature refuses a JPEG data URL');
select is(pg_temp.problem('signature', '{"signer":"Mia","image":"data:image/png;base64,<script>"}'), 'Send the signature as a PNG data URL.',
  'signature refuses an image that is not base64');
select is(pg_temp.problem('signature', '{"signer":"Mia"}'), 'Sign and enter the signer''s name.', 'signature refuses a missing image');
select is(pg_temp.problem('signature', '{"signer":"Mia","image":"data:image/png;base64,iVBO","extra":1}'), 'Sign and enter the signer''s name.',
  'signature refuses extra keys');
select is(pg_temp.problem('signature', '"Mia"'), 'Sign and enter the signer''s name.', 'signature refuses a bare string');

-- An item of an unknown kind cannot be answered at all.
select is(private.answer_value_problem('{"key":"x","kind":"rating"}', '3'), 'This item cannot be answered.', 'an unknown kind refuses every value');

-- failed: null unless scored and answered.
select is(pg_temp.failed('pass_fail', '"fail"'), true, 'pass_fail "fail" fails');
select is(pg_temp.failed('pass_fail', '"pass"'), false, 'pass_fail "pass" passes');
select is(pg_temp.failed('pass_fail', '"na"'), null, 'pass_fail "na" is not scored');
select is(pg_temp.failed('pass_fail', null), null, 'an empty answer is not scored');
select is(pg_temp.failed('yes_no', '"no"'), true, 'yes_no with fail_on no fails on "no"');
select is(pg_temp.failed('yes_no', '"yes"'), false, 'yes_no with fail_on no passes on "yes"');
select is(pg_temp.failed('yes_no_unscored', '"no"'), null, 'yes_no without fail_on is not scored');
select is(pg_temp.failed('number', '-1'), true, 'a number below min fails');
select is(pg_temp.failed('number', '5.5'), true, 'a number above max fails');
select is(pg_temp.failed('number', '5'), false, 'a number on the bound passes');
select is(pg_temp.failed('number_min', '1'), true, 'a number below a lone min fails');
select is(pg_temp.failed('number_min', '1000'), false, 'a lone min has no upper bound');
select is(pg_temp.failed('number_unscored', '-1000'), null, 'a number without min and max is not scored');
select is(pg_temp.failed('single_choice', '"Poor"'), true, 'a failing option fails');
select is(pg_temp.failed('single_choice', '"Good"'), false, 'another option passes');
select is(pg_temp.failed('single_unscored', '"Night"'), null, 'a choice without failing options is not scored');
select is(pg_temp.failed('multi_choice', '["None","Wet floor"]'), true, 'multi_choice fails when any chosen option fails');
select is(pg_temp.failed('multi_choice', '["None"]'), false, 'multi_choice passes when none of the chosen options fails');
select is(pg_temp.failed('text', '"Broken"'), null, 'text is not scored');

select * from finish();
rollback;
