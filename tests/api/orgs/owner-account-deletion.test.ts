// Deleting the account of an organization's last owner through GoTrue's admin API (what the
// dashboard does). It used to answer 500 ("Database error deleting user" on hosted) because the
// last-owner rule refused the membership's cascade; now ownership passes on and the API answers
// as for any deletion. The SQL side, rank and seniority, is in tests/db/036.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClient } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';
import { addMember, createOrg, newUser } from '../../support/fixtures.ts';
import { call, expectStatus } from '../../support/api.ts';
import { closeDb, db } from '../../support/database.ts';

afterAll(closeDb);

describe('deleting the account of an organization’s last owner', () => {
  it('succeeds and makes the admin the owner, who then runs the organization', async () => {
    const owner = await newUser('owner-deleted', 'Olive Owner');
    const admin = await newUser('admin-promoted', 'Adam Admin');
    const org = await createOrg(owner);
    await addMember(owner, org.id, admin, 'admin');

    const service = createTestClient({ key: stack.SERVICE_ROLE_KEY });
    const deleted = await service.auth.admin.deleteUser(owner.userId);
    expect(deleted.error).toBeNull();
    expect((await service.auth.admin.getUserById(owner.userId)).error?.status).toBe(404);

    const members = expectStatus(await call(admin.client, `orgs/${org.id}/members`), 200);
    expect(members.data.map((m: any) => [m.user_id, m.role])).toEqual([[admin.userId, 'owner']]);
    const [audit] = await db()`
      select count(*)::int as n from public.audit_log
      where org_id = ${org.id} and entity = 'memberships' and action = 'update' and after ->> 'role' = 'owner' and after ->> 'user_id' = ${admin.userId}`;
    expect(audit.n).toBe(1);
  });
});
