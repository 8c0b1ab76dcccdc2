import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@schemas/webhooks';
import { useState } from 'react';

// The events people choose from, grouped as they think of them; webhook.test is for "Send test event".
const EVENT_GROUPS: { title: string; types: WebhookEventType[] }[] = [
  { title: 'Inspections', types: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('inspection.')) },
  { title: 'Actions', types: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('action.')) },
  { title: 'Sites', types: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('site.')) },
  { title: 'Templates', types: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('template.')) },
  // A schedule's own changes; its occurrences are inspections (inspection.missed among them, above).
  { title: 'Schedules', types: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('schedule.')) },
];

/** Every event unless the person chooses some: the list of 24 shows only when asked for. */
export function EventChoice({ selected, onChange }: { selected: Set<WebhookEventType>; onChange: (next: Set<WebhookEventType>) => void }) {
  const [choosing, setChoosing] = useState(selected.size > 0);
  const toggle = (type: WebhookEventType) => {
    const next = new Set(selected);
    if (next.has(type)) next.delete(type);
    else next.add(type);
    onChange(next);
  };
  return (
    <fieldset className="field event-choice">
      <legend>Events</legend>
      <label className="checkbox-row">
        <input type="radio" name="event-scope" checked={!choosing} onChange={() => { setChoosing(false); onChange(new Set()); }} />
        Every event
      </label>
      <label className="checkbox-row">
        <input type="radio" name="event-scope" checked={choosing} onChange={() => setChoosing(true)} />
        Only the events I choose
      </label>
      {choosing
        ? EVENT_GROUPS.map((group) => (
          <div key={group.title} className="event-group" role="group" aria-label={group.title}>
            <span className="event-group-title" aria-hidden="true">
              {group.title}
            </span>
            {group.types.map((type) => (
              <label key={type} className="checkbox-row">
                <input type="checkbox" checked={selected.has(type)} onChange={() => toggle(type)} />
                <code>{type}</code>
              </label>
            ))}
          </div>
        ))
        : null}
    </fieldset>
  );
}
