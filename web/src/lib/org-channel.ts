import type { Role } from '@schemas/common';
import { watchPrivateChannel, type PrivateChannelListener, type PrivateChannelWatch } from './private-channel';

/** One change the database broadcasts on `org:<id>` (`private.broadcast_organization_change` in supabase/schema.sql). */
export interface OrgChange {
  /** `<entity>_<action>`, e.g. `site_updated`. */
  event: string;
  entity: 'organization' | 'member' | 'invitation' | 'site' | 'template' | 'inspection' | 'action' | 'action_attachment' | 'schedule';
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

const entities = new Set(['organization', 'member', 'invitation', 'site', 'template', 'inspection', 'action', 'action_attachment', 'schedule']);
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

/** Listens to `org:<orgId>` as `userId`; every caller in the tab shares one subscription. */
export function watchOrgChannel(orgId: string, userId: string, listener: OrgChannelListener): PrivateChannelWatch<OrgPresence> {
  const topic = { name: `org:${orgId}`, parseEvent: (event: string, payload: unknown) => parseChange(event, payload, orgId), parsePresence };
  return watchPrivateChannel(topic, userId, listener);
}
