import { API_KEY_ROLES, type ApiKey, type CreatedApiKey } from '@schemas/api-keys';
import { useState, type ReactNode } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadMoreButton } from '@/components/ui/paged-list';
import { QueryError } from '@/components/ui/query-error';
import { SecretShownOnce } from '@/components/ui/secret-shown-once';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { describeErrorSentence } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { roleLabel } from '@/lib/roles';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useCreateApiKey } from '../api/create-api-key';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';

// The form's fields as the API takes them: "Expires on" is a day in the browser's calendar, and
// the key works to the end of it.
const createKeyFormSchema = z.object({
  name: z.string().trim().min(1, { error: 'Enter a name, e.g. the service that will use the key.' }).max(120, { error: 'Use at most 120 characters.' }),
  role: z.enum(API_KEY_ROLES, { error: 'Choose manager, inspector or viewer.' }),
  expires_on: z
    .string()
    .refine((value) => value === '' || new Date(`${value}T23:59:59`).getTime() > Date.now(), { error: 'Choose a day from today on.' }),
}).transform(({ name, role, expires_on }) => ({
  name,
  role,
  expires_at: expires_on === '' ? null : new Date(`${expires_on}T23:59:59`).toISOString(),
}));

const ROLE_OPTIONS = API_KEY_ROLES.map((role) => ({ value: role, label: roleLabel(role) }));
const ROLE_HINTS: Record<(typeof API_KEY_ROLES)[number], string> = {
  manager: 'creates sites and templates, schedules and reviews inspections, works actions',
  inspector: 'starts, answers and submits unassigned inspections',
  viewer: 'reads everything at its sites, changes nothing',
};

const STATUS_LABELS: Record<ApiKey['status'], string> = { active: 'Active', revoked: 'Revoked', expired: 'Expired' };

/** Which sites a new key sees: every one, or the chosen site groups' (and their subgroups'). */
export interface KeySites {
  limited: boolean;
  groupIds: string[];
}

/** The choice of a key's sites, which the settings page brings from the site groups. */
export interface KeySiteAccess {
  /** The form's field for it. */
  field: (value: KeySites, onChange: (value: KeySites) => void, error: string | undefined) => ReactNode;
  /** The `site_group_ids` to send (empty: every site), or why the choice can't be sent. */
  idsOf: (value: KeySites) => { ids: string[] } | { problem: string };
  /** "All sites", "North, South". */
  describe: (key: ApiKey) => string;
}

/** Owners and admins: make keys for other services (the secret shown once), see them, revoke them. */
export function ApiKeysPanel({ orgId, siteAccess }: { orgId: string; siteAccess?: KeySiteAccess }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <div className="stack">
      <p>
        Another service calls the API with a key, sent as <code>Authorization: Bearer &lt;key&gt;</code>. A key acts in this
        organization with its role, like a member with that role; it never manages members, keys or settings. Each key may make
        600 requests a minute. This organization's id, which the API's paths take, is <code>{orgId}</code>.
      </p>
      {created ? <NewKeySecret created={created} onDone={() => setCreated(null)} /> : <CreateKeyForm orgId={orgId} onCreated={setCreated} siteAccess={siteAccess} />}
      <ApiKeyList orgId={orgId} siteAccess={siteAccess} />
    </div>
  );
}

function CreateKeyForm({ orgId, onCreated, siteAccess }: { orgId: string; onCreated: (key: CreatedApiKey) => void; siteAccess?: KeySiteAccess }) {
  const createKey = useCreateApiKey();
  const idempotency = useIdempotencyKey();
  const [role, setRole] = useState<(typeof API_KEY_ROLES)[number]>('viewer');
  const [sites, setSites] = useState<KeySites>({ limited: false, groupIds: [] });
  const [sitesProblem, setSitesProblem] = useState<string | undefined>();
  const { failure, handleSubmit } = useValidatedSubmit(createKeyFormSchema, (fields, { form, fail }) => {
    const chosen = siteAccess ? siteAccess.idsOf(sites) : { ids: [] };
    if ('problem' in chosen) return setSitesProblem(chosen.problem);
    // Keys are immutable: the groups are given now or never (docs/site-groups.md).
    const body = chosen.ids.length > 0 ? { ...fields, site_group_ids: chosen.ids } : fields;
    createKey.mutate(
      { orgId, body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: (key) => {
          idempotency.reset();
          form.reset();
          setSites({ limited: false, groupIds: [] });
          onCreated(key);
        },
        onError: fail,
      },
    );
  });
  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-label="Create an API key">
      <FormAlert message={failure?.message} />
      <div className="form-row">
        <TextField label="Name" name="name" autoComplete="off" required placeholder="Warehouse system" error={failure?.fieldErrors.name} />
        <SelectField
          label="Role"
          name="role"
          options={ROLE_OPTIONS}
          value={role}
          onChange={(event) => setRole(event.target.value as typeof role)}
          hint={`A ${role} key ${ROLE_HINTS[role]}.`}
          error={failure?.fieldErrors.role}
        />
        <TextField label="Expires on (optional)" name="expires_on" type="date" error={failure?.fieldErrors.expires_on ?? failure?.fieldErrors.expires_at} />
      </div>
      {siteAccess?.field(
        sites,
        (next) => {
          setSites(next);
          setSitesProblem(undefined);
        },
        sitesProblem ?? failure?.fieldErrors.site_group_ids,
      )}
      <div>
        <Button type="submit" pending={createKey.isPending}>
          Create key
        </Button>
      </div>
    </form>
  );
}

/** The secret, once; a retried create's answer has none (it was in the first answer only). */
function NewKeySecret({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  if (created.secret === null) {
    return (
      <div className="stack" role="status">
        <FormAlert message={`The key "${created.name}" was created, but its secret was lost on the way. Revoke it below and create another.`} />
        <div>
          <Button type="button" variant="secondary" onClick={onDone}>Create another key</Button>
        </div>
      </div>
    );
  }
  return <SecretShownOnce made={`The key "${created.name}" was created.`} label="Your new key" secretName="key" secret={created.secret} onDone={onDone} />;
}

function ApiKeyList({ orgId, siteAccess }: { orgId: string; siteAccess?: KeySiteAccess }) {
  const keys = useApiKeys(orgId);
  const revoke = useRevokeApiKey();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  if (keys.isPending) return <p className="muted">Loading keys…</p>;
  if (keys.isError) return <QueryError error={keys.error} onRetry={() => keys.refetch()} />;
  const rows = keys.data.pages.flatMap((page) => page.data);

  return (
    <div className="stack">
      <FormAlert message={error} />
      <FormAlert tone="success" message={notice} />
      {rows.length === 0 ? (
        <p className="muted">No keys yet.</p>
      ) : (
        <ul className="card-list" aria-label="API keys">
          {rows.map((key) => (
            <li key={key.id} className="card-list-item">
              <div>
                <span className="card-list-title">{key.name}</span>
                <span className="muted">
                  {' '}
                  · <code>{key.prefix}…</code> · {roleLabel(key.role)} · {STATUS_LABELS[key.status]}
                  {siteAccess ? ` · ${siteAccess.describe(key)}` : null}
                </span>
                <div className="muted">
                  {key.last_used_at ? `Last used ${formatDateTime(key.last_used_at)}` : 'Never used'}
                  {key.status === 'revoked' && key.revoked_at ? ` · revoked ${formatDateTime(key.revoked_at)}` : null}
                  {key.status !== 'revoked' && key.expires_at ? ` · ${key.status === 'expired' ? 'expired' : 'expires'} ${formatDateTime(key.expires_at)}` : null}
                </div>
              </div>
              {key.status === 'active' ? (
                <ConfirmButton
                  label={`Revoke the key ${key.name}`}
                  question={`Revoke ${key.name}? Services using it stop working at once.`}
                  confirmText="Yes, revoke"
                  pending={revoke.isPending && revoke.variables.keyId === key.id}
                  onConfirm={() => {
                    setError(undefined);
                    setNotice(undefined);
                    revoke.mutate(
                      { orgId, keyId: key.id },
                      {
                        onSuccess: () => setNotice(`${key.name} was revoked.`),
                        onError: (cause) => setError(describeErrorSentence(cause)),
                      },
                    );
                  }}
                >
                  Revoke
                </ConfirmButton>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <LoadMoreButton query={keys} />
    </div>
  );
}
