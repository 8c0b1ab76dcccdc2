import type { Role } from '@schemas/common';
import { canFillInspection, canReviewInspections, canScheduleInspections } from '@schemas/inspection-states';
import type { TemplateItem } from '@schemas/templates';
import { itemFails, itemsOf } from '@schemas/template-items';
import { CircleCheck, MapPin, Users } from 'lucide-react';
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Accordion, AccordionSection } from '@/components/ui/accordion';
import { ShownInTurn } from '@/components/ui/shown-in-turn';
import { onFirstInteractionOr } from '@/lib/first-interaction';
import { formatDateTime, formatDistance } from '@/lib/format';
import { SiteTimeZone } from '@/lib/site-time-zone';
import { useAnswerAutosave } from '../hooks/use-answer-autosave';
import { useInspectionLive } from '../hooks/use-inspection-live';
import { useVisibility } from '../hooks/use-visibility';
import type { InspectionDetail } from '../types';
import { answersByKey, describeValue, isAnswered, loadAnswerChecks } from '../utils/answer-values';
import { formatScore } from '../utils/inspection-format';
import { AnswerItem, initials } from './answer-item';
import { InspectionStatusBadge, OverdueBadge } from './inspection-status-badge';
import { SaveStatusBar } from './save-status-bar';
import { SubmitInspectionPanel } from './submit-inspection-panel';
import './inspections.css';

// Mounted in turns (ShownInTurn): about as much as a mid-range phone renders well within a frame.
const SECTIONS_PER_TURN = 10;
const ITEMS_PER_TURN = 3;

// Only an inspection whose rules hid answered items shows them.
const HiddenAnswers = lazy(() => import('./hidden-answers').then((module) => ({ default: module.HiddenAnswers })));
// The review decision (and its confirmation) and the start control each show in one state of the
// inspection, never beside the answers being filled in: not part of the run page's first load.
const ReviewInspectionPanel = lazy(() => import('./review-inspection-panel').then((module) => ({ default: module.ReviewInspectionPanel })));
const StartInspectionControl = lazy(() => import('./start-inspection-control').then((module) => ({ default: module.StartInspectionControl })));
// A manager's "Cancel" closes the page, below everything: it loads on the first tap or key press.
const CancelInspectionControl = lazy(() => import('./cancel-inspection-control').then((module) => ({ default: module.CancelInspectionControl })));

/**
 * What the page shows of an item's corrective actions, rendered by whoever composes the page (the
 * actions feature): beside each item, and in the failed-items summary of a submitted inspection.
 * `suggestedTitle` is "<label> — <answer>", as a new action on the item would be titled.
 */
export type ItemActionsRenderer = (item: TemplateItem, suggestedTitle: string, place: 'item' | 'summary') => ReactNode;

interface InspectionRunProps {
  orgId: string;
  orgSlug: string;
  userId: string;
  displayName: string;
  role: Role;
  inspection: InspectionDetail;
  itemActions?: ItemActionsRenderer;
}

/**
 * The run / review page of one inspection: answer items section by section, live with everyone else
 * on it. Rendered again only when its props change (memo): the screen around it renders for reasons
 * of its own (its queries' states), and this page is hundreds of elements.
 */
export const InspectionRun = memo(function InspectionRun({ orgId, orgSlug, userId, displayName, role, inspection, itemActions }: InspectionRunProps) {
  const sections = inspection.template.definition.sections;
  const items = useMemo(() => itemsOf(inspection.template.definition), [inspection.template.definition]);
  const itemsByKey = useMemo(() => new Map(items.map((item) => [item.key, item])), [items]);
  const sectionOfItem = useMemo(() => {
    const map = new Map<string, string>();
    for (const section of sections) for (const item of section.items) map.set(item.key, section.key);
    return map;
  }, [sections]);
  const answers = useMemo(() => answersByKey(inspection.answers), [inspection.answers]);

  const mayFill = canFillInspection(role, userId, inspection);
  const editable = mayFill && inspection.status === 'in_progress';
  // The answer checks load on the first tap or key press, or a few seconds after the page shows
  // (they are not part of its first load; until then the api's own check answers).
  useEffect(() => {
    if (!editable) return;
    return onFirstInteractionOr(3000, () => void loadAnswerChecks().catch(() => undefined));
  }, [editable]);
  const autosave = useAnswerAutosave({ orgId, inspectionId: inspection.id, userId, items: itemsByKey, answers });
  const [focusedItemKey, setFocusedItemKey] = useState<string | null>(null);
  const isEditing = useCallback(
    (itemKey: string) => itemKey === focusedItemKey || autosave.drafts.has(itemKey),
    [focusedItemKey, autosave.drafts],
  );
  const live = useInspectionLive({ orgId, inspectionId: inspection.id, userId, displayName, focusedItemKey, isEditing });
  const [openSections, setOpenSections] = useState<string[]>(() => (sections[0] ? [sections[0].key] : []));
  const mayCancel = (inspection.status === 'scheduled' || inspection.status === 'in_progress') && canScheduleInspections(role);
  const [showCancel, setShowCancel] = useState(false);
  useEffect(() => (mayCancel ? onFirstInteractionOr(3000, () => setShowCancel(true)) : undefined), [mayCancel]);

  const valueOf = (item: TemplateItem) => {
    const draft = autosave.drafts.get(item.key);
    if (draft) return draft.state === 'invalid' ? null : draft.value;
    return answers.get(item.key)?.value ?? null;
  };
  // Which items show for the answers as this page has them (saved, typed here, or arrived live
  // from someone else): the same rules submit and scoring apply in the database. A hidden item's
  // answer is kept but counts for nothing, so progress, "next unanswered" and submit skip it.
  const visibility = useVisibility(inspection.template.definition, (key) => {
    const item = itemsByKey.get(key);
    return item ? valueOf(item) : null;
  });
  const hiddenItems = new Set(visibility.hiddenItems);
  const hiddenSections = new Set(visibility.hiddenSections);
  const shownItems = items.filter((item) => !hiddenItems.has(item.key));
  // Once per render: the progress, the summary and "next unanswered" all read it.
  const answeredKeys = new Set(shownItems.filter((item) => isAnswered(item, valueOf(item), inspection.attachments)).map((item) => item.key));
  const answered = (item: TemplateItem) => answeredKeys.has(item.key);
  const missing = shownItems.filter((item) => item.required && !answered(item));
  // Answers given while their item showed, kept but not counted while it is hidden.
  const keptHidden = items.filter((item) => hiddenItems.has(item.key) && isAnswered(item, valueOf(item), inspection.attachments));

  function showItem(itemKey: string) {
    const sectionKey = sectionOfItem.get(itemKey);
    if (sectionKey) setOpenSections((open) => (open.includes(sectionKey) ? open : [...open, sectionKey]));
    // Once the section has opened (its items mount then, a few at a time): bring the item into view and put focus on its first control.
    const giveUpAt = performance.now() + 3000;
    const whenShown = () => {
      const element = document.getElementById(`item-${itemKey}`);
      if (!element) {
        if (performance.now() < giveUpAt) requestAnimationFrame(whenShown);
        return;
      }
      element.scrollIntoView({ behavior: 'smooth', block: 'center' });
      const control = element.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), button:not([disabled]), canvas');
      (control ?? element).focus({ preventScroll: true });
    };
    requestAnimationFrame(whenShown);
  }

  function nextUnanswered() {
    // From the item after the one in focus (hidden or not), round to the start; hidden ones are skipped.
    const start = focusedItemKey ? items.findIndex((item) => item.key === focusedItemKey) + 1 : 0;
    const ordered = [...items.slice(start), ...items.slice(0, start)];
    const next = ordered.find((item) => !hiddenItems.has(item.key) && !answered(item));
    if (next) showItem(next.key);
  }

  const othersOn = (itemKey: string) => live.others.filter((presence) => presence.item_key === itemKey);
  const score = formatScore(inspection);
  const allAnswered = shownItems.every(answered);
  const suggestedTitle = (item: TemplateItem) => {
    const value = valueOf(item);
    return value === null || value === undefined ? item.label : `${item.label} — ${describeValue(item, value)}`;
  };
  // Once submitted, the failed items lead the page (each with its action), in the template's order.
  const submittedOnce = inspection.status === 'submitted' || inspection.status === 'approved' || inspection.status === 'changes_requested';
  const failedItems = submittedOnce ? shownItems.filter((item) => answers.get(item.key)?.failed) : [];

  return (
    <div className="stack inspection-run">
      <dl className="details inspection-facts">
        <div>
          <dt>Site</dt>
          <dd>
            <span className="inline-icon">
              <MapPin aria-hidden="true" size={18} />
              <Link to={`/o/${orgSlug}/sites/${inspection.site_id}`}>{inspection.site_name}</Link>
            </span>
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd className="inline-icon">
            <InspectionStatusBadge status={inspection.status} />
            {inspection.overdue ? <OverdueBadge /> : null}
          </dd>
        </div>
        <div>
          <dt>Score</dt>
          <dd>
            {score ?? 'Not scored yet'}
            {inspection.failed_count > 0 ? ` · ${inspection.failed_count} failed` : ''}
          </dd>
        </div>
        <div>
          <dt>Assignee</dt>
          <dd>{inspection.assignee_name ?? 'Unassigned'}</dd>
        </div>
        {inspection.due_at ? (
          <div>
            <dt>Due</dt>
            <dd>{formatDateTime(inspection.due_at, inspection.site_timezone)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Template</dt>
          <dd>
            {inspection.template_name} (version {inspection.template_version})
          </dd>
        </div>
        {inspection.started_at ? (
          <div>
            <dt>Started</dt>
            <dd>
              {formatDateTime(inspection.started_at, inspection.site_timezone)}
              {inspection.start_distance_m !== null ? ` · ${formatDistance(inspection.start_distance_m)} from the site` : ' · without a location'}
              {inspection.start_outside_geofence ? (
                <>
                  {' '}
                  <span className="status-badge status-overdue">Outside the geofence</span>
                </>
              ) : null}
            </dd>
          </div>
        ) : null}
        {inspection.review_note ? (
          <div>
            <dt>Review note</dt>
            <dd>{inspection.review_note}</dd>
          </div>
        ) : null}
      </dl>

      <div className="presence" role="status">
        {live.others.length > 0 ? (
          <p className="inline-icon presence-line">
            <Users aria-hidden="true" size={18} />
            <span>Also here:</span>
            {live.others.map((presence) => {
              const on = presence.item_key ? itemsByKey.get(presence.item_key)?.label : undefined;
              return (
                <span key={presence.user_id} className="presence-person">
                  <span className="avatar" aria-hidden="true">
                    {initials(presence.display_name)}
                  </span>
                  {presence.display_name}
                  {on ? <span className="muted"> (on {on})</span> : null}
                </span>
              );
            })}
          </p>
        ) : null}
      </div>

      {inspection.status === 'submitted' && canReviewInspections(role) ? (
        <Suspense fallback={<section className="panel review-bar review-bar-loading" aria-busy="true" />}>
          <ReviewInspectionPanel orgId={orgId} inspectionId={inspection.id} failedCount={inspection.failed_count} assigneeName={inspection.assignee_name} />
        </Suspense>
      ) : null}

      {failedItems.length > 0 ? (
        <section className="panel" aria-labelledby="failed-heading">
          <h2 id="failed-heading">
            {failedItems.length} failed {failedItems.length === 1 ? 'item' : 'items'}
          </h2>
          <ul className="failed-summary">
            {failedItems.map((item) => (
              <li key={item.key} className="failed-summary-item">
                <a
                  href={`#item-${item.key}`}
                  onClick={(event) => {
                    event.preventDefault();
                    showItem(item.key);
                  }}
                >
                  {suggestedTitle(item)}
                </a>
                {itemActions?.(item, suggestedTitle(item), 'summary')}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {!mayFill && role === 'inspector' && inspection.status !== 'approved' && inspection.status !== 'canceled' ? (
        <p className="muted">This inspection is assigned to {inspection.assignee_name ?? 'someone else'}: only they or a manager can fill it in.</p>
      ) : null}

      {mayFill && (inspection.status === 'scheduled' || inspection.status === 'changes_requested') ? (
        <section className="panel" aria-labelledby="start-heading">
          <h2 id="start-heading">{inspection.status === 'scheduled' ? 'Start' : 'Continue'}</h2>
          <Suspense fallback={<div className="start-loading" aria-busy="true" />}>
            <StartInspectionControl orgId={orgId} inspection={inspection} />
          </Suspense>
        </section>
      ) : null}

      {editable ? (
        <SaveStatusBar
          summary={autosave.summary}
          answered={answeredKeys.size}
          total={shownItems.length}
          onRetry={autosave.retry}
          onNextUnanswered={allAnswered ? undefined : nextUnanswered}
          onShowAttention={() => autosave.summary.firstAttentionItem && showItem(autosave.summary.firstAttentionItem)}
        />
      ) : null}

      <Accordion type="multiple" value={openSections} onValueChange={setOpenSections}>
        {/* A long template mounts a few sections and items at a time (the first open section's
            first items at once): its first render is not one long task, nor is opening a section. */}
        <ShownInTurn items={sections.filter((section) => !hiddenSections.has(section.key))} first={1} step={SECTIONS_PER_TURN}>
          {(section) => {
            const sectionItems = section.items.filter((item) => !hiddenItems.has(item.key));
            const done = sectionItems.filter(answered).length;
            const complete = done === sectionItems.length && sectionItems.length > 0;
            return (
              <AccordionSection
                key={section.key}
                value={section.key}
                headingLevel={2}
                title={section.title}
                trailing={
                  <>
                    <span>
                      {done} of {sectionItems.length}
                    </span>
                    {complete ? <CircleCheck className="section-done" size={20} role="img" aria-label="complete" /> : null}
                  </>
                }
              >
                <div
                  className="answer-items"
                  onFocus={(event) => {
                    const key = (event.target as HTMLElement).closest<HTMLElement>('[data-item-key]')?.dataset.itemKey;
                    if (key && key !== focusedItemKey) setFocusedItemKey(key);
                  }}
                >
                  <ShownInTurn items={sectionItems} first={ITEMS_PER_TURN} step={ITEMS_PER_TURN}>
                    {(item) => (
                      <AnswerItem
                        key={item.key}
                        orgId={orgId}
                        inspectionId={inspection.id}
                        item={item}
                        answer={answers.get(item.key)}
                        draft={autosave.drafts.get(item.key)}
                        attachments={inspection.attachments}
                        editable={editable}
                        othersHere={othersOn(item.key)}
                        changedElsewhere={live.changedElsewhere.get(item.key)}
                        onEdit={(change, immediate) => autosave.edit(item.key, change, immediate ? 0 : undefined)}
                        onKeepMine={() => autosave.keepMine(item.key)}
                        onTakeTheirs={() => autosave.takeTheirs(item.key)}
                        onRetry={autosave.retry}
                        online={autosave.reachable}
                        photoQueue={
                          item.kind === 'photo'
                            ? {
                                queued: autosave.photos.filter((entry) => entry.itemKey === item.key),
                                sending: autosave.sending,
                                progress: autosave.progress,
                                onAdd: (files) => autosave.addPhotos(item.key, files),
                                onDiscard: autosave.discardPhoto,
                              }
                            : undefined
                        }
                        onDismissChange={() => live.dismissChange(item.key)}
                        extras={
                          inspection.status !== 'scheduled' ? (
                            // An action opened here is due on the site's clock.
                            <SiteTimeZone.Provider value={inspection.site_timezone}>{itemActions?.(item, suggestedTitle(item), 'item')}</SiteTimeZone.Provider>
                          ) : undefined
                        }
                      />
                    )}
                  </ShownInTurn>
                </div>
              </AccordionSection>
            );
          }}
        </ShownInTurn>
      </Accordion>

      {keptHidden.length > 0 ? (
        <Suspense fallback={null}>
          <HiddenAnswers entries={keptHidden.map((item) => ({ key: item.key, text: item.kind === 'photo' ? item.label : suggestedTitle(item) }))} />
        </Suspense>
      ) : null}

      {editable ? (
        <SubmitInspectionPanel
          orgId={orgId}
          inspectionId={inspection.id}
          missing={missing}
          answered={answeredKeys.size}
          total={shownItems.length}
          requiredTotal={shownItems.filter((item) => item.required).length}
          countFailed={() => shownItems.filter((item) => itemFails(item, valueOf(item))).length}
          itemsByKey={itemsByKey}
          settle={autosave.settle}
          waiting={autosave.summary.waiting}
          needsAttention={autosave.summary.needsAttention}
          online={autosave.reachable}
          onShowItem={showItem}
        />
      ) : null}
      {mayCancel && showCancel ? (
        <Suspense fallback={null}>
          <CancelInspectionControl orgId={orgId} inspectionId={inspection.id} />
        </Suspense>
      ) : null}
    </div>
  );
});
