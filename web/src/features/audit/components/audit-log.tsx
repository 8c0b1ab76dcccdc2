import { AUDIT_ENTITIES, AUDIT_ENTITY_LABELS, describeAuditEntry, type AuditEntity, type AuditEntry } from '@schemas/audit-entries';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ListScreen } from '@/components/ui/paged-list';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { formatDateTime } from '@/lib/format';
import { deviceTimeZone, zoneAbbreviation } from '@/lib/zoned-time';
import { useAuditLog, type AuditFilters } from '../api/get-audit-log';
import { entryPath } from './entry-link';
import './audit.css';

export interface Choice {
  value: string;
  label: string;
}

// Columns that say nothing to a reader of the log: ids, bookkeeping, and values too big to show.
const HIDDEN_COLUMNS = new Set(['id', 'org_id', 'created_at', 'updated_at', 'version', 'created_by', 'token_hash', 'definition', 'value']);

function readable(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 79)}…` : value.replace(/_/g, ' ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** What an update changed, field by field, in words ("status: open → in progress"); nothing for inserts and deletes. */
function changesOf(entry: AuditEntry): string[] {
  if (entry.action !== 'update' || !entry.before || !entry.after) return [];
  const before = entry.before;
  const after = entry.after;
  return Object.keys(after)
    .filter((column) => !HIDDEN_COLUMNS.has(column) && !column.endsWith('_id') && JSON.stringify(before[column]) !== JSON.stringify(after[column]))
    .map((column) => `${column.replace(/_/g, ' ')}: ${readable(before[column])} → ${readable(after[column])}`);
}

const entityOptions: Choice[] = [
  { value: '', label: 'Everything' },
  ...AUDIT_ENTITIES.map((entity) => ({ value: entity, label: AUDIT_ENTITY_LABELS[entity] })),
];

/**
 * The organization's audit log, newest first, filtered by what, who and since when; sentences, not
 * JSON. An entry about a site's things reads on the site's clock, the rest on this device's, each
 * with its zone named.
 */
export function AuditLog({ orgId, orgSlug, people }: { orgId: string; orgSlug: string; people: Choice[] }) {
  const [filters, setFilters] = useState<AuditFilters>({ entity: '', actorId: '', since: '' });
  const [sinceDate, setSinceDate] = useState('');
  const log = useAuditLog(orgId, filters);

  return (
    <ListScreen
      searchLabel="Filter the audit log"
      filtersClassName="audit-filters"
      filters={
        <>
          <SelectField
            label="What"
            name="entity"
            options={entityOptions}
            value={filters.entity}
            onChange={(event) => setFilters({ ...filters, entity: event.target.value as AuditEntity | '' })}
          />
          <SelectField
            label="Who"
            name="actor_id"
            options={[{ value: '', label: 'Anyone' }, ...people]}
            value={filters.actorId}
            onChange={(event) => setFilters({ ...filters, actorId: event.target.value })}
          />
          <TextField
            label="Since"
            name="since"
            type="date"
            hint={`From the start of that day on this device's clock (${zoneAbbreviation(deviceTimeZone())}).`}
            value={sinceDate}
            onChange={(event) => {
              setSinceDate(event.target.value);
              // The start of that day in the browser's zone.
              const start = event.target.value ? new Date(`${event.target.value}T00:00`) : null;
              setFilters({ ...filters, since: start && !Number.isNaN(start.getTime()) ? start.toISOString() : '' });
            }}
          />
        </>
      }
      query={log}
      loadingText="Loading the audit log…"
      noun={['entry', 'entries']}
      emptyText="No entries match these filters."
    >
      {(entries, busy) => (
        <ol className="audit-log" aria-label="Audit log" aria-busy={busy}>
          {entries.map((entry) => {
            const path = entryPath(entry, orgSlug);
            const sentence = describeAuditEntry(entry);
            const changes = changesOf(entry);
            return (
              <li key={entry.id} className="audit-entry">
                <p>{path ? <Link to={path}>{sentence}</Link> : sentence}</p>
                <p className="muted">
                  <time dateTime={entry.at}>{formatDateTime(entry.at, entry.site_timezone ?? undefined)}</time>
                </p>
                {changes.length > 0 ? (
                  <details>
                    <summary>What changed</summary>
                    <ul className="audit-changes">
                      {changes.map((change) => (
                        <li key={change}>{change}</li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </ListScreen>
  );
}
