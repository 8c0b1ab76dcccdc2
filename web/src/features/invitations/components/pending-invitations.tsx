import { useState } from 'react';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadMoreButton } from '@/components/ui/paged-list';
import { describeErrorSentence } from '@/lib/errors';
import { roleLabel } from '@/lib/roles';
import { useInvitations } from '../api/get-invitations';
import { useResendInvitation } from '../api/resend-invitation';
import { useRevokeInvitation } from '../api/revoke-invitation';
import { Button } from '@/components/ui/button';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { QueryError } from '@/components/ui/query-error';

export function PendingInvitations({ orgId }: { orgId: string }) {
  const invitations = useInvitations(orgId, 'pending');
  const revoke = useRevokeInvitation();
  const resend = useResendInvitation();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  if (invitations.isPending) return <p className="muted">Loading invitations…</p>;
  if (invitations.isError) return <QueryError error={invitations.error} onRetry={() => invitations.refetch()} />;

  const rows = invitations.data.pages.flatMap((page) => page.data);

  return (
    <div className="stack">
      <FormAlert message={error} />
      <FormAlert tone="success" message={notice} />
      {rows.length === 0 ? (
        <p className="muted">No invitations are waiting for an answer.</p>
      ) : (
        <ul className="card-list" aria-label="Pending invitations">
          {rows.map((invitation) => (
            <li key={invitation.id} className="card-list-item">
              <div>
                <span className="card-list-title">{invitation.email}</span>
                <span className="muted">
                  {' '}
                  · {roleLabel(invitation.role)} · expires {new Date(invitation.expires_at).toLocaleDateString()}
                </span>
              </div>
              <div className="button-row">
                <Button
                  type="button"
                  variant="secondary"
                  aria-label={`Send the invitation for ${invitation.email} again`}
                  pending={resend.isPending && resend.variables.invitationId === invitation.id}
                  onClick={() => {
                    setError(undefined);
                    setNotice(undefined);
                    resend.mutate(
                      { orgId, invitationId: invitation.id, idempotencyKey: newIdempotencyKey() },
                      {
                        onSuccess: () => setNotice(`We've sent the invitation to ${invitation.email} again, with a new link. The old link no longer works.`),
                        onError: (cause) => setError(describeErrorSentence(cause)),
                      },
                    );
                  }}
                >
                  Send again
                </Button>
                <ConfirmButton
                  label={`Revoke the invitation for ${invitation.email}`}
                  question={`Revoke the invitation for ${invitation.email}?`}
                  confirmText="Yes, revoke"
                  pending={revoke.isPending && revoke.variables.invitationId === invitation.id}
                  onConfirm={() => {
                    setError(undefined);
                    setNotice(undefined);
                    revoke.mutate(
                      { orgId, invitationId: invitation.id },
                      {
                        onSuccess: () => setNotice(`The invitation for ${invitation.email} was revoked.`),
                        onError: (cause) => setError(describeErrorSentence(cause)),
                      },
                    );
                  }}
                >
                  Revoke
                </ConfirmButton>
              </div>
            </li>
          ))}
        </ul>
      )}
      <LoadMoreButton query={invitations} />
    </div>
  );
}
