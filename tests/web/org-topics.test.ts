// Which realtime topics the web app joins for an organization (web/src/lib/org-channel.ts,
// docs/realtime.md "Site groups"): an org-wide member the organization's topic as before, a member
// limited to site groups each group's topic and the shared one; events heard on several of them
// reach the screens once, and the first join is announced once every topic has joined.
import { describe, expect, it } from 'vitest';
import { mergeTopicListeners, orgTopics, scopeOfMembership, siteTopic, type OrgChange } from '../../web/src/lib/org-channel';

const ORG = '11111111-1111-4111-8111-111111111111';
const NORTH = '22222222-2222-4222-8222-222222222222';
const SOUTH = '33333333-3333-4333-8333-333333333333';

function change(overrides: Partial<OrgChange> = {}): OrgChange {
  return { event: 'site_updated', entity: 'site', action: 'updated', id: 's1', org_id: ORG, actor_id: null, at: '2026-11-29T10:00:00.000Z', ...overrides };
}

describe('the topics of an organization', () => {
  it('are the organization\'s own for an org-wide member, and when /me says nothing of access', () => {
    expect(orgTopics(ORG, scopeOfMembership({ role: 'inspector', org_wide: true, site_group_ids: [] }))).toEqual([`org:${ORG}`]);
    expect(orgTopics(ORG, scopeOfMembership({ role: 'owner' }))).toEqual([`org:${ORG}`]);
  });

  it('are the shared topic and one per group for a limited member, each group once', () => {
    const scope = scopeOfMembership({ role: 'inspector', org_wide: false, site_group_ids: [SOUTH, NORTH, SOUTH] });
    expect(orgTopics(ORG, scope)).toEqual([`org:${ORG}:shared`, `org:${ORG}:group:${NORTH}`, `org:${ORG}:group:${SOUTH}`]);
  });

  it('are only the shared topic for a limited member whose groups were all deleted: never the organization\'s', () => {
    expect(orgTopics(ORG, scopeOfMembership({ role: 'manager', org_wide: false, site_group_ids: [] }))).toEqual([`org:${ORG}:shared`]);
  });

  it('put the people looking at a site on its group\'s topic, or the organization\'s for a site in no group', () => {
    expect(siteTopic(ORG, NORTH)).toBe(`org:${ORG}:group:${NORTH}`);
    expect(siteTopic(ORG, null)).toBe(`org:${ORG}`);
  });
});

describe('listening to several topics as one', () => {
  it('hears an event sent to two topics once, and different events each', () => {
    const heard: string[] = [];
    const topics = orgTopics(ORG, { orgWide: false, groupIds: [NORTH, SOUTH] });
    const listeners = mergeTopicListeners(topics, { onEvent: (event) => heard.push(`${event.event}:${event.id}`) });
    listeners.get(`org:${ORG}:group:${NORTH}`)!.onEvent!(change());
    listeners.get(`org:${ORG}:group:${SOUTH}`)!.onEvent!(change());
    listeners.get(`org:${ORG}:group:${SOUTH}`)!.onEvent!(change({ at: '2026-11-29T10:00:01.000Z' }));
    listeners.get(`org:${ORG}:shared`)!.onEvent!(change({ event: 'template_updated', entity: 'template', id: 't1' }));
    expect(heard).toEqual(['site_updated:s1', 'site_updated:s1', 'template_updated:t1']);
  });

  it('says joined once every topic has joined, then resumed whenever one joins again', () => {
    const joins: boolean[] = [];
    const topics = orgTopics(ORG, { orgWide: false, groupIds: [NORTH] });
    const listeners = mergeTopicListeners(topics, { onJoined: (resumed) => joins.push(resumed) });
    listeners.get(topics[0])!.onJoined!(false);
    expect(joins).toEqual([]);
    listeners.get(topics[1])!.onJoined!(false);
    expect(joins).toEqual([false]);
    listeners.get(topics[1])!.onJoined!(true);
    expect(joins).toEqual([false, true]);
  });
});
