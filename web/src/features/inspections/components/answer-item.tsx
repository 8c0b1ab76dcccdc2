import type { TemplateItem } from '@schemas/templates';
import { itemFails } from '@schemas/template-items';
import { CircleCheck, CircleX } from 'lucide-react';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { CharacterCount, useCharacterLimit } from '@/components/ui/character-count';
import type { ChangedElsewhere } from '../hooks/use-inspection-live';
import type { ItemDraft } from '../hooks/use-answer-autosave';
import type { Answer, Attachment } from '../types';
import { describeValue, isAnswered } from '../utils/answer-values';
import type { InspectionPresence } from '../utils/inspection-channel';
import { AnswerInput } from './answer-input';
import type { PhotoEvidenceProps } from './photo-evidence';

// Photos (thumbnails, adding, the upload steps) load when a photo item is shown.
const PhotoEvidence = lazy(() => import('./photo-evidence').then((module) => ({ default: module.PhotoEvidence })));

const NOTE_MAX = 2000;
// Kinds whose answer is a tap, not typing: clearing one is its own control, never a second tap.
const clearable = new Set<TemplateItem['kind']>(['pass_fail', 'yes_no', 'single_choice', 'date']);
const noIds: ReadonlySet<string> = new Set();
const noProgress: ReadonlyMap<string, { sent: number; total: number }> = new Map();

interface AnswerItemProps {
  orgId: string;
  inspectionId: string;
  item: TemplateItem;
  answer: Answer | undefined;
  draft: ItemDraft | undefined;
  attachments: Attachment[];
  editable: boolean;
  /** Others whose presence is on this item. */
  othersHere: InspectionPresence[];
  changedElsewhere: ChangedElsewhere | undefined;
  onEdit: (change: { value?: unknown; note?: string | null }, immediate: boolean) => void;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  onRetry: () => void;
  onDismissChange: () => void;
  /** Whether the browser is online: a waiting change is "on this device" or "saving". */
  online: boolean;
  /** Photo items: their photos waiting on the device, and how to add or drop one. */
  photoQueue?: Pick<PhotoEvidenceProps, 'queued' | 'sending' | 'progress' | 'onAdd' | 'onDiscard'>;
  /** Below the item: its corrective actions (composed by the page). */
  extras?: ReactNode;
}

function rangeHint(item: TemplateItem): string | null {
  if (item.kind !== 'number' || (item.min === null && item.max === null)) return null;
  const unit = item.unit ? ` ${item.unit}` : '';
  if (item.min !== null && item.max !== null) return `Expected ${item.min} to ${item.max}${unit}.`;
  return item.min !== null ? `Expected at least ${item.min}${unit}.` : `Expected at most ${item.max}${unit}.`;
}

/** One item of the run page: its input, note, photos, state and who else is on it. */
export function AnswerItem(props: AnswerItemProps) {
  const { orgId, inspectionId, item, answer, draft, attachments, editable, othersHere, changedElsewhere } = props;
  const id = useId();
  const labelId = `${id}-label`;
  const controlId = `${id}-control`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const shown = draft !== undefined;
  const value = shown ? draft.value : (answer?.value ?? null);
  const note = shown ? draft.note : (answer?.note ?? null);
  const [noteOpen, setNoteOpen] = useState(false);
  const noteLimit = useCharacterLimit(NOTE_MAX);
  const error = draft?.state === 'invalid' || draft?.state === 'failed' || draft?.state === 'retrying' ? draft.error : undefined;
  const valid = draft?.state !== 'invalid';
  const failed = valid ? itemFails(item, value) : null;
  const answered = valid && isAnswered(item, value, attachments);
  const hint = [item.help, rangeHint(item)].filter(Boolean).join(' ');
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const itemAttachments = attachments.filter((attachment) => attachment.item_key === item.key);

  return (
    <div className={`answer-item${failed ? ' answer-item-failed' : ''}`} data-item-key={item.key} id={`item-${item.key}`}>
      <div className="answer-item-heading">
        {item.kind === 'number' || item.kind === 'text' || item.kind === 'date' ? (
          <label id={labelId} htmlFor={controlId} className="answer-label">
            {item.label}
          </label>
        ) : (
          <span id={labelId} className="answer-label">
            {item.label}
          </span>
        )}
        {item.required ? <span className="answer-required">Required</span> : null}
        {answered ? (
          <CircleCheck className="answer-done" size={22} role="img" aria-label="Answered" />
        ) : null}
        {failed ? (
          <span className="answer-failed">
            <CircleX aria-hidden="true" size={18} />
            Failed
          </span>
        ) : null}
        {othersHere.length > 0 ? (
          <span className="answer-others">
            {othersHere.map((presence) => (
              <span key={presence.user_id} className="avatar" title={`${presence.display_name} is on this item`}>
                {initials(presence.display_name)}
              </span>
            ))}
            <span className="visually-hidden">{othersHere.map((presence) => presence.display_name).join(', ')} on this item</span>
          </span>
        ) : null}
      </div>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}

      {item.kind === 'photo' ? (
        <Suspense fallback={<div className="photos photos-loading" aria-busy="true" />}>
          <PhotoEvidence
            orgId={orgId}
            inspectionId={inspectionId}
            item={item}
            attachments={itemAttachments}
            editable={editable}
            online={props.online}
            queued={props.photoQueue?.queued ?? []}
            sending={props.photoQueue?.sending ?? noIds}
            progress={props.photoQueue?.progress ?? noProgress}
            onAdd={props.photoQueue?.onAdd ?? (async () => undefined)}
            onDiscard={props.photoQueue?.onDiscard ?? (() => undefined)}
          />
        </Suspense>
      ) : (
        <AnswerInput
          item={item}
          value={value}
          labelId={labelId}
          controlId={controlId}
          describedBy={describedBy}
          invalid={error !== undefined}
          disabled={!editable}
          onChange={(next, immediate) => props.onEdit({ value: next }, immediate)}
        />
      )}
      {editable && value !== null && value !== undefined && clearable.has(item.kind) ? (
        <div>
          <button
            type="button"
            className="button button-link"
            aria-label={`Clear the answer to ${item.label}`}
            onClick={(event) => {
              props.onEdit({ value: null }, true);
              // The button goes with the answer: focus stays on the item's first control.
              event.currentTarget.closest('.answer-item')?.querySelector<HTMLElement>('button, input')?.focus();
            }}
          >
            Clear answer
          </button>
        </div>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
          {draft?.state === 'retrying' ? (
            <>
              {' '}Your change is on this device and will be sent again.{' '}
              <button type="button" className="button button-link" onClick={props.onRetry}>
                Try again now
              </button>
            </>
          ) : draft?.state === 'failed' ? (
            <>
              {' '}
              <button type="button" className="button button-link" onClick={props.onTakeTheirs}>
                Discard my change
              </button>
            </>
          ) : null}
        </p>
      ) : null}

      {draft?.state === 'conflict' ? (
        <div className="form-alert form-alert-info answer-conflict" role="alert">
          <p>
            {draft.theirs?.answered_by_name ?? 'Someone else'} saved “{describeValue(item, draft.theirs?.value ?? null)}” while you
            were editing. Yours: “{describeValue(item, draft.value)}”.
          </p>
          <div className="button-row">
            <Button variant="secondary" onClick={props.onKeepMine}>
              Keep mine
            </Button>
            <Button variant="secondary" onClick={props.onTakeTheirs}>
              Use theirs
            </Button>
          </div>
        </div>
      ) : changedElsewhere ? (
        <p className="answer-changed" role="status">
          Changed by {changedElsewhere.name}.{' '}
          <button type="button" className="button button-link" onClick={props.onDismissChange}>
            OK
          </button>
        </p>
      ) : null}

      {note !== null || noteOpen ? (
        <div className="field answer-note">
          <label htmlFor={`${id}-note`}>Note</label>
          <textarea
            id={`${id}-note`}
            rows={2}
            maxLength={NOTE_MAX}
            value={note ?? ''}
            disabled={!editable}
            aria-label={`Note for ${item.label}`}
            onPaste={noteLimit.onPaste}
            onChange={(event) => {
              noteLimit.onEdit();
              props.onEdit({ note: event.target.value.trim() === '' ? null : event.target.value }, false);
            }}
          />
          <CharacterCount length={note?.length ?? 0} max={NOTE_MAX} kept={noteLimit.kept} />
        </div>
      ) : editable ? (
        <div>
          <button type="button" className="button button-link" onClick={() => setNoteOpen(true)} aria-label={`Add a note to ${item.label}`}>
            Add a note
          </button>
        </div>
      ) : null}

      <ItemSaveState draft={draft} answer={answer} online={props.online} />
      {props.extras}
    </div>
  );
}

function ItemSaveState({ draft, answer, online }: { draft: ItemDraft | undefined; answer: Answer | undefined; online: boolean }) {
  const text =
    draft?.state === 'saving' || (draft?.state === 'pending' && online)
      ? 'Saving…'
      : draft?.state === 'pending'
        ? 'Saved on this device'
        : draft?.state === 'retrying'
          ? 'Not sent yet — on this device'
          : !draft && answer?.answered_by_name && answer.answered_at
            ? `Answered by ${answer.answered_by_name}`
            : '';
  return <p className="answer-save-state muted">{text}</p>;
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts[parts.length - 1][0] ?? '') : '')).toUpperCase();
}
