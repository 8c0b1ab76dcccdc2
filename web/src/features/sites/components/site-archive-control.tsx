import type { Site } from '@schemas/sites';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeErrorSentence } from '@/lib/errors';
import { useArchiveSite } from '../api/archive-site';
import { useUpdateSite } from '../api/update-site';

/** Archive (DELETE) or bring back (PATCH archived: false); history stays either way. */
export function SiteArchiveControl({ orgId, site }: { orgId: string; site: Site }) {
  const archive = useArchiveSite();
  const unarchive = useUpdateSite();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  function onError(cause: unknown) {
    setError(describeErrorSentence(cause));
  }

  return (
    <div className="stack">
      <FormAlert message={error} />
      <FormAlert tone="success" message={notice} />
      {site.archived_at ? (
        <>
          <p>This site is archived: it is hidden from the list of active sites.</p>
          <div>
            <Button
              variant="secondary"
              pending={unarchive.isPending}
              onClick={() => {
                setError(undefined);
                setNotice(undefined);
                unarchive.mutate(
                  { orgId, siteId: site.id, body: { archived: false } },
                  { onSuccess: () => setNotice('The site is active again.'), onError },
                );
              }}
            >
              Unarchive site
            </Button>
          </div>
        </>
      ) : (
        <>
          <p>Archiving hides the site from the list of active sites. Its inspections and history are kept, and you can unarchive it later.</p>
          <div>
            <ConfirmButton
              question={`Archive ${site.name}?`}
              confirmText="Yes, archive"
              pending={archive.isPending}
              onConfirm={() => {
                setError(undefined);
                setNotice(undefined);
                archive.mutate({ orgId, siteId: site.id }, { onSuccess: () => setNotice('The site was archived.'), onError });
              }}
            >
              Archive site
            </ConfirmButton>
          </div>
        </>
      )}
    </div>
  );
}
