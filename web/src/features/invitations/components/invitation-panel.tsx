import type { AcceptedInvitation, InvitationPreview } from '@schemas/members';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeError, describeErrorSentence } from '@/lib/errors';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { roleLabel, roleWithArticle } from '@/lib/roles';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useInvitationPreview } from '../api/get-invitation-preview';

interface InvitationPanelProps {
  token: string;
  /** The signed-in user's email, or null when signed out. */
  signedInEmail: string | null;
  /** Sign-in and sign-up links that come back to this page, for the invited address if known. */
  renderSignedOutActions: (email: string | null) => ReactNode;
  /** Shown when signed in with another address, e.g. a sign-out button. */
  otherAccountActions: ReactNode;
  /** Where to go once the user belongs to the organization. */
  onAccepted: (accepted: AcceptedInvitation) => void;
}

function Summary({ preview }: { preview: InvitationPreview }) {
  return (
    <dl className="details">
      <div>
        <dt>Organization</dt>
        <dd>{preview.org_name}</dd>
      </div>
      <div>
        <dt>Role</dt>
        <dd>{roleLabel(preview.role)}</dd>
      </div>
      <div>
        <dt>Invited by</dt>
        <dd>{preview.invited_by_name || 'A member of the organization'}</dd>
      </div>
      <div>
        <dt>For</dt>
        <dd>{preview.email}</dd>
      </div>
    </dl>
  );
}

const closedWording: Record<Exclude<InvitationPreview['status'], 'pending'>, string> = {
  accepted: 'This invitation has already been accepted.',
  expired: 'This invitation has expired. Ask the person who invited you to send a new one.',
  revoked: 'This invitation was withdrawn. Ask the person who invited you if you still need access.',
};

export function InvitationPanel({ token, signedInEmail, renderSignedOutActions, otherAccountActions, onAccepted }: InvitationPanelProps) {
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const idempotency = useIdempotencyKey();

  if (preview.isPending) return <p className="muted">Loading the invitation…</p>;
  if (preview.isError) {
    const failure = describeError(preview.error);
    // Signed out, the API may want a session even to show the invitation.
    if (failure.code === 'unauthenticated' && !signedInEmail) {
      return (
        <div className="stack">
          <p>Sign in or create an account to see this invitation.</p>
          {renderSignedOutActions(null)}
        </div>
      );
    }
    return <FormAlert message={failure.message} />;
  }

  const invitation = preview.data;
  const intro = `${invitation.invited_by_name || 'Someone'} invited you to join ${invitation.org_name} as ${roleWithArticle(invitation.role)}.`;

  if (invitation.status !== 'pending') {
    return (
      <div className="stack">
        <Summary preview={invitation} />
        <FormAlert message={closedWording[invitation.status]} />
      </div>
    );
  }

  if (!signedInEmail) {
    return (
      <div className="stack">
        <p>{intro}</p>
        <Summary preview={invitation} />
        <p>
          To accept, sign in or create an account with <strong>{invitation.email}</strong>.
        </p>
        {renderSignedOutActions(invitation.email)}
      </div>
    );
  }

  if (signedInEmail.toLowerCase() !== invitation.email.toLowerCase()) {
    return (
      <div className="stack">
        <Summary preview={invitation} />
        <FormAlert
          message={`This invitation is for ${invitation.email}, but you're signed in as ${signedInEmail}. Sign in with ${invitation.email} to accept it.`}
        />
        {otherAccountActions}
      </div>
    );
  }

  return (
    <div className="stack">
      <p>{intro}</p>
      <Summary preview={invitation} />
      <FormAlert message={accept.isError ? describeErrorSentence(accept.error) : undefined} />
      <Button
        pending={accept.isPending}
        onClick={() => {
          const body = { token };
          accept.mutate({ token, idempotencyKey: idempotency.keyFor(body) }, { onSuccess: onAccepted });
        }}
      >
        Accept invitation
      </Button>
    </div>
  );
}
