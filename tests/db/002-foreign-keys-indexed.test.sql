-- Every foreign key in public has an index starting with its columns: without one, deletes on
-- the referenced table scan the referencing table and RLS joins get slow. A failure prints the
-- `create index` to add.
begin;
select plan(1);

select is_empty(
  $$
  select format('create index on %s (%s);', c.conrelid::regclass,
                (select string_agg(quote_ident(a.attname), ', ' order by k.ord)
                 from unnest(c.conkey) with ordinality k(attnum, ord)
                 join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum))
  from pg_constraint c
  join pg_namespace n on n.oid = c.connamespace
  where c.contype = 'f' and n.nspname = 'public'
    and not exists (
      select 1 from pg_index i
      where i.indrelid = c.conrelid
        and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
        and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey
    )
  $$,
  'every foreign key in public is indexed'
);

select * from finish();
rollback;
