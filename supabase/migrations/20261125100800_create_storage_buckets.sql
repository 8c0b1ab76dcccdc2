-- The storage buckets the product uses (PRODUCT.md §7, §9), created by a migration so that
-- `supabase db push` to a new project has them: config.toml's [storage.buckets] only reaches the
-- local stack (and `supabase start`), never a hosted project. The same settings as config.toml;
-- tests/db/180-storage-buckets.test.sql holds the two together. Idempotent: a bucket made in the
-- dashboard or by the local stack first is brought to these settings.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  -- Photo evidence: private, 10 MB, the four photo types the api accepts.
  ('evidence', 'evidence', false, 10 * 1024 * 1024, array['image/jpeg', 'image/png', 'image/webp', 'image/heic']),
  -- Generated exports, handed out as signed download URLs.
  ('exports', 'exports', false, null, null)
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;
