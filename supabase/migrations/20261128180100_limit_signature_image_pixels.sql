-- Issue 24: a signature's image is checked by the size its PNG declares, not only by the length of
-- its data URL. A 143 KB PNG declaring 7000 × 7000 pixels fitted the 200 000 characters, and the
-- report's PNG decoder took 591 MB to draw it. A signature may now declare at most 2 megapixels
-- (SIGNATURE_MAX_PIXELS in _shared/schemas/templates.ts, with the same wording; the web app's pad
-- makes 600 × 200), read from the PNG's header (IHDR) without decoding the image. Every path that
-- writes an answer runs private.prepare_answer, which asks private.answer_value_problem.
--
-- Answers stored before this keep their images; the report never decodes a signature over the
-- limit (docs/reports.md).

-- Width and height a PNG data URL declares, or null when it does not start with a PNG's header:
-- the signature (89 50 4E 47 0D 0A 1A 0A), then IHDR, first with 13 bytes of data: width, height,
-- bit depth, colour type (0, 2, 3, 4, 6), compression, filter, interlace (0 or 1). The header
-- is the first 33 bytes, the first 44 base64 characters, so only those are decoded. The same rule
-- as pngHeaderOfDataUrl in _shared/schemas/png.ts.
create or replace function private.png_data_url_size(image text)
returns bigint[]
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  head bytea;
  width bigint;
  height bigint;
begin
  -- Whole base64 groups without padding: the data goes on past the header, and decode() cannot fail.
  if image is null or left(image, 22) <> 'data:image/png;base64,' or substr(image, 23, 44) !~ '^[A-Za-z0-9+/]{44}$' then
    return null;
  end if;
  head := decode(substr(image, 23, 44), 'base64');
  if substr(head, 1, 16) <> '\x89504e470d0a1a0a0000000d49484452'::bytea
     or get_byte(head, 25) not in (0, 2, 3, 4, 6) or get_byte(head, 28) > 1 then
    return null;
  end if;
  width := (get_byte(head, 16)::bigint << 24) | (get_byte(head, 17) << 16) | (get_byte(head, 18) << 8) | get_byte(head, 19);
  height := (get_byte(head, 20)::bigint << 24) | (get_byte(head, 21) << 16) | (get_byte(head, 22) << 8) | get_byte(head, 23);
  if width = 0 or height = 0 then
    return null;
  end if;
  return array[width, height];
end;
$$;

comment on function private.png_data_url_size(text) is
  'Width and height (an array of two) that a PNG data URL declares in its header, or null when it has no PNG header.';

revoke all on function private.png_data_url_size(text) from public, anon;
grant execute on function private.png_data_url_size(text) to authenticated, service_role;

-- The rules of 20261121001400, and the signature's declared size.
create or replace function private.answer_value_problem(item jsonb, value jsonb)
returns text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  value_type text := jsonb_typeof(value);
  options jsonb := coalesce(item -> 'options', '[]');
  text_value text;
  date_parts text[];
  signer text;
  image text;
  image_size bigint[];
begin
  if value is null or value_type = 'null' then
    return null;
  end if;
  text_value := case when value_type = 'string' then value #>> '{}' end;

  case item ->> 'kind'
    when 'pass_fail' then
      if text_value is null or text_value not in ('pass', 'fail', 'na') then
        return 'Choose pass, fail or n/a.';
      end if;
    when 'yes_no' then
      if text_value is null or text_value not in ('yes', 'no') then
        return 'Choose yes or no.';
      end if;
    when 'number' then
      if value_type <> 'number' then
        return 'Enter a number.';
      end if;
    when 'text' then
      if text_value is null then
        return 'Enter some text.';
      elsif char_length(text_value) > 4000 then
        return 'Use at most 4000 characters.';
      elsif text_value !~ '\S' then
        return 'Enter some text, or clear the answer.';
      end if;
    when 'single_choice' then
      if text_value is null or not options @> jsonb_build_array(text_value) then
        return 'Choose one of the options.';
      end if;
    when 'multi_choice' then
      if value_type <> 'array' then
        return 'Choose at least one option.';
      elsif jsonb_array_length(value) = 0 then
        return 'Choose at least one option, or clear the answer.';
      elsif exists (
        select 1 from jsonb_array_elements(value) as chosen
        where jsonb_typeof(chosen) <> 'string' or not options @> jsonb_build_array(chosen)
      ) then
        return 'Choose from the options.';
      elsif (select count(distinct chosen) from jsonb_array_elements(value) as chosen) <> jsonb_array_length(value) then
        return 'Choose each option once.';
      end if;
    when 'date' then
      if text_value is null then
        return 'Enter a date as YYYY-MM-DD.';
      end if;
      date_parts := regexp_match(text_value, '^(\d{4})-(\d{2})-(\d{2})$');
      if date_parts is null or date_parts[1]::int < 1 or date_parts[2]::int not between 1 and 12 or date_parts[3]::int < 1 then
        return 'Enter a date that exists, as YYYY-MM-DD.';
      end if;
      -- Only now that year and month are in range: make_date on the first of the month cannot
      -- fail, so the day is checked against the month's length without catching a cast error.
      if date_parts[3]::int > extract(day from make_date(date_parts[1]::int, date_parts[2]::int, 1) + interval '1 month - 1 day') then
        return 'Enter a date that exists, as YYYY-MM-DD.';
      end if;
    when 'photo' then
      return 'Add photos as attachments; a photo item has no value.';
    when 'signature' then
      if value_type <> 'object'
         or (select array_agg(k order by k) from jsonb_object_keys(value) as k) <> '{image,signer}'::text[] then
        return 'Sign and enter the signer''s name.';
      end if;
      signer := case when jsonb_typeof(value -> 'signer') = 'string' then btrim(value ->> 'signer', E' \t\n\r') end;
      image := case when jsonb_typeof(value -> 'image') = 'string' then value ->> 'image' end;
      if signer is null or signer = '' then
        return 'Enter the signer''s name.';
      elsif char_length(signer) > 120 then
        return 'Use at most 120 characters.';
      elsif signer ~ '[\x01-\x1f\x7f]' then
        return 'Remove the control characters.';
      elsif image is null then
        return 'Sign in the box.';
      elsif char_length(image) > 200000 then
        return 'The signature image is too large; clear it and sign again.';
      elsif image !~ '^data:image/png;base64,[A-Za-z0-9+/]+={0,2}$' then
        return 'Send the signature as a PNG data URL.';
      end if;
      image_size := private.png_data_url_size(image);
      if image_size is null then
        return 'Send the signature as a PNG data URL.';
      -- numeric: two sides of up to 2^32 - 1 overflow a bigint's product.
      elsif image_size[1]::numeric * image_size[2] > 2000000 then
        return format('The signature image is too large (%s × %s pixels; the limit is 2 megapixels); clear it and sign again.',
                      image_size[1], image_size[2]);
      end if;
    else
      return 'This item cannot be answered.';
  end case;
  return null;
end;
$$;

comment on function private.answer_value_problem(jsonb, jsonb) is
  'Why an answer value does not fit its template item (user-facing sentence), or null when it does.';
