import { useState } from 'react';
import { SelectField } from '@/components/ui/select-field';
import { formatDateTime } from '@/lib/format';
import { useTemplateVersion } from '../api/get-template-version';
import { TemplatePreview } from './template-preview';
import { QueryError } from '@/components/ui/query-error';

interface TemplateVersionsProps {
  orgId: string;
  templateId: string;
  latestVersion: number;
}

/** The published versions, newest first: pick one to read it as inspections scheduled with it see it. */
export function TemplateVersions({ orgId, templateId, latestVersion }: TemplateVersionsProps) {
  const [chosen, setChosen] = useState<number | null>(null);
  const shown = chosen ?? latestVersion;
  const version = useTemplateVersion(orgId, templateId, shown);
  const options = Array.from({ length: latestVersion }, (_, i) => latestVersion - i).map((n) => ({
    value: String(n),
    label: n === latestVersion ? `Version ${n} (latest)` : `Version ${n}`,
  }));

  return (
    <div className="stack">
      <SelectField
        label="Show version"
        name="version"
        options={options}
        value={String(shown)}
        onChange={(event) => setChosen(Number(event.target.value))}
      />
      {version.isPending ? (
        <p className="muted">Loading version {shown}…</p>
      ) : version.isError ? (
        <QueryError error={version.error} onRetry={() => version.refetch()} />
      ) : (
        <div className="stack">
          <p className="muted">
            {version.data.name} · published {formatDateTime(version.data.published_at)}
          </p>
          <TemplatePreview key={shown} definition={version.data.definition} />
        </div>
      )}
    </div>
  );
}
