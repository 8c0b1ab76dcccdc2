import { definitionSchema, DESCRIPTION_MAX_LENGTH, MAX_SECTIONS, templateUpdateSchema, type Template } from '@schemas/templates';
import { NAME_MAX_LENGTH } from '@schemas/common';
import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useEffect, useMemo, useReducer, useRef, type FormEvent } from 'react';
import { useBlocker } from 'react-router-dom';
import { Accordion } from '@/components/ui/accordion';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextAreaField } from '@/components/ui/textarea-field';
import { TextField } from '@/components/ui/text-field';
import { describeError } from '@/lib/errors';
import { validateForm } from '@/lib/form-values';
import { templateQueryOptions } from '../api/get-template';
import { usePublishTemplate } from '../api/publish-template';
import { useUpdateTemplate } from '../api/update-template';
import { draftBody, draftFingerprint, draftFromTemplate, draftItemsByKey, newItemKey, newSectionKey } from '../utils/draft';
import { editorReducer, initialEditorState, saveStatusText, type EditorState } from '../utils/editor-state';
import { itemCountText } from '../utils/template-format';
import { draftOpsFor } from './rule-editor';
import { SectionEditor } from './section-editor';
import { TemplateRunPreview } from './template-run-preview';
import '../templates.css';

interface TemplateEditorProps {
  orgId: string;
  /** The template as the server has it now (kept live by the organization's events). */
  template: Template;
  /** A message from the page before ("… was created."), until the next one replaces it. */
  initialNotice?: string;
}

/**
 * The draft of a template, edited in the page and saved as a whole with the revision it started
 * from, so that a save never silently replaces someone else's; publishing saves first. Its state
 * and every change to it are in utils/editor-state.ts; this component renders it, and runs the
 * saves and the focus, which are not state.
 */
export function TemplateEditor({ orgId, template, initialNotice }: TemplateEditorProps) {
  const queryClient = useQueryClient();
  const updateTemplate = useUpdateTemplate();
  const publishTemplate = usePublishTemplate();

  const [state, dispatch] = useReducer(editorReducer, undefined, () => initialEditorState(template, initialNotice));
  const { base, draft, errors, saveState } = state;
  // The state as last rendered, for a save that goes on after its click.
  const stateRef = useRef<EditorState>(state);
  stateRef.current = state;

  const fingerprint = useMemo(() => draftFingerprint(draft), [draft]);
  const baseFingerprint = useMemo(() => draftFingerprint(draftFromTemplate(base)), [base]);
  const dirty = fingerprint !== baseFingerprint;
  const busy = saveState !== 'idle';
  const totalItems = draft.sections.reduce((total, section) => total + section.items.length, 0);
  const itemsByKey = useMemo(() => draftItemsByKey(draft.sections), [draft.sections]);
  // Once per draft, not once per rule for every earlier item (templates reach MAX_ITEMS).
  const opsByKey = useMemo(() => new Map([...itemsByKey].map(([key, item]) => [key, draftOpsFor(item)])), [itemsByKey]);
  // The draft as the run page would get it; only while the preview is open.
  const previewDefinition = useMemo(() => {
    if (!state.previewOpen) return null;
    const parsed = definitionSchema.safeParse((draftBody(draft) as { definition: unknown }).definition);
    return parsed.success ? parsed.data : null;
  }, [state.previewOpen, draft]);

  // Focus follows the control a change moved or created (rendered by now).
  useEffect(() => {
    const key = state.focus?.key;
    if (!key) return;
    const target = document.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
    if (target && !(target as HTMLButtonElement).disabled) {
      target.focus();
    } else if (key.endsWith(':up') || key.endsWith(':down')) {
      // Moved to an end: its button in the other direction is the one still usable.
      const other = key.endsWith(':up') ? `${key.slice(0, -3)}:down` : `${key.slice(0, -5)}:up`;
      document.querySelector<HTMLElement>(`[data-focus="${CSS.escape(other)}"]`)?.focus();
    }
  }, [state.focus]);

  // The server's template changed (our own save, or someone else's through the live events); asked
  // again when the draft changes or a save ends, which the reducer's answer depends on.
  useEffect(() => {
    if (template !== base) dispatch({ type: 'serverChanged', template });
  }, [template, base, busy, dirty, fingerprint]);

  // Unsaved work is not left by closing or reloading the tab without a question.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Leaving for another page of the app asks first too.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    // Saved while asked: nothing is lost by going on.
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);
  const stayRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (blocker.state === 'blocked') stayRef.current?.focus();
  }, [blocker.state]);

  function focusLater(key: string) {
    dispatch({ type: 'focus', key });
  }

  function showProblems(fieldErrors: Record<string, string>, summary: string | undefined) {
    dispatch({ type: 'problems', fieldErrors, summary });
    // Once the sections with problems are open, the first problem gets the focus.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('.template-editor [aria-invalid="true"]')?.focus());
  }

  /** Saves the draft when it has changes; the template as saved, or null when it could not be. */
  async function save(): Promise<Template | null> {
    const sent = stateRef.current.draft;
    const sentFingerprint = draftFingerprint(sent);
    if (sentFingerprint === baseFingerprint) return base;
    const parsed = validateForm(templateUpdateSchema, { ...draftBody(sent), base_revision: base.revision });
    if (parsed.fieldErrors) {
      showProblems(parsed.fieldErrors, 'Some fields need attention.');
      return null;
    }
    dispatch({ type: 'saveSent' });
    try {
      const saved = await updateTemplate.mutateAsync({ orgId, templateId: template.id, body: parsed.data });
      dispatch({ type: 'saved', template: saved, sentFingerprint });
      return saved;
    } catch (error) {
      const failure = describeError(error);
      if (failure.code === 'stale_version') {
        dispatch({ type: 'saveConflicted' });
      } else {
        showProblems(failure.fieldErrors, failure.message);
      }
      return null;
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    dispatch({ type: 'saveStarted', mode: 'saving' });
    const saved = await save();
    dispatch({ type: 'saveEnded', outcome: saved ? (dirty ? 'saved' : 'unchanged') : null });
  }

  async function publish() {
    if (busy) return;
    dispatch({ type: 'saveStarted', mode: 'publishing' });
    const saved = await save();
    if (!saved) {
      dispatch({ type: 'saveEnded', outcome: null });
      return;
    }
    try {
      const published = await publishTemplate.mutateAsync({ orgId, templateId: template.id });
      dispatch({ type: 'published', template: published, savedVersion: saved.latest_version });
    } catch (error) {
      const failure = describeError(error);
      showProblems(failure.fieldErrors, failure.message);
    } finally {
      dispatch({ type: 'saveEnded', outcome: null });
    }
  }

  async function loadLatest() {
    const latest = await queryClient.fetchQuery({ ...templateQueryOptions(orgId, template.id), staleTime: 0 });
    dispatch({ type: 'latestLoaded', template: latest });
  }

  const status = saveStatusText(state, dirty);

  return (
    <form className="template-editor" onSubmit={onSubmit} noValidate aria-label="Template editor">
      <div className="visually-hidden" role="status">
        {state.announcement}
      </div>
      <div role="status">
        {state.conflict ? (
          <div className="form-alert form-alert-info template-conflict">
            <p>
              {state.conflict === 'stale'
                ? 'Someone else saved this template while you were editing, so your changes were not saved.'
                : 'Someone else saved this template while you had it open. Saving now would be refused.'}{' '}
              Load their version to go on; your unsaved changes will be lost.
            </p>
            <div className="button-row">
              <Button variant="secondary" onClick={() => void loadLatest()}>
                Load the latest version
              </Button>
            </div>
          </div>
        ) : null}
      </div>
      <FormAlert message={state.message} />
      <FormAlert tone="success" message={state.notice} />

      <section className="panel" aria-labelledby="template-details-heading">
        <h2 id="template-details-heading">Details</h2>
        <div className="stack">
          <TextField
            label="Template name"
            name="name"
            required
            maxLength={NAME_MAX_LENGTH}
            value={draft.name}
            // "Draft saved." is no longer true of the draft: the reducer clears it.
            onChange={(event) => dispatch({ type: 'setName', name: event.target.value })}
            error={errors.name}
          />
          <TextAreaField
            label="Description"
            name="description"
            maxLength={DESCRIPTION_MAX_LENGTH}
            value={draft.description}
            onChange={(event) => dispatch({ type: 'setDescription', description: event.target.value })}
            hint="Optional: what this checklist is for."
            error={errors.description}
          />
        </div>
      </section>

      <section className="panel" aria-labelledby="template-sections-heading">
        <h2 id="template-sections-heading">Sections</h2>
        <p className="muted">
          {draft.sections.length} {draft.sections.length === 1 ? 'section' : 'sections'}, {itemCountText(totalItems)}. Inspectors see them in this
          order.
        </p>
        {errors['definition.sections'] ? (
          <p className="field-error" role="alert">
            {errors['definition.sections']}
          </p>
        ) : null}
        {draft.sections.length > 1 ? (
          // A long template stays findable: every section one tap away, and all of them folded at once.
          <nav className="section-jumps" aria-label="Sections of the template">
            <ul>
              {draft.sections.map((section) => (
                <li key={section.key}>
                  <button
                    type="button"
                    className="button button-link"
                    onClick={() => {
                      dispatch({ type: 'openSection', key: section.key });
                      requestAnimationFrame(() =>
                        document.getElementById(`section-${section.key}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
                      );
                    }}
                  >
                    {section.title || 'Untitled section'} ({section.items.length})
                  </button>
                </li>
              ))}
            </ul>
            <div className="button-row">
              <Button variant="secondary" onClick={() => dispatch({ type: 'setOpenSections', keys: draft.sections.map((section) => section.key) })}>
                Expand all
              </Button>
              <Button variant="secondary" onClick={() => dispatch({ type: 'setOpenSections', keys: [] })}>
                Collapse all
              </Button>
            </div>
          </nav>
        ) : null}
        {draft.sections.length > 0 ? (
          <Accordion type="multiple" value={state.openSections} onValueChange={(keys) => dispatch({ type: 'setOpenSections', keys })} className="template-sections">
            {draft.sections.map((section, index) => (
              <SectionEditor
                key={section.key}
                section={section}
                index={index}
                count={draft.sections.length}
                totalItems={totalItems}
                errors={errors}
                onTitle={(title) => dispatch({ type: 'setSectionTitle', section: index, title })}
                onMove={(delta) => dispatch({ type: 'moveSection', section: index, delta })}
                onRemove={() => dispatch({ type: 'removeSection', section: index })}
                onAddItem={(kind) => dispatch({ type: 'addItem', section: index, kind, key: newItemKey(kind, draft.sections) })}
                onItemChange={(item, patch) => dispatch({ type: 'changeItem', section: index, item, patch })}
                onItemMove={(item, delta) => dispatch({ type: 'moveItem', section: index, item, delta })}
                onItemRemove={(item) => dispatch({ type: 'removeItem', section: index, item })}
                onRule={(rule) => dispatch({ type: 'setSectionRule', section: index, rule })}
                focusLater={focusLater}
                earlier={draft.sections.slice(0, index).flatMap((earlier) => earlier.items)}
                items={itemsByKey}
                opsByKey={opsByKey}
              />
            ))}
          </Accordion>
        ) : (
          <p>No sections yet. Add one, then add its items.</p>
        )}
        <div className="template-add-section">
          <Button
            variant="secondary"
            data-focus="template:add-section"
            disabled={draft.sections.length >= MAX_SECTIONS}
            onClick={() => dispatch({ type: 'addSection', key: newSectionKey(draft.sections) })}
          >
            <Plus aria-hidden="true" size={18} />
            Add section
          </Button>
        </div>
      </section>

      <section className="panel" aria-labelledby="template-preview-heading">
        <h2 id="template-preview-heading">Preview</h2>
        <p className="muted">
          The run page as an inspector meets it: answer items and see the ones with a rule appear and disappear. Nothing is saved.
        </p>
        {state.previewOpen ? (
          previewDefinition ? (
            <TemplateRunPreview definition={previewDefinition} />
          ) : (
            <p role="status">Some fields need attention before the draft can be previewed: save it to see where.</p>
          )
        ) : null}
        <div className="button-row">
          <Button variant="secondary" aria-expanded={state.previewOpen} onClick={() => dispatch({ type: 'togglePreview' })}>
            {state.previewOpen ? 'Hide preview' : 'Preview the run page'}
          </Button>
        </div>
      </section>

      <div className="sticky-bar template-savebar">
        {blocker.state === 'blocked' ? (
          <div className="template-leave" role="alert">
            <p>You have unsaved changes. Leave this page without saving them?</p>
            <div className="button-row">
              <Button variant="danger" onClick={() => blocker.proceed()}>
                Leave without saving
              </Button>
              <Button ref={stayRef} variant="secondary" onClick={() => blocker.reset()}>
                Stay on this page
              </Button>
            </div>
          </div>
        ) : null}
        <p className="template-save-state" role="status">
          {status}
        </p>
        <div className="button-row">
          <Button type="submit" variant="secondary" pending={saveState === 'saving'} disabled={busy}>
            Save draft
          </Button>
          <Button pending={saveState === 'publishing'} disabled={busy} onClick={() => void publish()}>
            Publish
          </Button>
        </div>
      </div>
    </form>
  );
}
