import { type NotificationPreferences, REMINDER_KIND_LABELS, REMINDER_KINDS } from '@schemas/notifications';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { FormAlert } from '@/components/ui/form-alert';
import { QueryError } from '@/components/ui/query-error';
import { describeErrorSentence } from '@/lib/errors';
import { useNotificationPreferences, useUpdateNotificationPreferences } from '../api/notification-preferences';

/** "You'll get: … You won't get: …", so the confirmation says what was saved, not only that it was. */
function savedSummary(saved: NotificationPreferences): string {
  const on = REMINDER_KINDS.filter((kind) => saved[kind]).length;
  if (on === REMINDER_KINDS.length) return 'Saved. You get every reminder email.';
  if (on === 0) return 'Saved. You get no reminder emails.';
  return `Saved. You get ${on} of the ${REMINDER_KINDS.length} reminder emails.`;
}

/**
 * Each kind of reminder email on or off (docs/schedules.md, "Reminders"), for every organization
 * the person belongs to. Saved with the button, all four at once; what was saved is said.
 */
export function ReminderPreferencesForm() {
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();

  if (preferences.isPending) return <p className="muted">Loading your reminder emails…</p>;
  if (preferences.isError) return <QueryError error={preferences.error} onRetry={() => preferences.refetch()} />;

  return (
    // Keyed on what is stored, so the boxes show the saved choices after every save.
    <form
      key={REMINDER_KINDS.map((kind) => preferences.data[kind]).join()}
      className="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        update.reset();
        const form = event.currentTarget;
        const chosen = Object.fromEntries(
          REMINDER_KINDS.map((kind) => [kind, (form.elements.namedItem(kind) as HTMLInputElement).checked]),
        ) as NotificationPreferences;
        update.mutate(chosen);
      }}
      // A change after saving: "saved" is no longer true of what the form shows.
      onChange={() => {
        if (update.isSuccess || update.isError) update.reset();
      }}
    >
      {update.isError ? <FormAlert message={describeErrorSentence(update.error)} /> : null}
      {update.isSuccess ? <FormAlert tone="success" message={savedSummary(update.data)} /> : null}
      <fieldset className="fieldset">
        <legend>Email me about scheduled inspections</legend>
        {REMINDER_KINDS.map((kind) => (
          <CheckboxField
            key={kind}
            name={kind}
            label={REMINDER_KIND_LABELS[kind].label}
            hint={REMINDER_KIND_LABELS[kind].hint}
            defaultChecked={preferences.data[kind]}
          />
        ))}
      </fieldset>
      <Button type="submit" pending={update.isPending}>
        Save reminder emails
      </Button>
    </form>
  );
}
