import type { Role } from '@schemas/common';
import { watchPrivateChannel, type PrivateChannelListener, type PrivateChannelWatch } from './private-channel';

/** One change the database broadcasts on `org:<id>` (`private.broadcast_organization_change` in supabase/schema.sql). */
export interface OrgChange {
  /** `<entity>_<action>`, e.g. `site_updated`. */
  event: string;
  entity: 'organization' | 'member' | 'invitation' | 'site' | 'site_group' | 'template' | 'inspection' | 'action' | 'action_attachment' | 'schedule';
  action: 'created' | 'updated' | 'deleted';
  id: string;
  org_id: string;
  actor_id: string | null;
  at: string;
  /** Member events only: whose membership changed, and its role now. */
  user_id?: string;
  role?: Role;
  /** Inspection, template and action events: the status after the change. */
  status?: string;
  /** The rows the changed row hangs from, and its assignee, when it has them. */
  site_id?: string;
  inspection_id?: string;
  action_id?: string;
  assignee_id?: string;
}

/** What a tab shares on the organization channel: where its user is looking. */
export interface OrgPresence {
  site_id: string | null;
  user_id: string;
  display_name: string;
}

/** `onEvent` hears each change; `onRefused` may mean the organization is gone, or the user removed. */
export type OrgChannelListener = PrivateChannelListener<OrgChange, OrgPresence>;

const entities = new Set(['organization', 'member', 'invitation', 'site', 'site_group', 'template', 'inspection', 'action', 'action_attachment', 'schedule']);
const actions = new Set(['created', 'updated', 'deleted']);

function parseChange(event: string, payload: unknown, orgId: string): OrgChange | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const change = payload as Partial<OrgChange>;
  if (!entities.has(change.entity ?? '') || !actions.has(change.action ?? '')) return null;
  if (typeof change.id !== 'string' || change.org_id !== orgId) return null;
  return { ...(change as OrgChange), event };
}

function parsePresence(value: unknown): OrgPresence | null {
  const meta = value as Partial<OrgPresence> | null;
  return typeof meta?.user_id === 'string' && typeof meta.display_name === 'string' ? (meta as OrgPresence) : null;
}

/**
 * What of the organization a user may follow (docs/realtime.md, "Site groups"): an org-wide member
 * everything, on `org:<org>`; a member limited to site groups the events about their groups' sites,
 * on each group's topic, and the rest (templates, members, settings) on `org:<org>:shared`.
 */
export type OrgChannelScope = { orgWide: true } | { orgWide: false; groupIds: readonly string[] };

/** The scope of a membership as `/me` reads it (`org_wide`, `site_group_ids`; org-wide when absent). */
export function scopeOfMembership(membership: { role: string; org_wide?: boolean; site_group_ids?: readonly string[] }): OrgChannelScope {
  return membership.org_wide === false ? { orgWide: false, groupIds: membership.site_group_ids ?? [] } : { orgWide: true };
}

/**
 * The topics that carry the scope's events. A group's topic also carries its subgroups' sites'
 * events (the database sends each to the site's group and every group above it), so a limited
 * member joins only the groups it was given; one given a group and its subgroup hears some events twice.
 */
export function orgTopics(orgId: string, scope: OrgChannelScope): string[] {
  if (scope.orgWide) return [`org:${orgId}`];
  return [`org:${orgId}:shared`, ...[...new Set(scope.groupIds)].sort().map((groupId) => `org:${orgId}:group:${groupId}`)];
}

/** The topic where the people looking at a site share it: its group's, where a limited member may be too. */
export function siteTopic(orgId: string, groupId: string | null): string {
  return groupId ? `org:${orgId}:group:${groupId}` : `org:${orgId}`;
}

// How long an event heard on one topic is remembered, so the same event on another is heard once.
const DUPLICATE_WINDOW = 200;

/**
 * One listener per topic that together act as `listener` on one topic: an event sent to several
 * topics is heard once; `onJoined` is heard once every topic has joined, and again (resumed)
 * whenever one joins after losing its connection.
 */
export function mergeTopicListeners(topics: readonly string[], listener: OrgChannelListener): Map<string, OrgChannelListener> {
  const heard: string[] = [];
  const joined = new Set<string>();
  let allJoinedOnce = false;
  return new Map(
    topics.map((name) => [
      name,
      {
        onEvent(change: OrgChange) {
          const key = `${change.event}/${change.id}/${change.at}`;
          if (heard.includes(key)) return;
          heard.push(key);
          if (heard.length > DUPLICATE_WINDOW) heard.shift();
          listener.onEvent?.(change);
        },
        onJoined(resumed: boolean) {
          joined.add(name);
          if (allJoinedOnce) return listener.onJoined?.(true);
          if (joined.size < topics.length) return;
          allJoinedOnce = true;
          listener.onJoined?.(resumed);
        },
        onRefused: () => listener.onRefused?.(),
      },
    ]),
  );
}

/** Listens to the organization's topics for `scope` as `userId`; every caller in the tab shares one subscription per topic. */
export function watchOrgChannel(orgId: string, userId: string, listener: OrgChannelListener, scope: OrgChannelScope = { orgWide: true }): PrivateChannelWatch<OrgPresence> {
  const parseEvent = (event: string, payload: unknown) => parseChange(event, payload, orgId);
  const topics = orgTopics(orgId, scope);
  if (topics.length === 1) return watchPrivateChannel({ name: topics[0], parseEvent, parsePresence }, userId, listener);
  const watches = [...mergeTopicListeners(topics, listener)].map(([name, each]) => watchPrivateChannel({ name, parseEvent, parsePresence }, userId, each));
  return {
    stop: () => watches.forEach((watch) => watch.stop()),
    // Presence is shared on one topic per site (siteTopic), never across these.
    track: () => undefined,
  };
}

/** Shares this tab's presence on a site's topic (siteTopic) and hears who else is there. */
export function watchSitePresence(orgId: string, groupId: string | null, userId: string, onPresence: (presences: OrgPresence[]) => void): PrivateChannelWatch<OrgPresence> {
  const topic = { name: siteTopic(orgId, groupId), parseEvent: (event: string, payload: unknown) => parseChange(event, payload, orgId), parsePresence };
  return watchPrivateChannel(topic, userId, { onPresence });
}
