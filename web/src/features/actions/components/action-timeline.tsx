import type { ActionDetail, ActionEvent } from '@schemas/actions';
import { formatDateTime } from '@/lib/format';

function who(event: ActionEvent): string {
  if (event.actor_kind === 'api_key') return 'An API key';
  if (event.actor_kind === 'system') return 'Fieldcheck';
  return event.actor_name || 'A former member';
}

/** One event as a sentence: "Ivan Inspector resolved it", "Maya Manager assigned it to Ivan Inspector". */
function sentence(event: ActionEvent, action: Pick<ActionDetail, 'origin'>): string {
  const actor = who(event);
  const assignee = event.assignee_name || (event.assignee_id ? 'a former member' : null);
  switch (event.kind) {
    case 'opened':
      return action.origin === 'submit'
        ? `${actor} submitted the inspection with this item failed, which opened the action${assignee ? ` for ${assignee}` : ''}.`
        : `${actor} opened the action${assignee ? ` for ${assignee}` : ''}.`;
    case 'status_changed':
      switch (event.to_status) {
        case 'in_progress':
          return `${actor} started work.`;
        case 'resolved':
          return `${actor} marked it resolved.`;
        case 'verified':
          return `${actor} verified the fix.`;
        case 'open':
          return `${actor} reopened it.`;
        case 'canceled':
          return `${actor} canceled it.`;
        default:
          return `${actor} changed its status.`;
      }
    case 'assigned':
      return assignee ? `${actor} assigned it to ${assignee}.` : `${actor} unassigned it.`;
    case 'item_passed':
      return `${actor} resubmitted the inspection: the item now passes.`;
    case 'item_failed_again':
      return `${actor} resubmitted the inspection: the item fails again.`;
  }
}

/** The action's history, oldest first, with the notes given at each step; times on the site's clock, as its due date. */
export function ActionTimeline({ action }: { action: ActionDetail }) {
  return (
    <ol className="timeline" aria-label="History">
      {action.events.map((event) => (
        <li key={event.id} className="timeline-event">
          <p>{sentence(event, action)}</p>
          <p className="muted">
            <time dateTime={event.at}>{formatDateTime(event.at, action.site_timezone)}</time>
          </p>
          {event.note ? <p className="timeline-note">{event.note}</p> : null}
        </li>
      ))}
    </ol>
  );
}
