// Audit-log entries and how they read (describeAuditEntry), without zod: the dashboard's activity
// feed shows them on the web app's first screen, which should not carry a validation library for it.
// The query schemas of the audit-log and activity routes, and the entry's schema (AuditEntry), are
// in audit.ts; this module imports only its type.
import type { AuditEntry } from './audit.ts';

export type { AuditEntry };

/** The tables the audit log records, as its `entity` names them. */
export const AUDIT_ENTITIES = [
  'organizations',
  'memberships',
  'invitations',
  'sites',
  'templates',
  'template_versions',
  'inspections',
  'answers',
  'attachments',
  'actions',
  'action_attachments',
  'schedules',
  'schedule_sites',
  'api_keys',
  'webhook_endpoints',
  'site_groups',
  'membership_site_groups',
  'api_key_site_groups',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** How each entity is offered as a filter. */
export const AUDIT_ENTITY_LABELS: Record<AuditEntity, string> = {
  organizations: 'Organization',
  memberships: 'Members',
  invitations: 'Invitations',
  sites: 'Sites',
  templates: 'Templates',
  template_versions: 'Published versions',
  inspections: 'Inspections',
  answers: 'Answers',
  attachments: 'Inspection photos',
  actions: 'Actions',
  action_attachments: 'Action photos',
  schedules: 'Schedules',
  schedule_sites: 'Schedule sites',
  api_keys: 'API keys',
  webhook_endpoints: 'Webhooks',
  site_groups: 'Site groups',
  membership_site_groups: "Members' site access",
  api_key_site_groups: "API keys' site access",
};

type Row = Record<string, unknown>;

const changed = (entry: AuditEntry, column: string) => entry.before?.[column] !== entry.after?.[column];
const roleName = (value: unknown) => (typeof value === 'string' ? value : 'member');

/**
 * What was done, in words that follow the actor, with `{subject}` where the entry's subject goes
 * ("submitted {subject}", "added {subject} as inspector"); without it, the phrase stands alone.
 */
function phraseOf(entry: AuditEntry): string {
  const after = entry.after ?? {};
  const before = entry.before ?? {};
  const status = (row: Row) => row.status as string | undefined;
  switch (entry.entity) {
    case 'organizations':
      if (entry.action === 'insert') return 'created the organization {subject}';
      if (entry.action === 'delete') return 'deleted the organization {subject}';
      if (changed(entry, 'require_mfa')) {
        return after.require_mfa ? 'required two-factor authentication in {subject}' : 'stopped requiring two-factor authentication in {subject}';
      }
      return 'changed the settings of {subject}';
    case 'memberships':
      if (entry.action === 'insert') return entry.actor_id === after.user_id ? `joined as ${roleName(after.role)}` : `added {subject} as ${roleName(after.role)}`;
      if (entry.action === 'delete') return entry.actor_id === before.user_id ? 'left the organization' : 'removed {subject} from the organization';
      if (changed(entry, 'role')) return `made {subject} ${roleName(after.role)}`;
      // Access by site group (docs/site-groups.md).
      if (changed(entry, 'site_access_limited')) return after.site_access_limited ? 'limited {subject} to site groups' : 'let {subject} see every site';
      return "changed {subject}'s site access";
    case 'invitations':
      if (entry.action === 'insert') return `invited {subject} as ${roleName(after.role)}`;
      if (after.accepted_at && !before.accepted_at) return 'accepted the invitation for {subject}';
      if (after.revoked_at && !before.revoked_at) return 'revoked the invitation for {subject}';
      return 'changed the invitation for {subject}';
    case 'sites':
      if (entry.action === 'insert') return 'added site {subject}';
      if (changed(entry, 'archived_at')) return after.archived_at ? 'archived site {subject}' : 'restored site {subject}';
      return 'edited site {subject}';
    case 'templates':
      if (entry.action === 'insert') return 'created template {subject}';
      if (status(after) === 'archived' && status(before) !== 'archived') return 'archived template {subject}';
      return 'edited template {subject}';
    case 'template_versions':
      return `published version ${after.version ?? ''} of {subject}`;
    case 'inspections':
      if (entry.action === 'insert') return 'scheduled {subject}';
      if (changed(entry, 'status')) {
        switch (status(after)) {
          case 'in_progress':
            return status(before) === 'changes_requested' ? 'resumed {subject}' : 'started {subject}';
          case 'submitted':
            return 'submitted {subject}';
          case 'approved':
            return 'approved {subject}';
          case 'changes_requested':
            return 'sent back {subject} for changes';
          case 'canceled':
            // A schedule's own cancellations say why (docs/schedules.md).
            return typeof after.canceled_reason === 'string' ? `canceled {subject} (${after.canceled_reason})` : 'canceled {subject}';
        }
      }
      if (changed(entry, 'missed_noted_at') && after.missed_noted_at) return 'noted {subject} as missed';
      if (changed(entry, 'assignee_id')) return after.assignee_id ? 'reassigned {subject}' : 'unassigned {subject}';
      return 'edited {subject}';
    case 'answers':
      return after.value === null || after.value === undefined ? 'cleared an answer in {subject}' : 'answered an item in {subject}';
    case 'attachments':
    case 'action_attachments': {
      const what = entry.entity === 'attachments' ? '{subject}' : 'action {subject}';
      if (entry.action === 'delete') return `removed a photo from ${what}`;
      if (after.confirmed_at && !before.confirmed_at) return `added a photo to ${what}`;
      return `started uploading a photo to ${what}`;
    }
    case 'actions':
      if (entry.action === 'insert') return 'opened action {subject}';
      if (changed(entry, 'status')) {
        switch (status(after)) {
          case 'in_progress':
            return 'started work on action {subject}';
          case 'resolved':
            return 'resolved action {subject}';
          case 'verified':
            return 'verified action {subject}';
          case 'open':
            return 'reopened action {subject}';
          case 'canceled':
            return 'canceled action {subject}';
        }
      }
      if (changed(entry, 'item_passed_at')) {
        return after.item_passed_at ? 'resubmitted the item of action {subject} as passing' : 'resubmitted the item of action {subject} as failing';
      }
      if (changed(entry, 'assignee_id')) return after.assignee_id ? 'reassigned action {subject}' : 'unassigned action {subject}';
      return 'edited action {subject}';
    case 'schedules':
      if (entry.action === 'insert') return 'created schedule {subject}';
      if (changed(entry, 'deleted_at') && after.deleted_at) return 'deleted schedule {subject}';
      if (changed(entry, 'paused_at')) return after.paused_at ? 'paused schedule {subject}' : 'resumed schedule {subject}';
      return 'edited schedule {subject}';
    case 'schedule_sites': {
      const count = (row: Row) => (Array.isArray(row.site_ids) ? row.site_ids.length : 0);
      const sites = (n: number) => (n === 1 ? '1 site' : `${n} sites`);
      return entry.action === 'insert' ? `added ${sites(count(after))} to schedule {subject}` : `took ${sites(count(before))} off schedule {subject}`;
    }
    case 'api_keys':
      if (entry.action === 'insert') return 'created API key {subject}';
      if (changed(entry, 'revoked_at') && after.revoked_at) return 'revoked API key {subject}';
      return 'changed API key {subject}';
    case 'webhook_endpoints':
      if (entry.action === 'insert') return 'added webhook {subject}';
      if (entry.action === 'delete') return 'deleted webhook {subject}';
      if (changed(entry, 'enabled')) return after.enabled ? 'turned on webhook {subject}' : 'turned off webhook {subject}';
      return 'changed webhook {subject}';
    case 'site_groups':
      if (entry.action === 'insert') return 'added group {subject}';
      if (entry.action === 'delete') return 'deleted group {subject}';
      if (changed(entry, 'parent_id')) return 'moved group {subject}';
      return 'renamed group {subject}';
    case 'membership_site_groups':
      return entry.action === 'insert' ? 'gave {subject} access to a site group' : 'took a site group from {subject}';
    case 'api_key_site_groups':
      return 'limited API key {subject} to a site group';
  }
  return entry.action === 'insert' ? 'added {subject}' : entry.action === 'delete' ? 'removed {subject}' : 'changed {subject}';
}

/** Who did it, as a person reads it. */
export function actorOf(entry: Pick<AuditEntry, 'actor_kind' | 'actor_name'>): string {
  if (entry.actor_kind === 'api_key') return entry.actor_name ? `API key ${entry.actor_name}` : 'An API key';
  if (entry.actor_kind === 'system') return 'Fieldcheck';
  return entry.actor_name || 'A former member';
}

/**
 * An entry as a sentence: "Iris Inspector submitted Monthly food-safety audit — Capitol Hill",
 * "Maya Manager verified action Fridge door seal — Fail", "Olivia Owner added Ivan as inspector".
 */
export function describeAuditEntry(entry: AuditEntry): string {
  const phrase = phraseOf(entry).replace('{subject}', entry.subject ?? 'something no longer there');
  return `${actorOf(entry)} ${phrase}`;
}
