import { ClipboardList } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useTemplates, type TemplateStatusFilter } from '../api/get-templates';
import { itemCountText, versionText } from '../utils/template-format';
import { TemplateStatusBadges } from './template-status-badges';
import '../templates.css';
import { QueryError } from '../../../components/ui/query-error';

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

  const rows = templates.data?.pages.flatMap((page) => page.data) ?? [];
  const searching = search.trim() !== '' || q.trim() !== '';

  return (
    <div className="stack">
      <div className="filters template-filters" role="search" aria-label="Find templates">
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
      </div>

      {templates.isPending ? (
        <p className="muted">Loading templates…</p>
      ) : templates.isError && rows.length === 0 ? (
        <QueryError error={templates.error} onRetry={() => templates.refetch()} />
      ) : (
        <>
          <p className="muted" role="status">
            {rows.length === 0
              ? searching
                ? 'No templates match your search.'
                : emptyText[status]
              : `${rows.length}${templates.hasNextPage ? '+' : ''} ${rows.length === 1 ? 'template' : 'templates'}`}
          </p>
          {rows.length > 0 ? (
            <ul className="site-list" aria-label="Templates" aria-busy={templates.isPlaceholderData || undefined}>
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
          ) : null}
          <LoadMoreButton query={templates} />
          {templates.isError ? <QueryError error={templates.error} onRetry={() => templates.refetch()} /> : null}
        </>
      )}
    </div>
  );
}
