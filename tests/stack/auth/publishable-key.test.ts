// The same flows with the new-format sb_publishable_ key in place of the legacy anon JWT.
import { describe, expect, it } from 'vitest';
import { createTestClient, uniqueEmail } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';

describe('with the sb_publishable_ key', () => {
  it('signs up, reads the user, refreshes, signs out and signs in again', async () => {
    const client = createTestClient({ key: stack.PUBLISHABLE_KEY });
    const email = uniqueEmail('publishable');
    const signUp = await client.auth.signUp({ email, password: 'correct-horse-42' });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session).not.toBeNull();
    const user = await client.auth.getUser();
    expect(user.data.user?.email).toBe(email);
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect((await client.auth.getClaims()).data?.claims.email).toBe(email);
    expect((await client.auth.signOut()).error).toBeNull();
    const again = await client.auth.signInWithPassword({ email, password: 'correct-horse-42' });
    expect(again.error).toBeNull();
    const wrong = await client.auth.signInWithPassword({ email, password: 'wrong-horse-42' });
    expect(wrong.error?.code).toBe('invalid_credentials');
  });
});
