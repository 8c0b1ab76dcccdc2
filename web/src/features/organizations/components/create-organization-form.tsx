import { organizationCreateSchema, slugFromName, type Organization } from '@schemas/organizations';
import { useState } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useCreateOrganization } from '../api/create-organization';

// An empty slug is left out, so the API derives one from the name.
const createOrganizationFormSchema = z.preprocess((input) => {
  const values = input as Record<string, string | undefined>;
  return { name: values.name, slug: values.slug?.trim() ? values.slug : undefined };
}, organizationCreateSchema);

export function CreateOrganizationForm({ onCreated }: { onCreated: (organization: Organization) => void }) {
  const create = useCreateOrganization();
  const idempotency = useIdempotencyKey();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const shownSlug = slugEdited ? slug : name.trim() ? slugFromName(name) : '';

  const { failure, handleSubmit } = useValidatedSubmit(createOrganizationFormSchema, (body, { fail }) =>
    create.mutate(
      { body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: (organization) => {
          idempotency.reset();
          onCreated(organization);
        },
        onError: fail,
      },
    ),
  );

  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-labelledby="create-organization-heading">
      <FormAlert message={failure?.message} />
      <TextField
        label="Organization name"
        name="name"
        autoComplete="organization"
        maxLength={120}
        required
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={failure?.fieldErrors.name}
      />
      <TextField
        label="Short name for links"
        name="slug"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        maxLength={40}
        value={shownSlug}
        onChange={(event) => {
          setSlugEdited(true);
          setSlug(event.target.value);
        }}
        hint={`Lowercase letters, digits and hyphens. Your pages will be at /o/${shownSlug || 'your-team'}.`}
        error={failure?.fieldErrors.slug}
      />
      <div>
        <Button type="submit" pending={create.isPending}>
          Create organization
        </Button>
      </div>
    </form>
  );
}
