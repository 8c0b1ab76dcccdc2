import type { Role } from '@schemas/common';
import { invitationCreateSchema } from '@schemas/members';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { grantableRoleOptions } from '@/lib/roles';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useCreateInvitation } from '../api/create-invitation';

interface InviteMemberFormProps {
  orgId: string;
  /** The inviter's role: admins can't invite owners. */
  role: Role;
}

export function InviteMemberForm({ orgId, role }: InviteMemberFormProps) {
  const createInvitation = useCreateInvitation();
  const idempotency = useIdempotencyKey();
  const options = grantableRoleOptions(role);

  const { failure, handleSubmit } = useValidatedSubmit(invitationCreateSchema, (body, { form, fail }) =>
    createInvitation.mutate(
      { orgId, body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: () => {
          idempotency.reset();
          form.reset();
        },
        onError: fail,
      },
    ),
  );

  return (
    <form
      className="form"
      onSubmit={(event) => {
        // A new attempt hides the last "sent" message.
        createInvitation.reset();
        handleSubmit(event);
      }}
      noValidate
    >
      <FormAlert message={failure?.message} />
      <FormAlert
        tone="success"
        message={createInvitation.isSuccess ? `We've sent an invitation to ${createInvitation.data.email}.` : undefined}
      />
      <div className="form-row">
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="off"
          required
          error={failure?.fieldErrors.email}
        />
        <SelectField label="Role" name="role" options={options} defaultValue="inspector" error={failure?.fieldErrors.role} />
      </div>
      <div>
        <Button type="submit" pending={createInvitation.isPending}>
          Send invitation
        </Button>
      </div>
    </form>
  );
}
