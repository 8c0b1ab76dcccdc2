import { errorCatalogue } from '@schemas/errors';
import { DEFAULT_TITLE_PATTERN, isoDuration, scheduleCreateSchema, type ScheduleDetail, type ScheduleUpdate } from '@schemas/schedules';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { describeError } from '@/lib/errors';
import { validateForm } from '@/lib/form-values';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { useCreateSchedule, useUpdateSchedule } from '../api/save-schedule';
import { buildRecurrence, defaultRecurrence, recurrenceDraftOf, type RecurrenceDraft } from '../utils/recurrence-builder';
import { scheduleWords } from '../utils/recurrence-words';
import { AssignmentFields, type Assignment, type PersonChoice } from './assignment-fields';
import { DraftPreview } from './draft-preview';
import { RecurrenceFields } from './recurrence-fields';
import { SitePicker, type SiteFinder, type SiteOption } from './site-picker';

export interface TemplateOption {
  id: string;
  name: string;
  latestVersion: number;
}

interface ScheduleEditorProps {
  orgId: string;
  /** The schedule being edited; none for a new one. */
  schedule?: ScheduleDetail;
  /** Published templates. */
  templates: TemplateOption[];
  /** Members who may fill in inspections. */
  people: PersonChoice[];
  finder: SiteFinder;
  /** Today on this device: a new schedule starts today. */
  today: string;
  onSaved: (schedule: ScheduleDetail, created: boolean) => void;
  onCancel: () => void;
}

const MINUTES_PER_DAY = 1440;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A due window as typed (days after the start's day, and a time that day) in minutes, or what is wrong with it. */
export function dueAfterOf(timeOfDay: string, dueDays: string, dueTime: string): { minutes: number | null; problem?: string } {
  if (!/^\d\d:\d\d$/.test(timeOfDay) || !/^\d\d:\d\d$/.test(dueTime)) return { minutes: null, problem: 'Enter the time it is due, e.g. 17:00.' };
  if (!/^\s*\d{1,3}\s*$/.test(dueDays)) return { minutes: null, problem: 'Use a whole number of days from 0 to 366.' };
  const minutes = Number(dueDays) * MINUTES_PER_DAY + minutesOf(dueTime) - minutesOf(timeOfDay);
  if (minutes < 1) return { minutes: null, problem: 'Make it due after it starts: a later time, or a day or more later.' };
  if (minutes > 366 * MINUTES_PER_DAY) return { minutes: null, problem: 'Use a due window of at most 366 days.' };
  return { minutes };
}

/** A saved due window as the form shows it: days after the start's day and the time it is due. */
function dueFieldsOf(timeOfDay: string, dueAfter: string): { days: string; time: string } {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(dueAfter);
  const minutes = match ? (Number(match[1] ?? 0) * 24 + Number(match[2] ?? 0)) * 60 + Number(match[3] ?? 0) : 9 * 60;
  const total = minutesOf(timeOfDay) + minutes;
  return { days: String(Math.floor(total / MINUTES_PER_DAY)), time: clock(total % MINUTES_PER_DAY) };
}

function assignmentOf(schedule: ScheduleDetail | undefined): Assignment {
  if (schedule?.assignee_id) return { kind: 'person', assigneeId: schedule.assignee_id, rotation: [] };
  if (schedule && schedule.rotation_user_ids.length > 0) return { kind: 'rotation', assigneeId: '', rotation: schedule.rotation_user_ids };
  return { kind: 'anyone', assigneeId: '', rotation: [] };
}

/** The api's field of an error, as the form places it: a site's own id, or the add and remove lists, count as the sites. */
function fieldOf(path: string): string {
  const field = path.split('.')[0];
  return field === 'add_site_ids' || field === 'remove_site_ids' ? 'site_ids' : field;
}

/**
 * A schedule's editor, for a new one and for changes: the template, the sites, who does it, how it
 * repeats, when each occurrence starts and is due, its titles — with the rule in plain words and
 * each site's next occurrences as it is typed (DraftPreview). A change sends only what changed,
 * so nothing else moves the future occurrences.
 */
export function ScheduleEditor({ orgId, schedule, templates, people, finder, today, onSaved, onCancel }: ScheduleEditorProps) {
  const createSchedule = useCreateSchedule();
  const updateSchedule = useUpdateSchedule();
  const idempotency = useIdempotencyKey();
  const startTime = schedule?.time_of_day ?? '08:00';
  const initialDue = schedule ? dueFieldsOf(startTime, schedule.due_after) : { days: '0', time: '17:00' };
  const [name, setName] = useState(schedule?.name ?? '');
  const [templateId, setTemplateId] = useState(schedule?.template_id ?? '');
  const [sites, setSites] = useState<SiteOption[]>(() => schedule?.sites.map(({ id, name, timezone }) => ({ id, name, timezone })) ?? []);
  const [assignment, setAssignment] = useState<Assignment>(() => assignmentOf(schedule));
  const [startDate, setStartDate] = useState(schedule?.start_date ?? today);
  const [recurrence, setRecurrence] = useState<RecurrenceDraft>(() =>
    schedule ? recurrenceDraftOf(schedule.rrule, schedule.start_date, schedule.end_date) : defaultRecurrence(today),
  );
  const [timeOfDay, setTimeOfDay] = useState(startTime);
  const [dueDays, setDueDays] = useState(initialDue.days);
  const [dueTime, setDueTime] = useState(initialDue.time);
  const [titlePattern, setTitlePattern] = useState(schedule?.title_pattern ?? DEFAULT_TITLE_PATTERN);
  const [failure, setFailure] = useState<{ message?: string; fieldErrors: Record<string, string> } | null>(null);
  const [notice, setNotice] = useState<string | undefined>();
  const formRef = useRef<HTMLFormElement>(null);

  const built = buildRecurrence(recurrence);
  const due = dueAfterOf(timeOfDay, dueDays, dueTime);
  const ruleOk = Object.keys(built.problems).length === 0;
  const template = templates.find((option) => option.id === templateId);
  const templateName = template?.name ?? (schedule?.template_id === templateId ? schedule.template_name : null);
  const peopleNames = useMemo(() => new Map(people.map((person) => [person.value, person.label])), [people]);
  const words = ruleOk
    ? scheduleWords({ rrule: built.rrule, startDate, endDate: built.endDate, timeOfDay, dueAfterMinutes: due.minutes, today })
    : null;
  // Problems shown as they are typed: the builder's own, and the due window's.
  const live: Record<string, string> = { ...built.problems, ...(due.problem ? { due_after: due.problem } : {}) };
  const errors: Record<string, string | undefined> = { ...live, ...failure?.fieldErrors };
  // A server field error stays until its field is changed; the live ones follow the form.
  const clear = (...fields: string[]) =>
    setFailure((current) => (current ? { ...current, fieldErrors: Object.fromEntries(Object.entries(current.fieldErrors).filter(([field]) => !fields.includes(field))) } : current));

  const templateOptions = [
    { value: '', label: templates.length === 0 ? 'No published templates' : 'Choose a template' },
    ...templates.map((option) => ({ value: option.id, label: `${option.name} (version ${option.latestVersion})` })),
    // A schedule's template may since be archived: it stays chosen until another is.
    ...(schedule && !templates.some((option) => option.id === schedule.template_id) ? [{ value: schedule.template_id, label: `${schedule.template_name} (not published)` }] : []),
  ];

  function fail(error: unknown) {
    const described = describeError(error);
    const fieldErrors: Record<string, string> = {};
    for (const [path, message] of Object.entries(described.fieldErrors)) fieldErrors[fieldOf(path)] ??= message;
    setFailure({ message: described.message, fieldErrors });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(undefined);
    const body = {
      ...(name.trim() ? { name: name.trim() } : {}),
      template_id: templateId,
      site_ids: sites.map((site) => site.id),
      rrule: built.rrule,
      start_date: startDate,
      end_date: built.endDate,
      time_of_day: timeOfDay,
      due_after: due.minutes === null ? '' : isoDuration(due.minutes),
      assignee_id: assignment.kind === 'person' ? assignment.assigneeId || null : null,
      rotation_user_ids: assignment.kind === 'rotation' ? assignment.rotation : [],
      title_pattern: titlePattern,
    };
    const checked = validateForm(scheduleCreateSchema, body);
    const fieldErrors: Record<string, string> = { ...live };
    for (const [path, message] of Object.entries(checked.fieldErrors ?? {})) {
      // A rule the builder already says is incomplete needs no second message.
      if (fieldOf(path) === 'rrule' && !ruleOk) continue;
      fieldErrors[fieldOf(path)] ??= message;
    }
    if (!templateId) fieldErrors.template_id = 'Choose a published template.';
    if (assignment.kind === 'person' && !assignment.assigneeId) fieldErrors.assignee_id = 'Choose a person, or let anyone claim it.';
    if (assignment.kind === 'rotation' && assignment.rotation.length === 0) fieldErrors.rotation_user_ids = 'Add at least one person, or let anyone claim it.';
    if (Object.keys(fieldErrors).length > 0 || !checked.data) {
      setFailure({ message: errorCatalogue.validation_failed.title, fieldErrors });
      // To the first field that needs attention, once its message is shown.
      requestAnimationFrame(() => {
        const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], .field-error');
        if (first?.matches('[aria-invalid="true"]')) first.focus();
        else first?.scrollIntoView({ block: 'center' });
      });
      return;
    }
    setFailure(null);
    const data = checked.data;
    if (!schedule) {
      createSchedule.mutate(
        { orgId, body: data, idempotencyKey: idempotency.keyFor(data) },
        {
          onSuccess: (created) => {
            idempotency.reset();
            onSaved(created, true);
          },
          onError: fail,
        },
      );
      return;
    }
    const changes: ScheduleUpdate = {};
    if (data.name !== undefined && data.name !== schedule.name) changes.name = data.name;
    if (data.template_id !== schedule.template_id) changes.template_id = data.template_id;
    if (data.rrule !== schedule.rrule) changes.rrule = data.rrule;
    if (data.start_date !== schedule.start_date) changes.start_date = data.start_date;
    if ((data.end_date ?? null) !== schedule.end_date) changes.end_date = data.end_date ?? null;
    if (data.time_of_day !== schedule.time_of_day) changes.time_of_day = data.time_of_day;
    if (data.due_after !== schedule.due_after) changes.due_after = data.due_after;
    if (data.title_pattern !== undefined && data.title_pattern !== schedule.title_pattern) changes.title_pattern = data.title_pattern;
    const rotation = data.rotation_user_ids ?? [];
    if ((data.assignee_id ?? null) !== schedule.assignee_id || rotation.join() !== schedule.rotation_user_ids.join()) {
      changes.assignee_id = data.assignee_id ?? null;
      changes.rotation_user_ids = rotation;
    }
    const saved = new Set(schedule.sites.map((site) => site.id));
    const chosen = new Set(data.site_ids);
    const add = data.site_ids.filter((id) => !saved.has(id));
    const remove = [...saved].filter((id) => !chosen.has(id));
    if (add.length > 0) changes.add_site_ids = add;
    if (remove.length > 0) changes.remove_site_ids = remove;
    if (Object.keys(changes).length === 0) {
      setNotice('Nothing was changed.');
      return;
    }
    updateSchedule.mutate({ orgId, scheduleId: schedule.id, body: changes }, { onSuccess: (updated) => onSaved(updated, false), onError: fail });
  }

  const pending = createSchedule.isPending || updateSchedule.isPending;
  // Sent with no network: react-query holds it and sends it once the network is back.
  const waiting = createSchedule.isPaused || updateSchedule.isPaused;
  return (
    <div className="schedule-editor">
      <form ref={formRef} className="form schedule-form" onSubmit={submit} noValidate aria-label={schedule ? `Edit ${schedule.name}` : 'New schedule'}>
        <FormAlert message={failure?.message} />
        <FormAlert tone="success" message={notice} />
        {waiting ? (
          <p className="form-alert form-alert-info" role="status">
            You're offline: the schedule is saved when the network is back. Keep this page open until then.
          </p>
        ) : null}
        <SelectField
          label="Template"
          name="template_id"
          options={templateOptions}
          value={templateId}
          onChange={(event) => {
            setTemplateId(event.target.value);
            clear('template_id');
          }}
          hint="Each occurrence runs the template's latest published version when its inspection is made."
          error={errors.template_id}
        />
        <TextField
          label="Name"
          name="name"
          value={name}
          maxLength={120}
          onChange={(event) => {
            setName(event.target.value);
            clear('name');
          }}
          hint={schedule ? undefined : "Optional: the template's name when left empty."}
          error={errors.name}
        />
        <SitePicker
          finder={finder}
          chosen={sites}
          onChange={(next) => {
            setSites(next);
            clear('site_ids');
          }}
          error={errors.site_ids}
        />
        <AssignmentFields
          assignment={assignment}
          onChange={(next) => {
            setAssignment(next);
            clear('assignee_id', 'rotation_user_ids');
          }}
          people={people}
          errors={{ assignee_id: errors.assignee_id, rotation_user_ids: errors.rotation_user_ids }}
        />
        <TextField
          label="Start date"
          name="start_date"
          type="date"
          value={startDate}
          onChange={(event) => {
            setStartDate(event.target.value);
            clear('start_date', 'end_date');
          }}
          hint="The first day it may occur, at each site."
          error={errors.start_date}
        />
        <RecurrenceFields
          draft={recurrence}
          onChange={(next) => {
            setRecurrence(next);
            clear('rrule', 'end_date');
          }}
          errors={errors}
        />
        <fieldset className="fieldset">
          <legend>Time, at each site's own clock</legend>
          <div className="form-row">
            <TextField
              label="Starts at"
              name="time_of_day"
              type="time"
              value={timeOfDay}
              onChange={(event) => {
                setTimeOfDay(event.target.value);
                clear('time_of_day', 'due_after');
              }}
              error={errors.time_of_day}
            />
            <TextField
              label="Days until due"
              name="due_days"
              inputMode="numeric"
              value={dueDays}
              onChange={(event) => {
                setDueDays(event.target.value);
                clear('due_after');
              }}
            />
            <TextField
              label="Due at"
              name="due_time"
              type="time"
              value={dueTime}
              onChange={(event) => {
                setDueTime(event.target.value);
                clear('due_after');
              }}
            />
          </div>
          {errors.due_after ? (
            <p className="field-error" role="alert">
              {errors.due_after}
            </p>
          ) : null}
          <p className="muted">0 days: due the same day. The times are each site's own: 08:00 is 08:00 at every site, in its time zone, before and after the clocks change.</p>
        </fieldset>
        <TextField
          label="Title of each inspection"
          name="title_pattern"
          value={titlePattern}
          maxLength={200}
          onChange={(event) => {
            setTitlePattern(event.target.value);
            clear('title_pattern');
          }}
          hint="{template}, {site} and {date} (the local date) are filled in."
          error={errors.title_pattern}
        />
        <DraftPreview
          draft={{
            words,
            rrule: ruleOk ? built.rrule : null,
            startDate,
            endDate: built.endDate,
            timeOfDay,
            dueAfterMinutes: due.minutes,
            sites,
            titlePattern,
            templateName,
            rotation: assignment.kind === 'rotation' ? assignment.rotation.map((id) => peopleNames.get(id) ?? 'A former member') : [],
          }}
        />
        <div className="button-row sticky-bar">
          <Button type="submit" pending={pending}>
            {schedule ? 'Save changes' : 'Create schedule'}
          </Button>
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            {schedule ? 'Discard changes' : 'Cancel'}
          </Button>
        </div>
      </form>
    </div>
  );
}
