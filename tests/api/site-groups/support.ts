// Fixtures for the site-group tests (issue 27): an organization with a region tree —
// North (with the area Harbor inside it) and South — a site in Harbor, one in South and one in no
// group, members of every role who see everything, and members limited by the real access route:
// an inspector to Harbor (North is then only an ancestor to them), a manager and a viewer to
// North. The world has the shape of the inspection world, so the inspection, action and schedule
// helpers work in it as they do elsewhere.
import { afterAll, beforeAll, expect } from 'vitest';
import { type ApiOutcome, call, expectStatus, post } from '../../support/api.ts';
import { closeDb, db } from '../../support/database.ts';
import {
  createGeofencedSite, createPublishedTemplate, type InspectionWorld, type PublishedTemplate, type Role, tag, team, type User,
} from '../../support/fixtures.ts';

export const siteGroupsPath = (orgId: string) => `orgs/${orgId}/site-groups`;
export const siteGroupPath = (orgId: string, id: string) => `orgs/${orgId}/site-groups/${id}`;
export const accessPath = (orgId: string, userId: string) => `orgs/${orgId}/members/${userId}/access`;

/** Creates a group through the API as `by`. */
export async function createGroup(by: User, orgId: string, name: string, parentId: string | null = null): Promise<any> {
  return expectStatus(await post(by.client, siteGroupsPath(orgId), { name, parent_id: parentId }), 201);
}

/** Limits a member to `groupIds` through `PUT …/members/{id}/access`, as `by` (an owner or admin). */
export async function limitMember(by: User, orgId: string, member: User, groupIds: string[]): Promise<any> {
  return expectStatus(await call(by.client, accessPath(orgId, member.userId), { method: 'PUT', body: { site_group_ids: groupIds } }), 200);
}

export interface RegionWorld extends InspectionWorld {
  groups: { north: any; harbor: any; south: any };
  /** `site` (the inspection world's) is `sites.harbor`. */
  sites: { harbor: any; south: any; loose: any };
  /** Members limited by the access route: the inspector to Harbor, the manager and viewer to North. */
  limited: { inspector: User; manager: User; viewer: User };
}

/** The region world; `label` starts every email. */
export async function regionWorld(label = 'region'): Promise<RegionWorld> {
  const t = await team({
    label,
    org: `Regions ${tag()}`,
    owner: 'Olive Owner',
    members: {
      admin: ['admin', 'Ada Admin'],
      manager: ['manager', 'Mia Manager'],
      inspector: ['inspector', 'Ivan Inspector'],
      viewer: ['viewer', 'Vera Viewer'],
      harborInspector: ['inspector', 'Hana Harbor'],
      northManager: ['manager', 'Ned North'],
      northViewer: ['viewer', 'Nina North'],
    },
  });
  const orgId = t.org.id;
  const north = await createGroup(t.owner, orgId, 'North');
  const [harbor, south] = await Promise.all([createGroup(t.owner, orgId, 'Harbor', north.id), createGroup(t.owner, orgId, 'South')]);
  const [harborSite, southSite, looseSite, template] = await Promise.all([
    createGeofencedSite(t.members.manager, orgId, { name: `Harbor kitchen ${tag()}`, group_id: harbor.id }),
    createGeofencedSite(t.members.manager, orgId, { name: `South kitchen ${tag()}`, group_id: south.id }),
    createGeofencedSite(t.members.manager, orgId, { name: `Loose kitchen ${tag()}` }),
    createPublishedTemplate(t.members.manager, orgId),
  ]);
  await limitMember(t.owner, orgId, t.members.harborInspector, [harbor.id]);
  await limitMember(t.owner, orgId, t.members.northManager, [north.id]);
  await limitMember(t.owner, orgId, t.members.northViewer, [north.id]);
  const byRole: Record<Role, User> = {
    owner: t.owner, admin: t.members.admin, manager: t.members.manager, inspector: t.members.inspector, viewer: t.members.viewer,
  };
  return {
    org: t.org,
    ...byRole,
    byRole,
    inspector2: t.members.inspector,
    site: harborSite,
    template,
    groups: { north, harbor, south },
    sites: { harbor: harborSite, south: southSite, loose: looseSite },
    limited: { inspector: t.members.harborInspector, manager: t.members.northManager, viewer: t.members.northViewer },
  };
}

/** Another organization with a site, a group and a template: its rows are the "another organization's row" of the 404 comparisons. */
export interface OtherOrg {
  org: any;
  owner: User;
  group: any;
  site: any;
  template: PublishedTemplate;
  /** The other organization as an inspection world, for the shared helpers (everyone is its owner). */
  world: InspectionWorld;
}

export async function otherOrg(label = 'other'): Promise<OtherOrg> {
  const t = await team({ label, org: `Elsewhere ${tag()}`, owner: 'Otto Other' });
  const group = await createGroup(t.owner, t.org.id, 'North');
  const [site, template] = await Promise.all([
    createGeofencedSite(t.owner, t.org.id, { name: `Elsewhere kitchen ${tag()}`, group_id: group.id }),
    createPublishedTemplate(t.owner, t.org.id),
  ]);
  const byRole = { owner: t.owner, admin: t.owner, manager: t.owner, inspector: t.owner, viewer: t.owner };
  const world: InspectionWorld = { org: t.org, ...byRole, byRole, inspector2: t.owner, site, template };
  return { org: t.org, owner: t.owner, group, site, template, world };
}

/** Before all tests, the region world and another organization; after all, the connection closed. */
export function regionWorldAndOtherOrg(label = 'region'): { world: RegionWorld; other: OtherOrg } {
  const world = {} as RegionWorld;
  const other = {} as OtherOrg;
  beforeAll(async () => {
    const [built, elsewhere] = await Promise.all([regionWorld(label), otherOrg(`${label}-other`)]);
    Object.assign(world, built);
    Object.assign(other, elsewhere);
  });
  afterAll(closeDb);
  return { world, other };
}

/** The inspection world seen from one site: the shared helpers then schedule and open there. */
export function at(world: InspectionWorld, site: any): InspectionWorld {
  return { ...world, site };
}

/**
 * The refusal a caller gets for a row outside their groups is exactly the one for another
 * organization's row: the same status, code, title, detail and field errors (only the request id
 * differs).
 */
export function expectSameRefusal(outside: ApiOutcome, otherOrgs: ApiOutcome, what: string): void {
  const shape = (outcome: ApiOutcome) => ({ status: outcome.status, body: { ...outcome.body, request_id: undefined } });
  expect(outside.status, `${what}: ${JSON.stringify(outside.body)}`).toBeGreaterThanOrEqual(400);
  expect(shape(outside), what).toEqual(shape(otherOrgs));
}

/** Every row that hangs off an organization's sites, to compare before and after refused requests. */
export async function siteWorldSnapshot(orgId: string) {
  const sql = db();
  const [groups, sites, inspections, answers, attachments, actions, schedules, access, audit] = await Promise.all([
    sql`select * from public.site_groups where org_id = ${orgId} order by id`,
    sql`select * from public.sites where org_id = ${orgId} order by id`,
    sql`select * from public.inspections where org_id = ${orgId} order by id`,
    sql`select * from public.answers where org_id = ${orgId} order by id`,
    sql`select * from public.attachments where org_id = ${orgId} order by id`,
    sql`select * from public.actions where org_id = ${orgId} order by id`,
    sql`select * from public.schedules where org_id = ${orgId} order by id`,
    sql`select m.user_id, m.site_access_limited, array(select g.site_group_id from public.membership_site_groups g
          where g.org_id = m.org_id and g.user_id = m.user_id order by 1) as groups
        from public.memberships m where m.org_id = ${orgId} order by m.user_id`,
    sql`select count(*)::int as n from public.audit_log where org_id = ${orgId}`,
  ]);
  return {
    groups: [...groups], sites: [...sites], inspections: [...inspections], answers: [...answers], attachments: [...attachments],
    actions: [...actions], schedules: [...schedules], access: [...access], auditEntries: audit[0].n,
  };
}
