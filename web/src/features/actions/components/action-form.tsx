import type { Action } from '@schemas/actions';
import { ACTION_DESCRIPTION_MAX_LENGTH, ACTION_PRIORITIES, ACTION_PRIORITY_LABELS, ACTION_TITLE_MAX_LENGTH, DEFAULT_DUE_DAYS, type ActionPriority } from '@schemas/action-states';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { SelectField } from '@/components/ui/select-field';
import { TextAreaField } from '@/components/ui/textarea-field';
import { DueField } from '@/components/ui/due-field';
import { TextField } from '@/components/ui/text-field';
import { useValidatedSubmit, type SubmitHelpers } from '@/lib/use-validated-submit';

export interface Choice {
  value: string;
  label: string;
}

const priorityOptions = ACTION_PRIORITIES.map((priority) => ({
  value: priority,
  label: `${ACTION_PRIORITY_LABELS[priority]} (due in ${DEFAULT_DUE_DAYS[priority] === 1 ? 'a day' : `${DEFAULT_DUE_DAYS[priority]} days`} by default)`,
}));

/** The form's fields as the API takes them; the due date is typed on the site's clock and sent as an instant (DueField). */
const actionFormSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, { error: 'Enter a title.' })
    .max(ACTION_TITLE_MAX_LENGTH, { error: `Use at most ${ACTION_TITLE_MAX_LENGTH} characters.` }),
  description: z
    .string()
    .trim()
    .max(ACTION_DESCRIPTION_MAX_LENGTH, { error: `Use at most ${ACTION_DESCRIPTION_MAX_LENGTH} characters.` })
    .transform((value) => (value === '' ? null : value)),
  priority: z.enum(ACTION_PRIORITIES),
  assignee_id: z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : value === '' ? null : value)),
  due_at: z
    .string()
    .refine((value) => value === '' || !Number.isNaN(new Date(value).getTime()), { error: 'Enter a date and time.' })
    .transform((value) => (value === '' ? undefined : new Date(value).toISOString())),
});

export type ActionFormValues = z.output<typeof actionFormSchema>;

interface ActionFormProps {
  /** Editing an action, or opening a new one with these starting values. */
  initial?: Partial<Pick<Action, 'title' | 'description' | 'priority' | 'assignee_id' | 'due_at'>>;
  /** Members who can work actions; absent when the caller may not choose (an inspector opens actions for themselves). */
  assignees?: Choice[];
  submitLabel: string;
  pending: boolean;
  /** Editing: the due date may move but not go away. */
  dueRequired?: boolean;
  /** The site's zone, whose clock the due time is typed on; without it, the page's site (SiteTimeZone). */
  timeZone?: string;
  onSubmit: (values: ActionFormValues, helpers: SubmitHelpers) => void;
  onCancel?: () => void;
  label: string;
}

/** Title, description, priority, assignee and due date of an action: for opening one and for editing it. */
export function ActionForm({ initial = {}, assignees, submitLabel, pending, dueRequired = false, timeZone, onSubmit, onCancel, label }: ActionFormProps) {
  const { failure, handleSubmit } = useValidatedSubmit(actionFormSchema, onSubmit);
  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-label={label}>
      <FormAlert message={failure?.message} />
      <TextField
        label="Title"
        name="title"
        required
        maxLength={ACTION_TITLE_MAX_LENGTH}
        defaultValue={initial.title ?? ''}
        hint="What needs fixing, in a line."
        error={failure?.fieldErrors.title}
      />
      <TextAreaField
        label="Description"
        name="description"
        rows={3}
        maxLength={ACTION_DESCRIPTION_MAX_LENGTH}
        defaultValue={initial.description ?? ''}
        hint="Optional: where exactly, what was seen, what to do."
        error={failure?.fieldErrors.description}
      />
      <SelectField
        label="Priority"
        name="priority"
        options={priorityOptions}
        defaultValue={(initial.priority ?? 'medium') satisfies ActionPriority}
        error={failure?.fieldErrors.priority}
      />
      {assignees ? (
        <SelectField
          label="Assignee"
          name="assignee_id"
          options={[{ value: '', label: 'Unassigned (a manager picks someone later)' }, ...assignees]}
          defaultValue={initial.assignee_id ?? ''}
          error={failure?.fieldErrors.assignee_id}
        />
      ) : null}
      <DueField
        required={dueRequired}
        defaultValue={initial.due_at}
        timeZone={timeZone}
        hint={dueRequired ? undefined : 'Leave empty for the priority’s default.'}
        error={failure?.fieldErrors.due_at}
        pastMeaning="the action will be overdue at once"
      />
      <div className="button-row">
        <Button type="submit" pending={pending}>
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button variant="link" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
