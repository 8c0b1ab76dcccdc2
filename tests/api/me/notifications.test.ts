// GET·PATCH /me/notifications (issue 26 part 5; docs/schedules.md, "Reminders") through the real
// gateway and Deno with the unmodified supabase-js client: every kind is on until a person changes
// it; a change touches only the kinds sent and only the caller's own row (another person's switches
// stay as they were, and there is no way to name another person); bad bodies get the catalogue's
// validation_failed and write nothing; without a session it is 401.
import type { SupabaseClient } from '@supabase/supabase-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi as call } from '../../support/api.ts';
import { createTestClient, signedInClient, uniqueEmail } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';

const sql = postgres(stack.DB_URL, { max: 2, onnotice: () => {} });

interface Actor {
  client: SupabaseClient;
  userId: string;
}

async function signUp(label: string): Promise<Actor> {
  const { client, user } = await signedInClient({ email: uniqueEmail(label), displayName: label, key: stack.PUBLISHABLE_KEY });
  return { client, userId: user.id };
}

async function storedRow(userId: string) {
  const [row] = await sql`
    select occurrence_opened, occurrence_due_soon, occurrence_missed, missed_digest, updated_at
    from public.notification_preferences where user_id = ${userId}
  `;
  return row;
}

const ALL_ON = { occurrence_opened: true, occurrence_due_soon: true, occurrence_missed: true, missed_digest: true };
let ada: Actor;
let bob: Actor;

beforeAll(async () => {
  [ada, bob] = await Promise.all([signUp('notify-ada'), signUp('notify-bob')]);
});

afterAll(async () => {
  await sql.end({ timeout: 5 });
});

describe('GET /me/notifications', () => {
  it('answers every kind on for a person who never changed them, and stores nothing for it', async () => {
    const { status, body } = await call(ada.client, 'me/notifications');
    expect(status).toBe(200);
    expect(body).toEqual(ALL_ON);
    expect(await storedRow(ada.userId)).toBeUndefined();
  });

  it('refuses unknown query parameters', async () => {
    const { status, body } = await call(ada.client, 'me/notifications?user_id=x');
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'query.user_id', message: 'This field is not allowed.' }] });
  });

  it('is 401 without a session', async () => {
    const { status, body } = await call(createTestClient({ key: stack.PUBLISHABLE_KEY }), 'me/notifications');
    expect(status).toBe(401);
    expect(body.code).toBe('unauthenticated');
  });
});

describe('PATCH /me/notifications', () => {
  it('turns off the kinds sent, keeps the others, and answers all four', async () => {
    const first = await call(ada.client, 'me/notifications', { method: 'PATCH', body: { occurrence_due_soon: false } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...ALL_ON, occurrence_due_soon: false });
    const second = await call(ada.client, 'me/notifications', { method: 'PATCH', body: { missed_digest: false, occurrence_opened: false } });
    expect(second.body).toEqual({ occurrence_opened: false, occurrence_due_soon: false, occurrence_missed: true, missed_digest: false });
    expect(await storedRow(ada.userId)).toMatchObject(second.body);
    expect((await call(ada.client, 'me/notifications')).body).toEqual(second.body);
    const back = await call(ada.client, 'me/notifications', { method: 'PATCH', body: { occurrence_due_soon: true } });
    expect(back.body).toEqual({ occurrence_opened: false, occurrence_due_soon: true, occurrence_missed: true, missed_digest: false });
  });

  it('changes only the caller\'s own switches: another person\'s stay as they were', async () => {
    expect((await call(bob.client, 'me/notifications', { method: 'PATCH', body: { occurrence_missed: false } })).status).toBe(200);
    const adaBefore = await storedRow(ada.userId);
    const changed = await call(ada.client, 'me/notifications', { method: 'PATCH', body: { occurrence_missed: false, missed_digest: true } });
    expect(changed.status).toBe(200);
    // Bob's row, written by Bob, is untouched by Ada's change; each reads their own.
    expect(await storedRow(bob.userId)).toMatchObject({ ...ALL_ON, occurrence_missed: false });
    expect((await call(bob.client, 'me/notifications')).body).toEqual({ ...ALL_ON, occurrence_missed: false });
    expect((await storedRow(ada.userId)).updated_at.getTime()).toBeGreaterThan(adaBefore.updated_at.getTime());
  });

  it('cannot be pointed at another person: a user_id in the body is refused and nothing is written', async () => {
    const bobBefore = await storedRow(bob.userId);
    const { status, body } = await call(ada.client, 'me/notifications', { method: 'PATCH', body: { user_id: bob.userId, occurrence_missed: true } });
    expect(status).toBe(422);
    expect(body.errors).toEqual([{ field: 'user_id', message: 'This field is not allowed.' }]);
    expect(await storedRow(bob.userId)).toEqual(bobBefore);
  });

  const refused: Array<[string, unknown, Array<{ field: string; message: string }>]> = [
    ['an empty body', {}, [{ field: 'body', message: 'Change at least one field.' }]],
    ['a switch that is not true or false', { occurrence_opened: 'no' }, [{ field: 'occurrence_opened', message: 'Use true or false.' }]],
    ['null', { missed_digest: null }, [{ field: 'missed_digest', message: 'Use true or false.' }]],
    // The unknown key is refused, and what is left changes nothing.
    ['a kind that does not exist', { weekly_summary: false }, [
      { field: 'weekly_summary', message: 'This field is not allowed.' },
      { field: 'body', message: 'Change at least one field.' },
    ]],
  ];
  for (const [name, requestBody, errors] of refused) {
    it(`refuses ${name} with validation_failed and writes nothing`, async () => {
      const before = await storedRow(ada.userId);
      const { status, body } = await call(ada.client, 'me/notifications', { method: 'PATCH', body: requestBody });
      expect(status).toBe(422);
      expect(body).toMatchObject({ code: 'validation_failed', errors });
      expect(await storedRow(ada.userId)).toEqual(before);
    });
  }

  it('is 401 without a session, and writes nothing', async () => {
    const carol = await signUp('notify-carol');
    const { status } = await call(createTestClient({ key: stack.PUBLISHABLE_KEY }), 'me/notifications', { method: 'PATCH', body: { missed_digest: false } });
    expect(status).toBe(401);
    expect(await storedRow(carol.userId)).toBeUndefined();
  });
});
