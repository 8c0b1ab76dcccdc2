import { definitionSchema, DESCRIPTION_MAX_LENGTH, MAX_SECTIONS, templateUpdateSchema, type ItemKind, type Template } from '@schemas/templates';
import { NAME_MAX_LENGTH } from '@schemas/common';
import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useBlocker } from 'react-router-dom';
import { Accordion } from '../../../components/ui/accordion';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextAreaField } from '../../../components/ui/textarea-field';
import { TextField } from '../../../components/ui/text-field';
import { describeError } from '../../../lib/errors';
import { validateForm } from '../../../lib/form-values';
import { templateQueryOptions } from '../api/get-template';
import { usePublishTemplate } from '../api/publish-template';
import { useUpdateTemplate } from '../api/update-template';
import {
  draftBody,
  draftFingerprint,
  draftFromTemplate,
  draftItemsByKey,
  keysOf,
  moved,
  newItem,
  newSection,
  type Draft,
  type DraftItem,
  type DraftSection,
} from '../utils/draft';
import { placeErrors, sectionsWithErrors } from '../utils/field-errors';
import { itemCountText, itemKindLabels } from '../utils/template-format';
import { itemName } from './item-editor';
import { draftOpsFor } from './rule-editor';
import { SectionEditor, sectionName } from './section-editor';
import { TemplateRunPreview } from './template-run-preview';
import '../templates.css';

interface TemplateEditorProps {
  orgId: string;
  /** The template as the server has it now (kept live by the organization's events). */
  template: Template;
  /** A message from the page before ("… was created."), until the next one replaces it. */
  initialNotice?: string;
}

type SaveState = 'idle' | 'saving' | 'publishing';

/**
 * The draft of a template, edited in the page and saved as a whole with the revision it started
 * from, so that a save never silently replaces someone else's; publishing saves first.
 */
export function TemplateEditor({ orgId, template, initialNotice }: TemplateEditorProps) {
  const queryClient = useQueryClient();
  const updateTemplate = useUpdateTemplate();
  const publishTemplate = usePublishTemplate();

  // The server's template this draft started from: its revision goes with every save.
  const [base, setBase] = useState(template);
  const [draft, setDraft] = useState<Draft>(() => draftFromTemplate(template));
  const [openSections, setOpenSections] = useState<string[]>(() => template.definition.sections.slice(0, 1).map((s) => s.key));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>(initialNotice);
  // Someone else saved meanwhile: our save would be refused (stale_version) until we load theirs.
  const [conflict, setConflict] = useState<'changed_elsewhere' | 'stale' | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [saveState, setSaveState] = useState<SaveState>('idle');

  const draftRef = useRef(draft);
  draftRef.current = draft;
  const pendingFocus = useRef<string | null>(null);

  const fingerprint = useMemo(() => draftFingerprint(draft), [draft]);
  const baseFingerprint = useMemo(() => draftFingerprint(draftFromTemplate(base)), [base]);
  const dirty = fingerprint !== baseFingerprint;
  const busy = saveState !== 'idle';
  const totalItems = draft.sections.reduce((total, section) => total + section.items.length, 0);
  const itemsByKey = useMemo(() => draftItemsByKey(draft.sections), [draft.sections]);
  // Once per draft, not once per rule for every earlier item (templates reach MAX_ITEMS).
  const opsByKey = useMemo(() => new Map([...itemsByKey].map(([key, item]) => [key, draftOpsFor(item)])), [itemsByKey]);
  const [previewOpen, setPreviewOpen] = useState(false);
  // The draft as the run page would get it; only while the preview is open.
  const previewDefinition = useMemo(() => {
    if (!previewOpen) return null;
    const parsed = definitionSchema.safeParse((draftBody(draft) as { definition: unknown }).definition);
    return parsed.success ? parsed.data : null;
  }, [previewOpen, draft]);

  // Focus follows the control a change moved or created (rendered by now).
  useEffect(() => {
    const key = pendingFocus.current;
    if (!key) return;
    pendingFocus.current = null;
    const target = document.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
    if (target && !(target as HTMLButtonElement).disabled) {
      target.focus();
    } else if (key.endsWith(':up') || key.endsWith(':down')) {
      // Moved to an end: its button in the other direction is the one still usable.
      const other = key.endsWith(':up') ? `${key.slice(0, -3)}:down` : `${key.slice(0, -5)}:up`;
      document.querySelector<HTMLElement>(`[data-focus="${CSS.escape(other)}"]`)?.focus();
    }
  });

  // The server's template changed (our own save, or someone else's through the live events).
  useEffect(() => {
    if (busy || template === base || template.revision < base.revision) return;
    if (template.revision === base.revision) {
      setBase(template);
      return;
    }
    const theirs = draftFromTemplate(template);
    if (draftFingerprint(theirs) === fingerprint) {
      setBase(template);
    } else if (!dirty) {
      setBase(template);
      setDraft(theirs);
    } else {
      setConflict((current) => current ?? 'changed_elsewhere');
    }
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
    pendingFocus.current = key;
  }

  function changeSections(change: (sections: DraftSection[]) => DraftSection[], structural = false) {
    setDraft((current) => ({ ...current, sections: change(current.sections) }));
    setNotice(undefined);
    // Paths of the old messages point at other places after a move or removal.
    if (structural) {
      setErrors({});
      setMessage(undefined);
    }
  }

  function changeSection(index: number, change: (section: DraftSection) => DraftSection, structural = false) {
    changeSections((sections) => sections.map((section, i) => (i === index ? change(section) : section)), structural);
  }

  function addSection() {
    const section = newSection(`Section ${draft.sections.length + 1}`, keysOf(draft.sections));
    changeSections((sections) => [...sections, section], true);
    setOpenSections((open) => [...open, section.key]);
    focusLater(`section:${section.key}:title`);
    setAnnouncement(`${section.title} added.`);
  }

  function moveSection(index: number, delta: -1 | 1) {
    const section = draft.sections[index];
    changeSections((sections) => moved(sections, index, delta), true);
    focusLater(`section:${section.key}:${delta < 0 ? 'up' : 'down'}`);
    setAnnouncement(`${sectionName(section, index)} moved to position ${index + delta + 1} of ${draft.sections.length}.`);
  }

  function removeSection(index: number) {
    const section = draft.sections[index];
    const next = draft.sections[index + 1] ?? draft.sections[index - 1];
    changeSections((sections) => sections.filter((_, i) => i !== index), true);
    focusLater(next ? `section:${next.key}:title` : 'template:add-section');
    if (next) setOpenSections((open) => (open.includes(next.key) ? open : [...open, next.key]));
    setAnnouncement(`${sectionName(section, index)} removed.`);
  }

  function addItem(sectionIndex: number, kind: ItemKind) {
    const item = newItem(kind, keysOf(draft.sections));
    changeSection(sectionIndex, (section) => ({ ...section, items: [...section.items, item] }), true);
    focusLater(`item:${item.key}:label`);
    setAnnouncement(`${itemKindLabels[kind]} item added.`);
  }

  function changeItem(sectionIndex: number, itemIndex: number, patch: Partial<DraftItem>) {
    changeSection(sectionIndex, (section) => ({
      ...section,
      items: section.items.map((item, i) => (i === itemIndex ? { ...item, ...patch } : item)),
    }));
  }

  function moveItem(sectionIndex: number, itemIndex: number, delta: -1 | 1) {
    const section = draft.sections[sectionIndex];
    const item = section.items[itemIndex];
    changeSection(sectionIndex, (current) => ({ ...current, items: moved(current.items, itemIndex, delta) }), true);
    focusLater(`item:${item.key}:${delta < 0 ? 'up' : 'down'}`);
    setAnnouncement(`${itemName(item, itemIndex + 1)} moved to position ${itemIndex + delta + 1} of ${section.items.length}.`);
  }

  function removeItem(sectionIndex: number, itemIndex: number) {
    const section = draft.sections[sectionIndex];
    const item = section.items[itemIndex];
    const next = section.items[itemIndex + 1] ?? section.items[itemIndex - 1];
    changeSection(sectionIndex, (current) => ({ ...current, items: current.items.filter((_, i) => i !== itemIndex) }), true);
    focusLater(next ? `item:${next.key}:label` : `section:${section.key}:add-item`);
    setAnnouncement(`${itemName(item, itemIndex + 1)} removed.`);
  }

  function showErrors(fieldErrors: Record<string, string>, summary: string | undefined) {
    const placed = placeErrors(fieldErrors);
    setErrors(placed.byPath);
    setMessage([summary, ...placed.elsewhere].filter(Boolean).join(' ') || undefined);
    const invalidSections = sectionsWithErrors(placed.byPath);
    const keys = draftRef.current.sections.filter((_, index) => invalidSections.has(index)).map((section) => section.key);
    setOpenSections((open) => [...new Set([...open, ...keys])]);
    // Once the sections with problems are open, the first problem gets the focus.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('.template-editor [aria-invalid="true"]')?.focus());
  }

  /** Saves the draft when it has changes; the template as saved, or null when it could not be. */
  async function save(): Promise<Template | null> {
    const sent = draftRef.current;
    const sentFingerprint = draftFingerprint(sent);
    if (sentFingerprint === baseFingerprint) return base;
    const parsed = validateForm(templateUpdateSchema, { ...draftBody(sent), base_revision: base.revision });
    if (parsed.fieldErrors) {
      showErrors(parsed.fieldErrors, 'Some fields need attention.');
      return null;
    }
    setErrors({});
    setMessage(undefined);
    try {
      const saved = await updateTemplate.mutateAsync({ orgId, templateId: template.id, body: parsed.data });
      setBase(saved);
      // The server's words replace ours (trimmed, numbers as numbers) unless we typed on meanwhile.
      const savedDraft = draftFromTemplate(saved);
      if (draftFingerprint(draftRef.current) === sentFingerprint && draftFingerprint(savedDraft) !== sentFingerprint) {
        setDraft(savedDraft);
      }
      return saved;
    } catch (error) {
      const failure = describeError(error);
      if (failure.code === 'stale_version') {
        setConflict('stale');
      } else {
        showErrors(failure.fieldErrors, failure.message);
      }
      return null;
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setNotice(undefined);
    // "… item added." was about the editing before this save, not after it.
    setAnnouncement('');
    setSaveState('saving');
    const saved = await save();
    setSaveState('idle');
    if (saved) setNotice(dirty ? 'Draft saved.' : 'No changes to save.');
  }

  async function publish() {
    if (busy) return;
    setNotice(undefined);
    setAnnouncement('');
    setSaveState('publishing');
    const saved = await save();
    if (!saved) {
      setSaveState('idle');
      return;
    }
    try {
      const published = await publishTemplate.mutateAsync({ orgId, templateId: template.id });
      setBase(published);
      setErrors({});
      setMessage(undefined);
      setNotice(
        published.latest_version !== saved.latest_version
          ? `Version ${published.latest_version} published.`
          : `Nothing changed since version ${published.latest_version}, so no new version was published.`,
      );
    } catch (error) {
      const failure = describeError(error);
      showErrors(failure.fieldErrors, failure.message);
    } finally {
      setSaveState('idle');
    }
  }

  async function loadLatest() {
    const latest = await queryClient.fetchQuery({ ...templateQueryOptions(orgId, template.id), staleTime: 0 });
    setBase(latest);
    setDraft(draftFromTemplate(latest));
    setConflict(null);
    setErrors({});
    setMessage(undefined);
    setAnnouncement('');
    setNotice('Showing the latest saved version.');
  }

  const status = busy
    ? saveState === 'publishing'
      ? 'Publishing…'
      : 'Saving…'
    : dirty
      ? 'Unsaved changes'
      : base.latest_version === null
        ? 'Saved as a draft, not published yet'
        : base.has_unpublished_changes
          ? `Saved; changes since version ${base.latest_version} are not published`
          : `Saved and published as version ${base.latest_version}`;

  return (
    <form className="template-editor" onSubmit={onSubmit} noValidate aria-label="Template editor">
      <div className="visually-hidden" role="status">
        {announcement}
      </div>
      <div role="status">
        {conflict ? (
          <div className="form-alert form-alert-info template-conflict">
            <p>
              {conflict === 'stale'
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
      <FormAlert message={message} />
      <FormAlert tone="success" message={notice} />

      <section className="panel" aria-labelledby="template-details-heading">
        <h2 id="template-details-heading">Details</h2>
        <div className="stack">
          <TextField
            label="Template name"
            name="name"
            required
            maxLength={NAME_MAX_LENGTH}
            value={draft.name}
            onChange={(event) => {
              setDraft((current) => ({ ...current, name: event.target.value }));
              // "Draft saved." is no longer true of the draft.
              setNotice(undefined);
            }}
            error={errors.name}
          />
          <TextAreaField
            label="Description"
            name="description"
            maxLength={DESCRIPTION_MAX_LENGTH}
            value={draft.description}
            onChange={(event) => {
              setDraft((current) => ({ ...current, description: event.target.value }));
              setNotice(undefined);
            }}
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
                      setOpenSections((open) => (open.includes(section.key) ? open : [...open, section.key]));
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
              <Button variant="secondary" onClick={() => setOpenSections(draft.sections.map((section) => section.key))}>
                Expand all
              </Button>
              <Button variant="secondary" onClick={() => setOpenSections([])}>
                Collapse all
              </Button>
            </div>
          </nav>
        ) : null}
        {draft.sections.length > 0 ? (
          <Accordion type="multiple" value={openSections} onValueChange={setOpenSections} className="template-sections">
            {draft.sections.map((section, index) => (
              <SectionEditor
                key={section.key}
                section={section}
                index={index}
                count={draft.sections.length}
                totalItems={totalItems}
                errors={errors}
                onTitle={(title) => changeSection(index, (current) => ({ ...current, title }))}
                onMove={(delta) => moveSection(index, delta)}
                onRemove={() => removeSection(index)}
                onAddItem={(kind) => addItem(index, kind)}
                onItemChange={(itemIndex, patch) => changeItem(index, itemIndex, patch)}
                onItemMove={(itemIndex, delta) => moveItem(index, itemIndex, delta)}
                onItemRemove={(itemIndex) => removeItem(index, itemIndex)}
                onRule={(rule) => changeSection(index, (current) => ({ ...current, rule }))}
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
          <Button variant="secondary" data-focus="template:add-section" disabled={draft.sections.length >= MAX_SECTIONS} onClick={addSection}>
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
        {previewOpen ? (
          previewDefinition ? (
            <TemplateRunPreview definition={previewDefinition} />
          ) : (
            <p role="status">Some fields need attention before the draft can be previewed: save it to see where.</p>
          )
        ) : null}
        <div className="button-row">
          <Button variant="secondary" aria-expanded={previewOpen} onClick={() => setPreviewOpen((open) => !open)}>
            {previewOpen ? 'Hide preview' : 'Preview the run page'}
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
