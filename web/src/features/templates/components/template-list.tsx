import { ClipboardList } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ListScreen } from '@/components/ui/paged-list';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useTemplates, type TemplateStatusFilter } from '../api/get-templates';
import { itemCountText, versionText } from '../utils/template-format';
import { TemplateStatusBadges } from './template-status-badges';
import '../templates.css';

const statusOptions: Array<{ value: TemplateStatusFilter; label: string }> = [
  { value: 'active', label: 'Drafts and published' },
  { value: 'draft', label: 'Drafts' },
  { value: 'published', label: 'Published' },
  { value: 'archived', label: 'Archived' },
];

const emptyText: Record<TemplateStatusFilter, string> = {
  active: 'No templates yet.',
  draft: 'No drafts.',
  published: 'No published templates.',
  archived: 'No archived templates.',
};

interface TemplateListProps {
  orgId: string;
  orgSlug: string;
}

export function TemplateList({ orgId, orgSlug }: TemplateListProps) {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 300);
  const [status, setStatus] = useState<TemplateStatusFilter>('active');
  const templates = useTemplates(orgId, { q, status });

  const searching = search.trim() !== '' || q.trim() !== '';

  return (
    <ListScreen
      searchLabel="Find templates"
      filtersClassName="filters template-filters"
      filters={
        <>
          <TextField
            label="Search templates"
            name="q"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Name or description"
            maxLength={200}
          />
          <SelectField
            label="Status"
            name="status"
            options={statusOptions}
            value={status}
            onChange={(event) => setStatus(event.target.value as TemplateStatusFilter)}
          />
        </>
      }
      query={templates}
      loadingText="Loading templates…"
      noun={['template', 'templates']}
      emptyText={searching ? 'No templates match your search.' : emptyText[status]}
    >
      {(rows, busy) => (
        <ul className="site-list" aria-label="Templates" aria-busy={busy}>
          {rows.map((template) => (
            <li key={template.id} className="template-row">
              <ClipboardList aria-hidden="true" className="site-pin" size={22} />
              <div className="template-row-main">
                <p className="template-row-title">
                  <Link to={`/o/${orgSlug}/templates/${template.id}`} className="site-name">
                    {template.name}
                  </Link>
                  <TemplateStatusBadges template={template} />
                </p>
                {template.description ? <p className="template-row-description">{template.description}</p> : null}
                <p className="muted">
                  {versionText(template)} · {itemCountText(template.item_count)}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </ListScreen>
  );
}
