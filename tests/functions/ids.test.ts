// The web's zod-free id check (schemas/ids.ts) says yes exactly where the api's idSchema does.
import assert from 'node:assert/strict';
import { idSchema } from '../../supabase/functions/_shared/schemas/common.ts';
import { isId } from '../../supabase/functions/_shared/schemas/ids.ts';

Deno.test('isId agrees with idSchema on ids and near misses', () => {
  const samples = [
    crypto.randomUUID(),
    crypto.randomUUID().toUpperCase(),
    '0d000000-0000-4000-8000-000000000001',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '6f1c3c1e-7a55-9a4f-9a51-2f7f3d1e0c11', // version 9
    '6f1c3c1e-7a55-4a4f-7a51-2f7f3d1e0c11', // variant 7
    '6f1c3c1e-7a55-4a4f-9a51-2f7f3d1e0c1', // one digit short
    '6f1c3c1e7a554a4f9a512f7f3d1e0c11', // no dashes
    ' 6f1c3c1e-7a55-4a4f-9a51-2f7f3d1e0c11',
    'not-an-id',
    '',
  ];
  for (const sample of samples) assert.equal(isId(sample), idSchema.safeParse(sample).success, sample);
  assert.equal(isId(undefined), false);
});
