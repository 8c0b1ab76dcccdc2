import { profileUpdateSchema } from '@schemas/profile';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useMe } from '../api/get-me';
import { useUpdateMe } from '../api/update-me';
import { QueryError } from '@/components/ui/query-error';

export function DisplayNameForm() {
  const me = useMe();
  const updateMe = useUpdateMe();
  const { failure, handleSubmit } = useValidatedSubmit(profileUpdateSchema, (data, { fail }) =>
    updateMe.mutate(data, { onError: fail }),
  );

  if (me.isPending) return <p className="muted">Loading your profile…</p>;
  if (me.isError) return <QueryError error={me.error} onRetry={() => me.refetch()} />;

  return (
    // Keyed on the stored profile so the field shows the saved name after every update.
    <form
      key={me.data.updated_at}
      className="form"
      onSubmit={(event) => {
        // A new attempt hides the last "saved" message.
        updateMe.reset();
        handleSubmit(event);
      }}
      // An edit after saving: "saved" is no longer true of what the form shows.
      onInput={() => {
        if (updateMe.isSuccess) updateMe.reset();
      }}
      noValidate
    >
      <FormAlert message={failure?.message} />
      {updateMe.isSuccess ? <FormAlert tone="success" message="Your name has been saved." /> : null}
      <TextField
        label="Display name"
        name="display_name"
        autoComplete="name"
        maxLength={120}
        required
        defaultValue={me.data.display_name}
        error={failure?.fieldErrors.display_name}
      />
      <p className="muted">Signed in as {me.data.email ?? 'an account without email'}</p>
      <Button type="submit" pending={updateMe.isPending}>
        Save name
      </Button>
    </form>
  );
}
